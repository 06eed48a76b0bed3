import express, { Router } from 'express';
import type { Request } from 'express';
import { AppError, sendOk } from '@tollgate/envelope/core';
import type { QuerySchema, RouteDoc } from '@tollgate/envelope/core';
import type { Catalogue } from '../domain/catalogue';
import type { PlanTable } from '../domain/plans';
import type { Account, AccountStore } from '../data/account-store';
import { appendAudit, auditedAccountStore } from '../data/audited-account-store';
import type { AuditDeps } from '../data/audited-account-store';
import type { KeyRecord } from '../data/key-store';
import { customerSource, requestSource } from '../http/audit-source';
import type { QuotaStore } from '../data/quota-store';
import { ACCOUNT_SCHEMA } from '../http/account-schemas';
import { noStore } from '../http/no-store';
import { apiPlansOf, checkOffered, createBodyParser, planOf } from '../http/body';
import { formatAmount } from '../domain/format-amount';
import { billedPlanMessage, paidPlanMessage } from '../domain/subscription-refusal';
import { DASHBOARD_ACCOUNT_ROUTES, addDashboardAccountRoutes } from './dashboard-account-routes';
import { USAGE_BREAKDOWN_ROUTES, addUsageBreakdownRoutes } from './usage-breakdown-routes';
import { ACCOUNT_SETTINGS_ROUTES, addAccountSettingsRoutes } from './account-settings-routes';
import type { AccountBilling } from '../data/billing-store';
import { CALLER_ERRORS, createDashboardAuth } from './dashboard-auth';
import type { DashboardCaller } from './dashboard-auth';
import { DASHBOARD_KEY_ROUTES, addDashboardKeyRoutes } from './dashboard-key-routes';
import { DASHBOARD_PLANS_ROUTES, addDashboardPlansRoutes } from './dashboard-plans-routes';
import { DASHBOARD_VERIFY_ROUTES, HOW_TO_VERIFY, addDashboardVerifyRoutes } from './dashboard-verify-routes';
import { createCodes } from './sign-in-codes';
import { SIGN_IN_ROUTES, addSignInRoutes, portalSignIn } from './sign-in-routes';
import { SIGNUP_ROUTES, addSignupRoutes } from './signup-routes';
import type { SessionStore } from '../data/session-store';
import type { TeamStore } from '../data/team-store';
import { INVITATION_TTL_MS } from '../data/team-store';
import { addTeamRoutes } from './team-routes';
import { addTeamAuditRoute } from './team-audit-route';
import { TEAM_ROUTES } from './team-route-docs';
import { createSessionAuth } from './session-auth';
import type { Mailer } from '../mail/mailer';
import { createActionLimiter } from '../http/account-limits';

const SUBSCRIBE_BODY: QuerySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['plan'],
  properties: { plan: { type: 'string', minLength: 1, description: 'a plan name' } },
};

const SUBSCRIPTION_DATA = {
  type: 'object',
  additionalProperties: false,
  required: ['api', 'plan', 'status', 'monthly_quota', 'rate_per_second', 'price', 'currency'],
  properties: {
    api: { type: 'string' },
    plan: { type: 'string' },
    status: { const: 'active' },
    monthly_quota: { type: 'integer' },
    rate_per_second: { type: 'integer' },
    price: { type: 'integer', description: 'Monthly price in the smallest currency unit' },
    currency: { type: 'string' },
  },
};

