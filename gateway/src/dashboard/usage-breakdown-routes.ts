import type { Request, Response, Router } from 'express';
import { AppError, createQueryParser, sendOk } from '@tollgate/envelope/core';
import type { RouteDoc } from '@tollgate/envelope/core';
import { LATENCY_BOUNDS_MS, latencyPercentile } from '../domain/latency-histogram';
import type { AccountStore } from '../data/account-store';
import { allPages } from '../data/all-pages';
import type { UsageBreakdownDay } from '../data/usage-breakdown';
import { ACCOUNT_ID_PATTERN } from '../domain/api-key';
import { toCsv } from '../http/csv';
import { historyRange } from '../http/dates';
import { CALLER_ERRORS } from './dashboard-auth';
import type { DashboardCaller } from './dashboard-auth';
import { HISTORY_QUERY } from './dashboard-account-routes';

const count = { type: 'integer', minimum: 0 };
const closed = (properties: Record<string, unknown>) => ({ type: 'object', additionalProperties: false, required: Object.keys(properties), properties });
const ms = (description: string) => ({ type: ['integer', 'null'], description });

const BREAKDOWN_SCHEMA = closed({
  account_id: { type: 'string', pattern: ACCOUNT_ID_PATTERN },
  from: { type: 'string', format: 'date' },
  to: { type: 'string', format: 'date' },
  latency_bounds_ms: { type: 'array', items: { type: 'integer' }, description: 'Each latency bucket’s upper bound (ms); a call slower than the last counts in the last' },
  keys: {
    type: 'array',
    description: 'The name of every key listed in `days`, and the key as the Keys list shows it (`tg_…` and its last four)',
    items: closed({ id: { type: 'string' }, name: { type: 'string' }, shown: { type: 'string' }, revoked: { type: 'boolean' } }),
  },
  days: {
    type: 'array',
    description: 'Every UTC day from `from` to `to`, oldest first',
    items: closed({
      day: { type: 'string', format: 'date' },
      calls: { ...count, description: 'Calls of the account’s keys that were answered' },
      errors: { ...count, description: 'Of them, answered 4xx, 429 or 5xx (refunded calls are not errors)' },
      p50_ms: ms('Median latency: the upper bound of the bucket holding it; null without calls'),
      p95_ms: ms('95th percentile latency, as p50_ms'),
      latency: { type: 'array', items: count, description: 'Calls per latency bucket' },
      keys: { type: 'array', items: closed({ key_id: { type: 'string' }, calls: count, errors: count }) },
      endpoints: {
        type: 'array',
        items: closed({
          api: { type: 'string' },
          route: { type: 'string', description: 'The OpenAPI path template the call matched, or `other` when it was not known' },
          label: { type: 'string', description: 'As the portal and the CSV name it: `/burger/v1/index/{currency}`, or `burger: other`' },
          calls: count,
          errors: count,
        }),
      },
    }),
  },
});

// `key` last: a script reading the columns before issue 40 by position reads them still.
const CSV_HEADER = ['day', 'dimension', 'id', 'name', 'calls', 'errors', 'p50_ms', 'p95_ms', 'key'];

/** The breakdown routes, described once (merged into DASHBOARD_ROUTES). The CSV download is described in `usageBreakdown`'s description. */
export const USAGE_BREAKDOWN_ROUTES = {
  usageBreakdown: {
    method: 'get',
    path: '/dashboard/v1/usage/breakdown',
    summary: 'Your account’s calls per UTC day in detail: per key, per endpoint, errors and latency (p50, p95); the last 30 days by default',
    description: `The same figures as CSV: GET /dashboard/v1/usage/breakdown.csv (same parameters), one line per day with calls (\`dimension\` total, with p50_ms and p95_ms), and per key and per endpoint of that day. Columns: ${CSV_HEADER.join(', ')}.`,
    query: HISTORY_QUERY,
    data: BREAKDOWN_SCHEMA,
    message: 'Usage breakdown retrieved',
    errors: [...CALLER_ERRORS],
  },
} satisfies Record<string, RouteDoc>;

