import express, { Router } from 'express';
import type { Request } from 'express';
import { AppError, createQueryParser, sendOk } from '@tollgate/envelope/core';
import type { RouteDoc } from '@tollgate/envelope/core';
import type { Account } from '../data/account-store';
import type { BillingRecord } from '../data/billing-store';
import type { NewAuditEntry } from '../data/audit-log';
import { requestSource } from '../http/audit-source';
import { apiPlansOf, createBodyParser } from '../http/body';
import type { PlanTable } from '../domain/plans';
import type { BillingActions } from './billing-actions';
import type { PlanPreview } from './billing-preview';
import { askSupport } from './billing-errors';
import {
  BILLED_SUBSCRIPTION_SCHEMA,
  BILLING_PAGE_SCHEMA,
  BILLING_STATUS_SCHEMA,
  CHANGE_BODY,
  CHECKOUT_BODY,
  CHECKOUT_STATE_SCHEMA,
  PORTAL_BODY,
  PREVIEW_QUERY,
  PREVIEW_SCHEMA,
  REDIRECT_SCHEMA,
} from './billing-schemas';
import { withdrawnFrom } from './billing-views';
import type { BilledSubscription, BillingPage } from './billing-views';

const CALLER = ['BAD_REQUEST', 'UNAUTHORIZED', 'FORBIDDEN', 'STORE_UNAVAILABLE'] as const;
// CONFLICT: the provider no longer has the account's customer (details.reason customer_missing).
const PROVIDER = ['NOT_FOUND', 'CONFLICT', 'UPSTREAM_UNAVAILABLE', ...CALLER] as const;

/** The person's billing routes, described once (OpenAPI, `/docs`, contract tests). */
export const BILLING_ROUTES = {
  status: { method: 'get', path: '/dashboard/v1/billing/status', summary: 'Whether paid plans are taken by card here, and your running paid subscriptions (read from the gateway, quick)', data: BILLING_STATUS_SCHEMA, message: 'Billing status', errors: [...CALLER] },
  page: { method: 'get', path: '/dashboard/v1/billing', summary: 'Your paid subscriptions and invoices (with links to each invoice’s page and PDF)', data: BILLING_PAGE_SCHEMA, message: 'Billing retrieved', errors: [...PROVIDER] },
  checkout: { method: 'post', path: '/dashboard/v1/billing/checkout', summary: 'Start paying for a plan by card (session cookie only: a key cannot move money): answers the URL of Stripe Checkout to send the browser to; access starts when the payment is confirmed', body: CHECKOUT_BODY, data: REDIRECT_SCHEMA, message: 'Checkout started', errors: ['NOT_READY', ...PROVIDER] },
  checkoutState: { method: 'get', path: '/dashboard/v1/billing/checkout/{session}', summary: 'How a checkout of yours stands, read back from Stripe: null while the payment is processing', data: CHECKOUT_STATE_SCHEMA, message: 'Checkout read', errors: [...PROVIDER] },
  preview: { method: 'get', path: '/dashboard/v1/billing/subscriptions/{api}/preview', summary: 'What a plan would cost before anything is charged: due today (for a change, Stripe’s invoice preview of the prorated difference; for a new plan, the share of the month to the 1st that Checkout charges) and each month after', query: PREVIEW_QUERY, data: PREVIEW_SCHEMA, message: 'Preview computed', errors: ['NOT_READY', ...PROVIDER] },
  change: { method: 'put', path: '/dashboard/v1/billing/subscriptions/{api}', summary: 'Change a plan paid by card (session cookie only): a dearer one at once (the difference for the rest of the period charged now), a cheaper one at the period’s end, a free one by cancelling at the period’s end; your current plan takes back a change to come', body: CHANGE_BODY, data: BILLED_SUBSCRIPTION_SCHEMA, message: 'Subscription changed', errors: ['NOT_READY', 'SUBSCRIPTION_REQUIRED', ...PROVIDER] },
  cancel: { method: 'delete', path: '/dashboard/v1/billing/subscriptions/{api}', summary: 'Cancel a plan paid by card (session cookie only) at the end of the period (it then falls back to the free plan); undo with …/keep', data: BILLED_SUBSCRIPTION_SCHEMA, message: 'Subscription ends at the period’s end', errors: [...PROVIDER] },
  keep: { method: 'post', path: '/dashboard/v1/billing/subscriptions/{api}/keep', summary: 'Take back a cancellation or a plan change set for the period’s end (session cookie only)', data: BILLED_SUBSCRIPTION_SCHEMA, message: 'Subscription kept', errors: [...PROVIDER] },
  portal: { method: 'post', path: '/dashboard/v1/billing/portal', summary: 'Open Stripe’s customer portal (card, invoices) for the card customer of a currency (session cookie only): answers its URL', body: PORTAL_BODY, data: REDIRECT_SCHEMA, message: 'Customer portal opened', errors: [...PROVIDER] },
} satisfies Record<string, RouteDoc>;

/** What the billing routes need; `actions` and `views` are absent when card payments are off. */
export interface BillingRoutesDeps {
  plans: PlanTable;
  /** The dashboard's caller check (a key, or the session cookie with its CSRF check): what reads billing. */
  authenticate: (req: Request) => Promise<{ account: Account }>;
  /** The signed-in person alone (the session cookie with its CSRF check, never a key): what moves money. */
  person: (req: Request) => Promise<{ account: Account; person: { id: string } }>;
  supportEmail?: string;
  /** Records who moved money (the person, through the portal); what Stripe then confirms is billing's own entry. */
  audit?: (entry: NewAuditEntry) => Promise<void>;
  billing?: {
    actions: BillingActions;
    page(account: Account): Promise<BillingPage>;
    running(account: Account): Promise<BilledSubscription[]>;
    preview(account: Account, api: string, plan: string): Promise<PlanPreview>;
  };
}

