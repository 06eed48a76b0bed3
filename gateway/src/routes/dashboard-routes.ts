import express, { Router } from 'express';
import type { Request } from 'express';
import { AppError, sendOk } from '@tollgate/envelope';
import type { QuerySchema, RouteDoc } from '@tollgate/envelope';
import type { Plan, PlanTable } from '../domain/plans';
import { hourWindow, secondsUntil } from '../domain/windows';
import type { KeyRecord, KeyStore } from '../data/key-store';
import type { QuotaStore } from '../data/quota-store';
import { sendCreated } from './admin-routes';
import { apiPlansOf, checkPlan, createBodyParser } from './body';
import { NEW_KEY_SCHEMA, USAGE_SCHEMA } from './schemas';

const SIGNUP_BODY: QuerySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['email'],
  properties: { email: { type: 'string', maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$', description: 'an email address' } },
};

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

/** The self-service routes, described once. */
export const DASHBOARD_ROUTES = {
  signup: { method: 'post', path: '/dashboard/v1/signup', summary: 'Sign up: a new key with no subscription', body: SIGNUP_BODY, data: NEW_KEY_SCHEMA, message: 'Signed up; keep this key, it is shown once', successStatus: 201, errors: ['BAD_REQUEST', 'RATE_LIMITED', 'STORE_UNAVAILABLE'] },
  subscribe: { method: 'put', path: '/dashboard/v1/subscriptions/{api}', summary: 'Subscribe your key to a plan (free plans at once; paid plans need a payment method)', body: SUBSCRIBE_BODY, data: SUBSCRIPTION_DATA, message: 'Subscription active', errors: ['BAD_REQUEST', 'UNAUTHORIZED', 'SUBSCRIPTION_REQUIRED', 'NOT_FOUND', 'STORE_UNAVAILABLE'] },
  usage: { method: 'get', path: '/dashboard/v1/usage', summary: 'Your usage per API: plan, used, remaining, reset time', data: USAGE_SCHEMA, message: 'Usage retrieved', errors: ['UNAUTHORIZED', 'STORE_UNAVAILABLE'] },
} satisfies Record<string, RouteDoc>;

/** What the dashboard routes need. */
export interface DashboardDeps {
  plans: PlanTable;
  keyHeader: string;
  keyStore: KeyStore;
  quotaStore: QuotaStore;
  clock: () => number;
  signupsPerHour: number;
  readUsage: (record: KeyRecord, nowMs: number) => Promise<unknown>;
}

/** "5.75 USD" from 575 and USD, with the currency's own number of minor digits. */
export function formatPrice(price: number, currency: string): string {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return `${(price / 10 ** digits).toFixed(digits)} ${currency}`;
}

/** `/dashboard/v1/*`: the back end of the developer dashboard, authenticated by the API key itself. */
export function createDashboardRoutes(deps: DashboardDeps): Router {
  const { plans, keyStore } = deps;
  const parseSignup = createBodyParser<{ email: string }>(SIGNUP_BODY);
  const parseSubscribe = createBodyParser<{ plan: string }>(SUBSCRIBE_BODY);
  const router = Router();
  router.use(express.json({ limit: '4kb' }));

  async function keyOf(req: Request): Promise<KeyRecord> {
    const presented = req.headers[deps.keyHeader];
    if (typeof presented !== 'string' || presented === '') throw new AppError('UNAUTHORIZED', `missing API key: send it in the ${deps.keyHeader} header`);
    const record = await keyStore.findByKey(presented);
    if (!record) throw new AppError('UNAUTHORIZED', 'unknown API key');
    if (record.revoked_at) throw new AppError('UNAUTHORIZED', 'this API key has been revoked');
    return record;
  }

  router.post('/signup', async (req, res) => {
    const { email } = parseSignup(req.body);
    const nowMs = deps.clock();
    const ip = req.ip ?? 'unknown';
    const count = await deps.quotaStore.countSignup(ip, nowMs);
    if (count > deps.signupsPerHour) {
      const retry = secondsUntil(hourWindow(nowMs).endMs, nowMs);
      throw new AppError('RATE_LIMITED', `at most ${deps.signupsPerHour} sign-ups an hour from one address; retry after ${retry} s`, { headers: { 'Retry-After': String(retry) } });
    }
    const { key, record } = await keyStore.create({ owner: email.toLowerCase() });
    sendCreated(res, { ...record, key }, DASHBOARD_ROUTES.signup.message);
  });

  router.put('/subscriptions/:api', async (req, res) => {
    const record = await keyOf(req);
    const { api } = req.params;
    const apiPlans = apiPlansOf(plans, api);
    const { plan } = parseSubscribe(req.body);
    checkPlan(plans, api, plan);
    const limits = apiPlans.plans[plan] as Plan;
    if (limits.price > 0) {
      throw new AppError('SUBSCRIPTION_REQUIRED', `the ${plan} plan for ${api} costs ${formatPrice(limits.price, limits.currency)} a month: a payment method is needed; add one to your account, or ask an operator to subscribe this key`, {
        details: { api, plan, price: limits.price, currency: limits.currency, payment_method_required: true },
      });
    }
    await keyStore.setSubscription(record.id, api, { plan, status: 'active' });
    sendOk(res, { api, plan, status: 'active', ...limits }, DASHBOARD_ROUTES.subscribe.message);
  });

  router.get('/usage', async (req, res) => {
    const record = await keyOf(req);
    sendOk(res, await deps.readUsage(record, deps.clock()), DASHBOARD_ROUTES.usage.message);
  });

  return router;
}
