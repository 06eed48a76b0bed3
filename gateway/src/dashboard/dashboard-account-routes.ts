import type { Request, Router } from 'express';
import { AppError, createQueryParser, sendOk } from '@tollgate/envelope/core';
import type { QuerySchema, RouteDoc } from '@tollgate/envelope/core';
import type { PlanTable } from '../domain/plans';
import { HISTORY_DAYS } from '../data/account-store';
import type { AccountStore } from '../data/account-store';
import type { KeyRecord } from '../data/key-store';
import { ACCOUNT_SCHEMA, API_KEY_SCHEMA, HISTORY_SCHEMA } from '../http/account-schemas';
// The admin API's rules for the range, so both answer the same days for the same query.
import { historyRange } from '../http/dates';
import { CALLER_ERRORS } from './dashboard-auth';
import type { DashboardCaller } from './dashboard-auth';
import { ACCOUNT_ID_PATTERN, KEY_ID_PATTERN } from '../domain/api-key';
import { USAGE_ITEM_SCHEMA } from '../domain/usage-report';

/** Days the history answers by default, today included (as http/dates.ts has it). */
const DEFAULT_HISTORY_DAYS = 30;

const day = (description: string) => ({ type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description });

export const HISTORY_QUERY: QuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    from: day(`a UTC date as YYYY-MM-DD, at most ${HISTORY_DAYS} days back; ${DEFAULT_HISTORY_DAYS - 1} days before to by default`),
    to: day('a UTC date as YYYY-MM-DD, not after today; today by default'),
  },
};

const WHO_AM_I = {
  type: 'object',
  additionalProperties: false,
  required: ['account'],
  properties: { account: ACCOUNT_SCHEMA, key: { ...API_KEY_SCHEMA, description: 'The key whose secret authenticated this call; absent when signed in (session cookie)' } },
};

const DASHBOARD_USAGE = {
  type: 'object',
  additionalProperties: false,
  required: ['account_id', 'apis'],
  properties: {
    id: { type: 'string', pattern: KEY_ID_PATTERN, description: 'The key that called; absent when signed in (session cookie)' },
    account_id: { type: 'string', pattern: ACCOUNT_ID_PATTERN },
    apis: { type: 'array', items: USAGE_ITEM_SCHEMA },
  },
};

/** The account routes of the dashboard, described once (merged into DASHBOARD_ROUTES). */
export const DASHBOARD_ACCOUNT_ROUTES = {
  account: { method: 'get', path: '/dashboard/v1/account', summary: 'Your account, and which of its keys made this call', data: WHO_AM_I, message: 'Account retrieved', errors: [...CALLER_ERRORS] },
  usage: { method: 'get', path: '/dashboard/v1/usage', summary: 'Your account’s usage per API (all its keys together): plan, used, remaining, reset time', data: DASHBOARD_USAGE, message: 'Usage retrieved', errors: [...CALLER_ERRORS] },
  history: { method: 'get', path: '/dashboard/v1/history', summary: `Your account’s calls per UTC day, API and outcome (the last ${DEFAULT_HISTORY_DAYS} days by default, ${HISTORY_DAYS} at most)`, query: HISTORY_QUERY, data: HISTORY_SCHEMA, message: 'History retrieved', errors: [...CALLER_ERRORS] },
} satisfies Record<string, RouteDoc>;

/** What the account routes need. */
export interface DashboardAccountDeps {
  plans: PlanTable;
  accountStore: AccountStore;
  clock: () => number;
  readUsage: (record: KeyRecord, nowMs: number) => Promise<unknown>;
  authenticate: (req: Request) => Promise<DashboardCaller>;
}

// The usage reader takes a key record as the routes before accounts knew it; only its account's fields count.
function recordOf({ key, account }: DashboardCaller): KeyRecord {
  return { id: key?.id ?? '', account_id: account.id, owner: account.email ?? account.name, created_at: key?.created_at ?? account.created_at, revoked_at: key?.revoked_at ?? null, subscriptions: account.subscriptions };
}

/** Adds `/account`, `/usage` and `/history` to the dashboard router. */
export function addDashboardAccountRoutes(router: Router, deps: DashboardAccountDeps): void {
  const { authenticate } = deps;
  const parseHistory = createQueryParser<{ from?: string; to?: string }>(HISTORY_QUERY);

  router.get('/account', async (req, res) => {
    const { account, key } = await authenticate(req);
    sendOk(res, key ? { account, key } : { account }, DASHBOARD_ACCOUNT_ROUTES.account.message);
  });

  router.get('/usage', async (req, res) => {
    const caller = await authenticate(req);
    const { apis } = (await deps.readUsage(recordOf(caller), deps.clock())) as { apis: unknown };
    sendOk(res, { ...(caller.key ? { id: caller.key.id } : {}), account_id: caller.account.id, apis }, DASHBOARD_ACCOUNT_ROUTES.usage.message);
  });

  router.get('/history', async (req, res) => {
    const { account } = await authenticate(req);
    const { from, to } = historyRange(parseHistory(req.query), deps.clock());
    const days = await deps.accountStore.history(account.id, Object.keys(deps.plans), from, to);
    if (!days) throw new AppError('UNAUTHORIZED', 'unknown API key', { details: { reason: 'unknown' } });
    sendOk(res, { account_id: account.id, from, to, days }, DASHBOARD_ACCOUNT_ROUTES.history.message);
  });
}
