import express, { Router } from 'express';
import { AppError, ownEntry, sendOk } from '@tollgate/envelope/core';
import type { QuerySchema, RouteDoc } from '@tollgate/envelope/core';
import type { Subscription } from '../domain/admission';
import type { PlanTable } from '../domain/plans';
import type { AccountStore } from '../data/account-store';
import { AdminTokenFixedError } from '../data/admin-token';
import type { AuditLog } from '../data/audit-log';
import { appendAudit, auditedAccountStore } from '../data/audited-account-store';
import type { AuditDeps, AuditSource } from '../data/audited-account-store';
import type { TeamActions } from '../http/team-actions';
import { createAdminTeamRoutes } from './admin-team-routes';
import { createLegacyKeyStore } from '../data/key-store';
import type { KeyRecord, KeyStore } from '../data/key-store';
import type { QuotaStore } from '../data/quota-store';
import { createAdminAuth } from '../http/admin-auth';
import type { AdminTokenCheck } from '../http/admin-auth';
import { createAccountActions } from '../http/account-actions';
import { createAuditActions } from '../http/audit-actions';
import { adminApiSource } from '../http/audit-source';
import { SUBSCRIBE_BODY } from '../http/account-requests';
import { sendCreated } from '../http/send-created';
import { apiPlansOf, createBodyParser, planOf } from '../http/body';
import { KEY_RECORD_SCHEMA, NEW_KEY_SCHEMA, USAGE_SCHEMA } from '../http/schemas';
import { readUsage } from '../data/read-usage';
import { createAdminAccountRoutes } from './admin-account-routes';
import { createAdminCatalogueRoutes } from './admin-catalogue-routes';
import type { AdminCatalogueDeps } from './admin-catalogue-routes';

const CREATE_BODY: QuerySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['owner'],
  properties: {
    owner: { type: 'string', minLength: 1, maxLength: 200, description: 'a non-empty string of at most 200 characters' },
    subscriptions: { type: 'object', additionalProperties: { type: 'string' }, description: 'an object mapping API names to plan names' },
  },
};

const ROTATED_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['token', 'file'],
  properties: { token: { type: 'string', description: 'The new admin token; the old one no longer works' }, file: { type: 'string', description: 'The file the gateway keeps it in (mode 0600)' } },
};

const admin = ['UNAUTHORIZED', 'NOT_FOUND', 'STORE_UNAVAILABLE'] as const;

/** The admin API's key routes from before accounts and its own token, described once (OpenAPI, contract tests); the account routes are ADMIN_ACCOUNT_ROUTES. */
export const ADMIN_ROUTES = {
  create: { method: 'post', path: '/admin/v1/keys', summary: 'Create an API key', body: CREATE_BODY, data: NEW_KEY_SCHEMA, message: 'API key created', successStatus: 201, errors: ['BAD_REQUEST', ...admin] },
  list: { method: 'get', path: '/admin/v1/keys', summary: 'List every key, as before accounts (oldest first; every account is read: use the account routes on a large store)', data: { type: 'array', items: KEY_RECORD_SCHEMA }, message: 'API keys listed', errors: [...admin] },
  get: { method: 'get', path: '/admin/v1/keys/{id}', summary: 'Read a key and its subscriptions', data: KEY_RECORD_SCHEMA, message: 'API key retrieved', errors: [...admin] },
  subscribe: { method: 'put', path: '/admin/v1/keys/{id}/subscriptions/{api}', summary: 'Set a key’s plan and status for an API', body: SUBSCRIBE_BODY, data: KEY_RECORD_SCHEMA, message: 'Subscription updated', errors: ['BAD_REQUEST', ...admin] },
  revoke: { method: 'delete', path: '/admin/v1/keys/{id}', summary: 'Revoke a key', data: KEY_RECORD_SCHEMA, message: 'API key revoked', errors: [...admin] },
  usage: { method: 'get', path: '/admin/v1/keys/{id}/usage', summary: 'Usage this month (plans) and today (playground)', data: USAGE_SCHEMA, message: 'Usage retrieved', errors: [...admin] },
  rotateToken: {
    method: 'post',
    path: '/admin/v1/admin-token/rotate',
    summary: 'Replace the admin token kept in the gateway’s file: the answer holds the new one, and the old one stops working at once',
    description: 'A token given by `ADMIN_TOKEN` is refused with 409: change it in the environment and restart instead.',
    data: ROTATED_SCHEMA,
    message: 'Admin token rotated; keep the new one, it is shown once',
    errors: ['CONFLICT', ...admin],
  },
} satisfies Record<string, RouteDoc>;

