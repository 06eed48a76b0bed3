import type { Request, Router } from 'express';
import { AppError, createQueryParser, sendOk } from '@tollgate/envelope/core';
import type { RouteDoc } from '@tollgate/envelope/core';
import { accountOfKeyId } from '../domain/api-key';
import { KeyLimitError, KeyRevokedError } from '../data/account-store';
import type { AccountStore, ApiKey } from '../data/account-store';
import type { TeamStore } from '../data/team-store';
import { sendCreated } from '../http/send-created';
import { API_KEY_SCHEMA, API_KEY_WITH_SECRET_SCHEMA, pageSchema } from '../http/account-schemas';
import { CREATE_KEY_BODY, LIST_KEYS_QUERY, ROLL_KEY_BODY } from '../http/account-requests';
import { expiryMs } from '../http/dates';
import { createBodyParser } from '../http/body';
import type { ActionLimiter } from '../http/account-limits';
import { CALLER_ERRORS } from './dashboard-auth';
import type { DashboardCaller } from './dashboard-auth';

/** Live (neither revoked nor expired) keys an account may hold: enough for every environment, few enough to audit. */
export const MAX_LIVE_KEYS = 20;
// The same bodies and query as the admin key routes: one rule for what a key may be.
const LIST_QUERY = LIST_KEYS_QUERY;
const CREATE_BODY = CREATE_KEY_BODY;
const ROLL_BODY = ROLL_KEY_BODY;

/** The key routes of the dashboard, described once (merged into DASHBOARD_ROUTES). */
export const DASHBOARD_KEY_ROUTES = {
  listKeys: { method: 'get', path: '/dashboard/v1/keys', summary: 'Your account’s keys, oldest first (never their secrets)', query: LIST_QUERY, data: pageSchema(API_KEY_SCHEMA), message: 'API keys listed', errors: [...CALLER_ERRORS] },
  createKey: { method: 'post', path: '/dashboard/v1/keys', summary: `Add a key to your account (at most ${MAX_LIVE_KEYS} live keys, and a number a day); its secret is shown once`, body: CREATE_BODY, data: API_KEY_WITH_SECRET_SCHEMA, message: 'API key created; keep its secret, it is shown once', successStatus: 201, errors: ['CONFLICT', 'RATE_LIMITED', ...CALLER_ERRORS] },
  rollKey: { method: 'post', path: '/dashboard/v1/keys/{id}/roll', summary: 'Give a key a new secret; the old one works for the grace period', body: ROLL_BODY, data: API_KEY_WITH_SECRET_SCHEMA, message: 'API key rolled; keep its new secret, it is shown once', errors: ['NOT_FOUND', 'CONFLICT', ...CALLER_ERRORS] },
  endGrace: { method: 'post', path: '/dashboard/v1/keys/{id}/end-grace', summary: 'End a rolled key’s grace now: the secret before the roll stops working, the current one keeps working', data: API_KEY_SCHEMA, message: 'Grace ended; only the current secret works', errors: ['NOT_FOUND', ...CALLER_ERRORS] },
  revokeKey: { method: 'delete', path: '/dashboard/v1/keys/{id}', summary: 'Revoke a key, every secret of it (also the one calling; a number a day)', data: API_KEY_SCHEMA, message: 'API key revoked', errors: ['NOT_FOUND', 'RATE_LIMITED', ...CALLER_ERRORS] },
} satisfies Record<string, RouteDoc>;

/** What the key routes need. */
export interface DashboardKeyDeps {
  accountStore: AccountStore;
  /** The people named as keys' makers: the list shows each one's address as it is now. */
  teamStore: TeamStore;
  clock: () => number;
  authenticate: (req: Request) => Promise<DashboardCaller>;
  /** The account store as a caller changes it: each change recorded in the audit log as theirs. */
  changesBy: (req: Request, caller: DashboardCaller) => AccountStore;
  /** Keys created and revoked per account and day. */
  limit: ActionLimiter;
}

