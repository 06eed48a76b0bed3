import express, { Router } from 'express';
import { AppError, ownEntry, sendOk } from '@tollgate/envelope';
import type { QuerySchema, RouteDoc } from '@tollgate/envelope';
import type { Subscription } from '../domain/admission';
import type { PlanTable } from '../domain/plans';
import type { AccountStore } from '../data/account-store';
import type { KeyRecord, KeyStore } from '../data/key-store';
import type { QuotaStore } from '../data/quota-store';
import { createAdminAuth } from './admin-auth';
import { createAdminAccountActions } from './admin-account-actions';
import { SUBSCRIBE_BODY } from '../http/account-requests';
import { createAdminAccountRoutes } from './admin-account-routes';
import { sendCreated } from '../http/send-created';
import { apiPlansOf, checkPlan, createBodyParser } from '../http/body';
import { KEY_RECORD_SCHEMA, NEW_KEY_SCHEMA, USAGE_SCHEMA } from '../http/schemas';
import { readUsage } from '../data/read-usage';

const CREATE_BODY: QuerySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['owner'],
  properties: {
    owner: { type: 'string', minLength: 1, maxLength: 200, description: 'a non-empty string of at most 200 characters' },
    subscriptions: { type: 'object', additionalProperties: { type: 'string' }, description: 'an object mapping API names to plan names' },
  },
};

const admin = ['UNAUTHORIZED', 'NOT_FOUND', 'STORE_UNAVAILABLE'] as const;

/** The admin API's key routes from before accounts, described once (OpenAPI, contract tests); the account routes are ADMIN_ACCOUNT_ROUTES. */
export const ADMIN_ROUTES = {
  create: { method: 'post', path: '/admin/v1/keys', summary: 'Create an API key', body: CREATE_BODY, data: NEW_KEY_SCHEMA, message: 'API key created', successStatus: 201, errors: ['BAD_REQUEST', ...admin] },
  get: { method: 'get', path: '/admin/v1/keys/{id}', summary: 'Read a key and its subscriptions', data: KEY_RECORD_SCHEMA, message: 'API key retrieved', errors: [...admin] },
  subscribe: { method: 'put', path: '/admin/v1/keys/{id}/subscriptions/{api}', summary: 'Set a key’s plan and status for an API', body: SUBSCRIBE_BODY, data: KEY_RECORD_SCHEMA, message: 'Subscription updated', errors: ['BAD_REQUEST', ...admin] },
  revoke: { method: 'delete', path: '/admin/v1/keys/{id}', summary: 'Revoke a key', data: KEY_RECORD_SCHEMA, message: 'API key revoked', errors: [...admin] },
  usage: { method: 'get', path: '/admin/v1/keys/{id}/usage', summary: 'Usage this month (plans) and today (playground)', data: USAGE_SCHEMA, message: 'Usage retrieved', errors: [...admin] },
} satisfies Record<string, RouteDoc>;

/** What the admin routes need. */
export interface AdminDeps {
  adminToken?: string;
  plans: PlanTable;
  accountStore: AccountStore;
  /** Keys as one-key accounts, for the routes made before accounts. */
  keyStore: KeyStore;
  quotaStore: QuotaStore;
  clock: () => number;
}

function found(record: KeyRecord | undefined, id: string): KeyRecord {
  if (!record) throw new AppError('NOT_FOUND', `no API key with id ${id}`);
  return record;
}

/** `/admin/v1/*`, behind the admin bearer token. */
export function createAdminRoutes(deps: AdminDeps): Router {
  const { plans, keyStore, quotaStore } = deps;
  const parseCreate = createBodyParser<{ owner: string; subscriptions?: Record<string, string> }>(CREATE_BODY);
  const parseSubscribe = createBodyParser<Subscription>(SUBSCRIBE_BODY);
  const router = Router();
  router.use(createAdminAuth(deps.adminToken), express.json({ limit: '16kb' }));
  router.use(createAdminAccountRoutes(createAdminAccountActions(deps)));

  router.post('/keys', async (req, res) => {
    const body = parseCreate(req.body);
    const subscriptions: Record<string, Subscription> = {};
    for (const [api, plan] of Object.entries(body.subscriptions ?? {})) {
      if (!ownEntry(plans, api)) throw new AppError('BAD_REQUEST', `subscriptions names unknown API '${api}'; APIs: ${Object.keys(plans).join(', ')}`, { details: { parameter: 'subscriptions' } });
      checkPlan(plans, api, plan, `subscriptions.${api}`);
      subscriptions[api] = { plan, status: 'active' };
    }
    const { key, record } = await keyStore.create({ owner: body.owner, subscriptions });
    sendCreated(res, { ...record, key }, ADMIN_ROUTES.create.message);
  });

  router.get('/keys/:id', async (req, res) => {
    sendOk(res, found(await keyStore.get(req.params.id), req.params.id), ADMIN_ROUTES.get.message);
  });

  router.put('/keys/:id/subscriptions/:api', async (req, res) => {
    const { id, api } = req.params;
    apiPlansOf(plans, api);
    const body = parseSubscribe(req.body);
    checkPlan(plans, api, body.plan);
    sendOk(res, found(await keyStore.setSubscription(id, api, body), id), ADMIN_ROUTES.subscribe.message);
  });

  router.delete('/keys/:id', async (req, res) => {
    sendOk(res, found(await keyStore.revoke(req.params.id), req.params.id), ADMIN_ROUTES.revoke.message);
  });

  router.get('/keys/:id/usage', async (req, res) => {
    const record = found(await keyStore.get(req.params.id), req.params.id);
    sendOk(res, await readUsage(record, plans, quotaStore, deps.clock()), ADMIN_ROUTES.usage.message);
  });

  return router;
}