/** What the admin routes need. */
export interface AdminDeps extends AuditDeps, AdminCatalogueDeps {
  /** Teams' members (docs/teams.md): the admin API manages them as the CLI and console do. */
  teamActions: (source: AuditSource) => TeamActions;
  /** The admin token and its check (wrong tokens limited per network). */
  adminCheck: AdminTokenCheck;
  /** The plan table in force (the live catalogue's). */
  plans: PlanTable;
  accountStore: AccountStore;
  quotaStore: QuotaStore;
  auditLog: AuditLog;
  clock: () => number;
}

function found(record: KeyRecord | undefined, id: string): KeyRecord {
  if (!record) throw new AppError('NOT_FOUND', `no API key with id ${id}`);
  return record;
}

/** `/admin/v1/*`, behind the admin bearer token; every change is recorded in the audit log. */
export function createAdminRoutes(deps: AdminDeps): Router {
  const { plans, quotaStore } = deps;
  const parseCreate = createBodyParser<{ owner: string; subscriptions?: Record<string, string> }>(CREATE_BODY);
  const parseSubscribe = createBodyParser<Subscription>(SUBSCRIBE_BODY);
  // Keys as one-key accounts, over the account store as this request changes it (audited).
  const keyStore = (req: express.Request): KeyStore => createLegacyKeyStore(auditedAccountStore(deps.accountStore, deps, adminApiSource(req)));
  const router = Router();
  router.use(createAdminAuth(deps.adminCheck), express.json({ limit: '16kb' }));
  router.use(createAdminAccountRoutes(createAccountActions(deps), createAuditActions(deps.auditLog)));
  router.use(createAdminCatalogueRoutes(deps));
  router.use(createAdminTeamRoutes(deps.teamActions));

  router.post('/keys', async (req, res) => {
    const body = parseCreate(req.body);
    const subscriptions: Record<string, Subscription> = {};
    for (const [api, plan] of Object.entries(body.subscriptions ?? {})) {
      if (!ownEntry(plans, api)) throw new AppError('BAD_REQUEST', `subscriptions names unknown API '${api}'; APIs: ${Object.keys(plans).join(', ')}`, { details: { parameter: 'subscriptions' } });
      planOf(plans, api, plan, `subscriptions.${api}`);
      subscriptions[api] = { plan, status: 'active' };
    }
    const { key, record } = await keyStore(req).create({ owner: body.owner, subscriptions });
    sendCreated(res, { ...record, key }, ADMIN_ROUTES.create.message);
  });

  router.get('/keys', async (req, res) => {
    sendOk(res, await keyStore(req).list(), ADMIN_ROUTES.list.message);
  });

  router.get('/keys/:id', async (req, res) => {
    sendOk(res, found(await keyStore(req).get(req.params.id), req.params.id), ADMIN_ROUTES.get.message);
  });

  router.put('/keys/:id/subscriptions/:api', async (req, res) => {
    const { id, api } = req.params;
    apiPlansOf(plans, api);
    const body = parseSubscribe(req.body);
    planOf(plans, api, body.plan);
    sendOk(res, found(await keyStore(req).setSubscription(id, api, body), id), ADMIN_ROUTES.subscribe.message);
  });

  router.delete('/keys/:id', async (req, res) => {
    sendOk(res, found(await keyStore(req).revoke(req.params.id), req.params.id), ADMIN_ROUTES.revoke.message);
  });

  router.get('/keys/:id/usage', async (req, res) => {
    const record = found(await keyStore(req).get(req.params.id), req.params.id);
    sendOk(res, await readUsage(record, plans, quotaStore, deps.clock()), ADMIN_ROUTES.usage.message);
  });

  router.post('/admin-token/rotate', async (req, res) => {
    const { token: adminToken } = deps.adminCheck;
    let token: string;
    try {
      token = adminToken.rotate();
    } catch (err) {
      if (err instanceof AdminTokenFixedError) throw new AppError('CONFLICT', err.message);
      throw err;
    }
    await appendAudit(deps, { account_id: null, ...adminApiSource(req), action: 'admin_token.rotate', target: null, details: {} });
    sendOk(res, { token, file: adminToken.file! }, ADMIN_ROUTES.rotateToken.message);
  });

  return router;
}