const SESSION_ID = /^cs_[A-Za-z0-9_]{1,200}$/;

/** `/dashboard/v1/billing/*`: mounted at `/dashboard/v1`, where the portal's session cookie goes. */
export function createBillingRoutes(deps: BillingRoutesDeps): Router {
  const { authenticate, person, plans } = deps;
  const parseCheckout = createBodyParser<{ api: string; plan: string }>(CHECKOUT_BODY);
  const parseChange = createBodyParser<{ plan: string; proration_date?: number }>(CHANGE_BODY);
  const parsePreview = createQueryParser<{ plan: string }>(PREVIEW_QUERY);
  const parsePortal = createBodyParser<{ currency?: string }>(PORTAL_BODY);
  const router = Router();
  router.use('/billing', express.json({ limit: '4kb' }));
  // As the billing page lists it: whether the catalogue still has what it pays for.
  const billed = (api: string, record: BillingRecord): BilledSubscription => ({ api, ...record, withdrawn: withdrawnFrom(plans, api, record.plan) });
  const byPerson = async (req: Request, caller: { account: Account; person: { id: string } }, action: NewAuditEntry['action'], api: string, details: Record<string, unknown>): Promise<void> => {
    await deps.audit?.({ account_id: caller.account.id, ...requestSource(req, { type: 'customer', id: caller.person.id, via: 'portal' }), action, target: api, details });
  };

  router.get('/billing/status', async (req, res) => {
    const { account } = await authenticate(req);
    const support = deps.supportEmail ? { support_email: deps.supportEmail } : {};
    sendOk(res, { card_payments: Boolean(deps.billing), ...support, subscriptions: deps.billing ? await deps.billing.running(account) : [] }, BILLING_ROUTES.status.message);
  });

  // Without a key every other billing route says so, in words a person can act on.
  const on = (): NonNullable<BillingRoutesDeps['billing']> => {
    if (!deps.billing) throw new AppError('NOT_FOUND', `card payments are not set up on this server, so paid plans cannot be taken here; ${askSupport(deps.supportEmail)}`, { details: { reason: 'card_payments_off' } });
    return deps.billing;
  };

  router.get('/billing', async (req, res) => {
    const { account } = await authenticate(req);
    sendOk(res, await on().page(account), BILLING_ROUTES.page.message);
  });
  router.post('/billing/checkout', async (req, res) => {
    const caller = await person(req);
    const { api, plan } = parseCheckout(req.body);
    apiPlansOf(plans, api);
    const started = await on().actions.checkout(caller.account, api, plan);
    await byPerson(req, caller, 'billing.checkout', api, { plan });
    sendOk(res, started, BILLING_ROUTES.checkout.message);
  });
  router.get('/billing/checkout/:session', async (req, res) => {
    const { account } = await authenticate(req);
    if (!SESSION_ID.test(req.params.session)) throw new AppError('NOT_FOUND', 'no checkout of this account has that id');
    const subscription = await on().actions.confirmCheckout(account, req.params.session);
    sendOk(res, { subscription: subscription && billed(subscription.api, subscription) }, BILLING_ROUTES.checkoutState.message);
  });
  // A read, like the billing page: a program with a key may show the price before a person confirms.
  router.get('/billing/subscriptions/:api/preview', async (req, res) => {
    const { account } = await authenticate(req);
    apiPlansOf(plans, req.params.api);
    const { plan } = parsePreview(req.query);
    sendOk(res, await on().preview(account, req.params.api, plan), BILLING_ROUTES.preview.message);
  });
  router.put('/billing/subscriptions/:api', async (req, res) => {
    const caller = await person(req);
    apiPlansOf(plans, req.params.api);
    const { plan, proration_date: prorationDate } = parseChange(req.body);
    const changed = await on().actions.changePlan(caller.account, req.params.api, plan, prorationDate);
    await byPerson(req, caller, 'billing.change', req.params.api, { plan });
    sendOk(res, billed(req.params.api, changed), BILLING_ROUTES.change.message);
  });
  router.delete('/billing/subscriptions/:api', async (req, res) => {
    const caller = await person(req);
    apiPlansOf(plans, req.params.api);
    const canceled = await on().actions.cancel(caller.account, req.params.api);
    await byPerson(req, caller, 'billing.cancel', req.params.api, {});
    sendOk(res, billed(req.params.api, canceled), BILLING_ROUTES.cancel.message);
  });
  router.post('/billing/subscriptions/:api/keep', async (req, res) => {
    const caller = await person(req);
    apiPlansOf(plans, req.params.api);
    const kept = await on().actions.keep(caller.account, req.params.api);
    await byPerson(req, caller, 'billing.keep', req.params.api, {});
    sendOk(res, billed(req.params.api, kept), BILLING_ROUTES.keep.message);
  });
  router.post('/billing/portal', async (req, res) => {
    const { account } = await person(req);
    const { currency } = parsePortal(req.body);
    sendOk(res, await on().actions.portal(account, currency), BILLING_ROUTES.portal.message);
  });
  return router;
}