/** Adds `/keys` routes to the dashboard router. */
export function addDashboardKeyRoutes(router: Router, deps: DashboardKeyDeps): void {
  const { accountStore, authenticate, changesBy } = deps;
  const parseList = createQueryParser<{ limit: number; cursor?: string }>(LIST_QUERY);
  const parseCreate = createBodyParser<{ name: string; expires_at?: string }>(CREATE_BODY);
  const parseRoll = createBodyParser<{ grace_seconds: number }>(ROLL_BODY);

  // Another account's key answers as an unknown one does: whether an id exists is not for others to learn.
  async function ownKey(caller: DashboardCaller, id: string): Promise<ApiKey> {
    const key = accountOfKeyId(id) === caller.account.id ? await accountStore.getKey(id) : undefined;
    if (!key || key.account_id !== caller.account.id) throw new AppError('NOT_FOUND', 'no API key with this id in your account');
    return key;
  }

  router.get('/keys', async (req, res) => {
    const { account } = await authenticate(req);
    const { limit, cursor } = parseList(req.query);
    const page = await accountStore.listKeys(account.id, { cursor, limit });
    if (!page) throw new AppError('UNAUTHORIZED', 'unknown API key', { details: { reason: 'unknown' } });
    sendOk(res, { ...page, items: await withCreatorsNow(deps.teamStore, page.items) }, DASHBOARD_KEY_ROUTES.listKeys.message);
  });

  router.post('/keys', async (req, res) => {
    const caller = await authenticate(req);
    const { account } = caller;
    const body = parseCreate(req.body);
    const nowMs = deps.clock();
    const expiresAtMs = body.expires_at === undefined ? undefined : expiryMs(body.expires_at, nowMs);
    await deps.limit(account.id, 'key_create');
    let created;
    try {
      // The store counts and makes in one step: requests at once cannot pass the cap together.
      const createdBy = caller.person && { person_id: caller.person.id, email: caller.person.email };
      created = await changesBy(req, caller).createKey(account.id, { name: body.name, expiresAtMs, maxLive: MAX_LIVE_KEYS, createdBy });
    } catch (err) {
      if (!(err instanceof KeyLimitError)) throw err;
      throw new AppError('CONFLICT', `this account already has ${MAX_LIVE_KEYS} live keys, the most it may hold; revoke one first`, { cause: err, details: { max_live_keys: MAX_LIVE_KEYS } });
    }
    if (!created) throw new AppError('UNAUTHORIZED', 'unknown API key', { details: { reason: 'unknown' } });
    sendCreated(res, { ...created.record, key: created.key }, DASHBOARD_KEY_ROUTES.createKey.message);
  });

  router.post('/keys/:id/roll', async (req, res) => {
    const caller = await authenticate(req);
    const key = await ownKey(caller, req.params.id);
    const { grace_seconds: grace } = parseRoll(req.body);
    try {
      const rolled = await changesBy(req, caller).rollKey(key.id, grace * 1000);
      if (!rolled) throw new AppError('NOT_FOUND', 'no API key with this id in your account');
      sendOk(res, { ...rolled.record, key: rolled.key }, DASHBOARD_KEY_ROUTES.rollKey.message);
    } catch (err) {
      if (err instanceof KeyRevokedError) throw new AppError('CONFLICT', 'this key is revoked and cannot be rolled; create a new one', { cause: err });
      throw err;
    }
  });

  router.post('/keys/:id/end-grace', async (req, res) => {
    const caller = await authenticate(req);
    const key = await ownKey(caller, req.params.id);
    const ended = await changesBy(req, caller).endGrace(key.id);
    if (!ended) throw new AppError('NOT_FOUND', 'no API key with this id in your account');
    sendOk(res, ended, DASHBOARD_KEY_ROUTES.endGrace.message);
  });

  router.delete('/keys/:id', async (req, res) => {
    const caller = await authenticate(req);
    const key = await ownKey(caller, req.params.id);
    // Revoking a revoked key again changes nothing and tells nobody: only a revocation counts.
    if (!key.revoked_at) await deps.limit(caller.account.id, 'key_revoke');
    const revoked = await changesBy(req, caller).revokeKey(key.id);
    if (!revoked) throw new AppError('NOT_FOUND', 'no API key with this id in your account');
    sendOk(res, revoked, DASHBOARD_KEY_ROUTES.revokeKey.message);
  });
}

/**
 * Keys with their makers' addresses as they are now (a person may have changed theirs since); a
 * maker no longer a person here keeps the address they had. One read per maker, not per key.
 */
async function withCreatorsNow(teams: TeamStore, keys: ApiKey[]): Promise<ApiKey[]> {
  const ids = [...new Set(keys.flatMap((key) => (key.created_by ? [key.created_by.person_id] : [])))];
  const people = new Map((await Promise.all(ids.map((id) => teams.getPerson(id)))).flatMap((person) => (person ? [[person.id, person.email] as const] : [])));
  return keys.map((key) => (key.created_by ? { ...key, created_by: { person_id: key.created_by.person_id, email: people.get(key.created_by.person_id) ?? key.created_by.email } } : key));
}
