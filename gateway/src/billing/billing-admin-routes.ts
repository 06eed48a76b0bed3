import { Router } from 'express';
import type { RequestHandler } from 'express';
import { AppError, sendOk } from '@tollgate/envelope/core';
import type { RouteDoc } from '@tollgate/envelope/core';
import type { BillingSummary } from '../domain/billing-summary';
import { ACCOUNT_ID_PATTERN } from '../domain/api-key';
import { askSupport } from './billing-errors';
import { ProviderUnavailableError } from './billing-provider';
import type { Reconciliation } from './reconcile';
import { ACCOUNT_BILLING_SCHEMA, RECONCILIATION_SCHEMA, SUMMARY_SCHEMA } from './billing-schemas';
import type { AccountBillingView } from './billing-views';

const ADMIN = ['UNAUTHORIZED', 'NOT_FOUND', 'STORE_UNAVAILABLE'] as const;

/** The operators' billing routes, described once. */
export const BILLING_ADMIN_ROUTES = {
  summary: { method: 'get', path: '/admin/v1/billing/summary', summary: 'Monthly recurring revenue per currency and paid subscriptions by status', data: SUMMARY_SCHEMA, message: 'Billing summary', errors: [...ADMIN] },
  account: { method: 'get', path: '/admin/v1/billing/accounts/{id}', summary: 'An account’s Stripe customers, paid subscriptions (status, period end) and plans granted by hand (comp)', data: ACCOUNT_BILLING_SCHEMA, message: 'Account billing', errors: [...ADMIN] },
  reconcile: { method: 'post', path: '/admin/v1/billing/reconcile', summary: 'Compare every Stripe subscription with the store now and repair drift (also run every BILLING_RECONCILE_SECONDS)', data: RECONCILIATION_SCHEMA, message: 'Billing reconciled', errors: ['UPSTREAM_UNAVAILABLE', ...ADMIN] },
} satisfies Record<string, RouteDoc>;

/** What the operators' billing routes need; `billing` is absent when card payments are off. */
export interface BillingAdminDeps {
  /** The admin bearer check (http/admin-auth.ts), passed in. */
  adminAuth: RequestHandler;
  supportEmail?: string;
  billing?: {
    summary(): Promise<BillingSummary>;
    account(accountId: string): Promise<AccountBillingView | undefined>;
    reconcile(): Promise<Reconciliation>;
  };
}

const ID = new RegExp(ACCOUNT_ID_PATTERN);

/** Where the billing routes are: under the admin API's version, as every other admin route. */
export const BILLING_ADMIN_BASE = '/admin/v1/billing';
/** Where they were before issue 40; still answered, marked deprecated, until {@link OLD_BASE_SUNSET}. */
export const OLD_BILLING_ADMIN_BASE = '/admin/billing';
/** When the old paths were deprecated (RFC 9745: a Structured Field date, seconds since the epoch). */
const OLD_BASE_DEPRECATED = Date.UTC(2026, 11, 1) / 1000;
/** When they stop answering (RFC 8594: an HTTP-date); six months on. */
export const OLD_BASE_SUNSET = new Date(Date.UTC(2027, 5, 1)).toUTCString();

/**
 * Marks an answer on an old path deprecated (RFC 9745), with its sunset (RFC 8594) and links to
 * the path that replaces it (`successor-version`) and to where this is explained (`deprecation`).
 */
const deprecated: RequestHandler = (req, res, next) => {
  res.setHeader('Deprecation', `@${OLD_BASE_DEPRECATED}`);
  res.setHeader('Sunset', OLD_BASE_SUNSET);
  res.setHeader('Link', [`<${BILLING_ADMIN_BASE}${req.path === '/' ? '' : req.path}>; rel="successor-version"`, '</admin/docs>; rel="deprecation"; type="text/html"']);
  next();
};

/** `/admin/v1/billing/*`, and the same at `/admin/billing/*` marked deprecated, behind the admin token. */
export function createBillingAdminRoutes(deps: BillingAdminDeps): Router {
  const router = Router();
  router.use(OLD_BILLING_ADMIN_BASE, deprecated, deps.adminAuth, routes(deps));
  router.use(BILLING_ADMIN_BASE, deps.adminAuth, routes(deps));
  return router;
}

function routes(deps: BillingAdminDeps): Router {
  const router = Router();
  const on = (): NonNullable<BillingAdminDeps['billing']> => {
    if (!deps.billing) throw new AppError('NOT_FOUND', `card payments are off on this gateway: set STRIPE_SECRET_KEY (and PUBLIC_URL) to take them; people are told to ${askSupport(deps.supportEmail)}`);
    return deps.billing;
  };
  router.get('/summary', async (_req, res) => {
    sendOk(res, await on().summary(), BILLING_ADMIN_ROUTES.summary.message);
  });
  router.get('/accounts/:id', async (req, res) => {
    const { id } = req.params;
    const view = ID.test(id) ? await on().account(id) : undefined;
    if (!view) throw new AppError('NOT_FOUND', `no account with id ${id}`);
    sendOk(res, view, BILLING_ADMIN_ROUTES.account.message);
  });
  router.post('/reconcile', async (_req, res) => {
    try {
      sendOk(res, await on().reconcile(), BILLING_ADMIN_ROUTES.reconcile.message);
    } catch (err) {
      if (err instanceof ProviderUnavailableError) throw new AppError('UPSTREAM_UNAVAILABLE', `${err.message}; nothing was reconciled, try again later`, { cause: err, headers: { 'Retry-After': '30' } });
      throw err;
    }
  });
  return router;
}