/** The self-service routes, described once (OpenAPI, `/docs`, contract tests). */
export const DASHBOARD_ROUTES = {
  ...DASHBOARD_PLANS_ROUTES,
  ...SIGNUP_ROUTES,
  ...SIGN_IN_ROUTES,
  ...DASHBOARD_ACCOUNT_ROUTES,
  ...USAGE_BREAKDOWN_ROUTES,
  ...TEAM_ROUTES,
  ...DASHBOARD_VERIFY_ROUTES,
  ...DASHBOARD_KEY_ROUTES,
  ...ACCOUNT_SETTINGS_ROUTES,
  subscribe: { method: 'put', path: '/dashboard/v1/subscriptions/{api}', summary: 'Subscribe your account to a free plan at once (paid plans are taken by card: POST /dashboard/v1/billing/checkout; both need a proven email address; a plan paid by card changes on the billing routes)', body: SUBSCRIBE_BODY, data: SUBSCRIPTION_DATA, message: 'Subscription active', errors: ['SUBSCRIPTION_REQUIRED', ...CALLER_ERRORS] },
  unsubscribe: { method: 'delete', path: '/dashboard/v1/subscriptions/{api}', summary: 'Cancel your account’s subscription to an API (its playground allowance applies again; a plan paid by card is cancelled on the billing routes)', data: ACCOUNT_SCHEMA, message: 'Subscription cancelled', errors: [...CALLER_ERRORS] },
} satisfies Record<string, RouteDoc>;

/** What the dashboard routes need. */
export interface DashboardDeps extends AuditDeps {
  /** The plan table in force (the live catalogue's). */
  plans: PlanTable;
  /** The catalogue in force, for the public `/plans`. */
  catalogue: () => Catalogue;
  keyHeader: string;
  accountStore: AccountStore;
  quotaStore: QuotaStore;
  /** People, memberships and invitations (docs/teams.md). */
  teamStore: TeamStore;
  clock: () => number;
  signupsPerHour: number;
  /** Members and pending invitations a team may hold; docs/teams.md. */
  teamLimits: { maxMembers: number; maxPendingInvitations: number };
  /** Keys an account may create and revoke itself in one UTC day. */
  keysCreatedPerDay: number;
  keysRevokedPerDay: number;
  readUsage: (record: KeyRecord, nowMs: number) => Promise<unknown>;
  /** Portal sessions and mailed codes. */
  sessionStore: SessionStore;
  mailer: Mailer;
  /** Codes asked for per address and per client address in one UTC hour. */
  signInsPerHour: number;
  sessionTtlHours: number;
  /** The origin links in mail point at; unset: the request's own. */
  publicUrl?: string;
  /** Whether paid plans can be taken by card here (STRIPE_SECRET_KEY), and whom to ask otherwise. */
  billing: { enabled: boolean; supportEmail?: string };
  /** The plan of an API the account pays for by card, if any: such a subscription changes through billing only. */
  billedPlanOf?: (accountId: string, api: string) => Promise<string | undefined>;
  /** The account's billing as kept, for its export; unset: none. */
  billingOf?: (accountId: string) => Promise<AccountBilling | undefined>;
  /** Ends the account's paid plans at the card provider before it is deleted; unset: card payments are off. */
  closeBilling?: (accountId: string) => Promise<void>;
}