/** What the breakdown routes need. */
export interface UsageBreakdownDeps {
  accountStore: AccountStore;
  clock: () => number;
  authenticate: (req: Request) => Promise<DashboardCaller>;
}

/** A day of the breakdown with its totals and percentiles. */
type ReportDay = Omit<UsageBreakdownDay, 'endpoints'> & { endpoints: (UsageBreakdownDay['endpoints'][number] & { label: string })[]; calls: number; errors: number; p50_ms: number | null; p95_ms: number | null };

/** What an endpoint is called in the CSV and on the page: its path as called, or the API's `other`. */
const endpointLabel = (api: string, route: string): string => (route === 'other' ? `${api}: other` : `/${api}${route}`);

/** The breakdown's CSV: per day with calls a total line, then one per key (named, and as shown) and per endpoint. */
function breakdownCsv(days: readonly ReportDay[], keys: ReadonlyMap<string, { name: string; shown: string }>): string {
  const rows: (string | number | null)[][] = [];
  for (const d of days) {
    if (d.calls === 0) continue;
    rows.push([d.day, 'total', '', '', d.calls, d.errors, d.p50_ms, d.p95_ms, '']);
    for (const k of d.keys) rows.push([d.day, 'key', k.key_id, keys.get(k.key_id)?.name ?? '', k.calls, k.errors, null, null, keys.get(k.key_id)?.shown ?? '']);
    for (const e of d.endpoints) rows.push([d.day, 'endpoint', e.label, e.api, e.calls, e.errors, null, null, '']);
  }
  return toCsv(CSV_HEADER, rows);
}

/** Adds `/usage/breakdown` (JSON) and `/usage/breakdown.csv` to the dashboard router. */
export function addUsageBreakdownRoutes(router: Router, deps: UsageBreakdownDeps): void {
  const parse = createQueryParser<{ from?: string; to?: string }>(HISTORY_QUERY);

  const report = async (req: Request) => {
    const { account } = await deps.authenticate(req);
    const { from, to } = historyRange(parse(req.query), deps.clock());
    const stored = await deps.accountStore.usageBreakdown(account.id, from, to);
    if (!stored) throw new AppError('UNAUTHORIZED', 'unknown API key', { details: { reason: 'unknown' } });
    const days: ReportDay[] = stored.map((d) => ({
      day: d.day,
      calls: d.keys.reduce((sum, k) => sum + k.calls, 0),
      errors: d.keys.reduce((sum, k) => sum + k.errors, 0),
      p50_ms: latencyPercentile(d.latency, 0.5),
      p95_ms: latencyPercentile(d.latency, 0.95),
      latency: d.latency,
      keys: d.keys,
      endpoints: d.endpoints.map((e) => ({ ...e, label: endpointLabel(e.api, e.route) })),
    }));
    // The names of the keys that called: every key of the account, a page at a time (a few dozen at most).
    const called = new Set(days.flatMap((d) => d.keys.map((k) => k.key_id)));
    const keys = (await allPages((cursor) => deps.accountStore.listKeys(account.id, { cursor, limit: 100 })))
      .filter((key) => called.has(key.id))
      .map((key) => ({ id: key.id, name: key.name, shown: `${key.prefix}…${key.last4}`, revoked: key.revoked_at !== null }));
    return { account_id: account.id, from, to, days, keys };
  };

  router.get('/usage/breakdown', async (req, res) => {
    const { days, keys, ...range } = await report(req);
    sendOk(res, { ...range, latency_bounds_ms: LATENCY_BOUNDS_MS, keys, days }, USAGE_BREAKDOWN_ROUTES.usageBreakdown.message);
  });

  router.get('/usage/breakdown.csv', async (req: Request, res: Response) => {
    const { days, keys, from, to } = await report(req);
    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="tollgate-usage-${from}-to-${to}.csv"`);
    res.send(breakdownCsv(days, new Map(keys.map((k) => [k.id, k]))));
  });
}