/** `/dashboard/v1/*`: the back end of the developer dashboard, authenticated by any key of the account. */
export function createDashboardRoutes(deps: DashboardDeps): Router {
  const { plans } = deps;
  const parseSubscribe = createBodyParser<{ plan: string }>(SUBSCRIBE_BODY);
  const authenticate = createDashboardAuth(deps);
  const codes = createCodes(deps);
  // A customer's changes are recorded as theirs, by the key that made them or as signed in to the portal.
  const changesBy = (req: Request, caller: DashboardCaller): AccountStore => auditedAccountStore(deps.accountStore, deps, customerSource(req, caller));
  const router = Router();
  router.use(noStore, express.json({ limit: '4kb' }));

  // Setting or cancelling by hand what a card pays for would leave the card charged.
  const refuseBilled = async (accountId: string, api: string): Promise<void> => {
    const billed = await deps.billedPlanOf?.(accountId, api);
    if (billed) throw new AppError('BAD_REQUEST', billedPlanMessage(api, billed), { details: { reason: 'billed', api, plan: billed } });
  };

  addDashboardPlansRoutes(router, deps.catalogue);
  // What signing in changes (the account made at a first sign-in, keys revoked when an unproven
  // address is proven) is the system's doing, on proof of the address; the sign-in itself is the customer's.
  // The person who signed in, by the address they proved (the team's own address may be another member's).
  const signedIn = (req: Request, account: Account, by: 'code' | 'link', person: { id: string; email: string }): Promise<void> =>
    appendAudit(deps, { account_id: account.id, ...requestSource(req, { type: 'customer', id: person.id, via: 'portal' }), action: 'account.sign_in', target: null, details: { email: person.email, by } });
  addSignInRoutes(router, { ...deps, accountStore: auditedAccountStore(deps.accountStore, deps, { actor: { type: 'system', id: 'sign-in', via: 'portal' }, from: null }), codes, signedIn });

  // As signing in: what JSON sign-up makes (an account on a first proof, its key) is the system's doing, on proof of the address.
  const systemChanges = auditedAccountStore(deps.accountStore, deps, { actor: { type: 'system', id: 'sign-up', via: 'dashboard-api' }, from: null });
  addSignupRoutes(router, { ...deps, accountStore: systemChanges, signIn: portalSignIn({ codes, publicUrl: deps.publicUrl }) });

  addDashboardAccountRoutes(router, { ...deps, authenticate });
  addUsageBreakdownRoutes(router, { ...deps, authenticate });
  const limit = createActionLimiter({ quotaStore: deps.quotaStore, clock: deps.clock, limits: { key_create: deps.keysCreatedPerDay, key_revoke: deps.keysRevokedPerDay } });
  addDashboardKeyRoutes(router, { ...deps, authenticate, changesBy, limit });
  addDashboardVerifyRoutes(router, { ...deps, codes, authenticate, changesBy });
  addTeamRoutes(router, { ...deps, signedIn: createSessionAuth(deps), limits: { ...deps.teamLimits, invitationTtlMs: INVITATION_TTL_MS } });
  addTeamAuditRoute(router, { ...deps, signedIn: createSessionAuth(deps) });
  addAccountSettingsRoutes(router, { ...deps, codes, changesBy, apis: () => Object.keys(plans), supportEmail: deps.billing.supportEmail });

  router.put('/subscriptions/:api', async (req, res) => {
    const caller = await authenticate(req);
    const { account } = caller;
    const { api } = req.params;
    apiPlansOf(plans, api);
    const { plan } = parseSubscribe(req.body);
    const limits = planOf(plans, api, plan);
    checkOffered(plans, api, plan, account.subscriptions[api]?.plan);
    if (!account.email_verified) {
      throw new AppError('FORBIDDEN', `prove this account's email address before subscribing (until then only the playground is open): ${HOW_TO_VERIFY}`, { details: { reason: 'email_unverified' } });
    }
    if (limits.price > 0) {
      throw new AppError('SUBSCRIPTION_REQUIRED', paidPlanMessage(api, plan, formatAmount(limits.price, limits.currency), deps.billing), {
        details: { api, plan, price: limits.price, currency: limits.currency, payment_method_required: true, card_payments: deps.billing.enabled },
      });
    }
    await refuseBilled(account.id, api);
    if (!(await changesBy(req, caller).setSubscription(account.id, api, { plan, status: 'active' }))) throw gone();
    sendOk(res, { api, plan, status: 'active', monthly_quota: limits.monthly_quota, rate_per_second: limits.rate_per_second, price: limits.price, currency: limits.currency }, DASHBOARD_ROUTES.subscribe.message);
  });

  // Idempotent: cancelling what is not subscribed leaves the account as it is, and says so by showing it.
  router.delete('/subscriptions/:api', async (req, res) => {
    const caller = await authenticate(req);
    const { api } = req.params;
    apiPlansOf(plans, api);
    await refuseBilled(caller.account.id, api);
    const updated = await changesBy(req, caller).setSubscription(caller.account.id, api, null);
    if (!updated) throw gone();
    sendOk(res, updated, DASHBOARD_ROUTES.unsubscribe.message);
  });

  return router;
}

// The account was deleted between authenticating and writing: its key no longer opens anything.
function gone(): AppError {
  return new AppError('UNAUTHORIZED', 'unknown API key', { details: { reason: 'unknown' } });
}
