import { randomBytes } from 'node:crypto';
import type { Logger } from '@tollgate/envelope';
import { LATENCY_BOUNDS_MS, latencyBucket } from '../domain/latency-histogram';
import { dayWindow } from '../domain/windows';
import { HISTORY_OUTCOMES } from './account-store';
import type { AccountStore, HistoryCount, HistoryOutcome } from './account-store';
import { createBackgroundLoops } from './background-loop';
import type { BackgroundLoops } from './background-loop';
import { OTHER_ENDPOINT, usageFields } from './usage-breakdown';
import type { UsageDetail } from './usage-breakdown';

/** Counts calls in memory and writes them to the store in one batch at a time. */
export interface UsageRecorder {
  /**
   * One answered call of a known key: its outcome, and in detail its key, endpoint (the route
   * template it matched; null: not known) and latency (ms; left out: not counted). Synchronous and
   * allocation-light: it is on every call.
   */
  count(accountId: string, keyId: string, api: string, outcome: HistoryOutcome, nowMs: number, route?: string | null, latencyMs?: number): void;
  /** Writes what was counted (one pipelined batch); on failure the batch is kept and sent again, as it was, by the next. */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left. */
  stop(): Promise<void>;
}

/** Options of {@link createUsageRecorder}. */
export interface UsageRecorderOptions {
  store: Pick<AccountStore, 'record'>;
  clock: () => number;
  logger?: Logger;
  /** How often the counts are written; a crash loses at most this much. */
  intervalMs?: number;
  /** A key's last use is written at most this often. */
  lastUsedEveryMs?: number;
  /** Where its writing loop runs (logged, counted, its last success shown); unset: a registry of its own. */
  loops?: BackgroundLoops;
}

// An hour of batches at one a second; beyond that the store has been down long enough to say so.
// The store's batch markers outlive this (redis-keys.ts HISTORY_BATCH_TTL_SECONDS).
const MAX_PENDING_BATCHES = 3_600;

// One account's UTC day: per API one count per outcome (in HISTORY_OUTCOMES' order); per key and
// per API and route [calls, errors]; calls per latency bucket. Nested maps rather than one map of
// joined names: counting then builds no string per call (the field names are built at the flush).
interface AccountDay {
  apis: Map<string, number[]>;
  keys: Map<string, number[]>;
  endpoints: Map<string, Map<string, number[]>>;
  latency: number[];
}
type DayCounts = Map<string, AccountDay>;
const OUTCOME_INDEX: Readonly<Record<HistoryOutcome, number>> = Object.freeze(Object.fromEntries(HISTORY_OUTCOMES.map((o, i) => [o, i])) as Record<HistoryOutcome, number>);
// What the details count as an error: the caller's (4xx), the limits' (429) and the service's (5xx).
const IS_ERROR: readonly number[] = HISTORY_OUTCOMES.map((o) => (o === '4xx' || o === '429' || o === '5xx' ? 1 : 0));

/**
 * Takes what was counted since the last flush and zeroes it in place: an account that keeps calling
 * keeps its maps and arrays, so counting allocates nothing once it has called. What had nothing to
 * take is dropped (idle accounts, keys, endpoints), and so are past days once taken.
 */
function drain(days: Map<string, DayCounts>, currentDayId: string): { counts: HistoryCount[]; details: UsageDetail[] } {
  const counts: HistoryCount[] = [];
  const details: UsageDetail[] = [];
  for (const [dayId, accounts] of days) {
    for (const [accountId, day] of accounts) {
      let called = false;
      for (const [api, row] of day.apis) {
        let any = false;
        for (let i = 0; i < row.length; i++) {
          if (!row[i]) continue;
          counts.push({ accountId, api, dayId, outcome: HISTORY_OUTCOMES[i]!, count: row[i]! });
          row[i] = 0;
          any = true;
        }
        if (any) called = true;
        else day.apis.delete(api);
      }
      if (!called) {
        accounts.delete(accountId);
        continue;
      }
      const detail = (field: string, pair: number[], at: number): void => {
        if (pair[at]) details.push({ accountId, dayId, field, count: pair[at]! });
        pair[at] = 0;
      };
      for (const [keyId, pair] of day.keys) {
        if (!pair[0]) day.keys.delete(keyId);
        detail(usageFields.keyCalls(keyId), pair, 0);
        detail(usageFields.keyErrors(keyId), pair, 1);
      }
      for (const [api, routes] of day.endpoints) {
        for (const [route, pair] of routes) {
          if (!pair[0]) routes.delete(route);
          detail(usageFields.endpointCalls(api, route), pair, 0);
          detail(usageFields.endpointErrors(api, route), pair, 1);
        }
      }
      for (let i = 0; i < day.latency.length; i++) detail(usageFields.latency(i), day.latency, i);
    }
    if (dayId !== currentDayId || !accounts.size) days.delete(dayId);
  }
  return { counts, details };
}

/** The outcome a finished call is counted as in the history. */
export function historyOutcome(status: number, refunded: boolean): HistoryOutcome {
  if (refunded) return 'refunded';
  if (status === 429) return '429';
  if (status >= 500) return '5xx';
  if (status >= 400) return '4xx';
  return '2xx';
}

/**
 * The usage history without a round trip per call: counts are summed per account, API, day and
 * outcome (and in detail per key, endpoint and latency bucket) in the gateway and flushed at most once per `intervalMs` as one pipeline, with the
 * keys' last use (at most once a minute per key). A crash loses at most the last interval's counts.
 */
export function createUsageRecorder(options: UsageRecorderOptions): UsageRecorder {
  const { store, clock } = options;
  const lastUsedEveryMs = options.lastUsedEveryMs ?? 60_000;
  // Usually one day; two for the interval that crosses midnight.
  const days = new Map<string, DayCounts>();
  let dayId = '';
  let today: DayCounts = new Map();
  let counted = false;
  let lastUsed = new Map<string, number>();
  const written = new Map<string, number>();
  // Batches not yet written, oldest first, each with its id: one that timed out may have been
  // applied, so it is sent again as it was, under the same id, and the store adds it once.
  const pending: { id: string; counts: HistoryCount[]; details: UsageDetail[]; lastUsed: Map<string, number> }[] = [];
  const batchPrefix = randomBytes(6).toString('base64url');
  let sequence = 0;

  const write = async (): Promise<void> => {
    if (counted || lastUsed.size) {
      pending.push({ id: `${batchPrefix}:${++sequence}`, ...drain(days, dayId), lastUsed });
      // A day drained to nothing was dropped: the next call makes it again.
      if (!days.has(dayId)) dayId = '';
      counted = false;
      lastUsed = new Map();
    }
    while (pending.length) {
      const batch = pending[0]!;
      try {
        await store.record(batch.counts, batch.lastUsed, batch.id, batch.details);
      } catch (err) {
        // A store down for long must not grow the gateway without bound: the oldest go first.
        if (pending.length > MAX_PENDING_BATCHES) pending.splice(0, pending.length - MAX_PENDING_BATCHES);
        throw new Error(`usage history not written now (${pending.length} batches held, sent again): ${(err as Error).message}`);
      }
      pending.shift();
      for (const [keyId, atMs] of batch.lastUsed) written.set(keyId, atMs);
    }
    if (written.size > 100_000) for (const [keyId, atMs] of written) if (clock() - atMs >= lastUsedEveryMs) written.delete(keyId);
  };
  // One batch at a time (the loop's), so a slow store never has two of the same counts in flight.
  const loops = options.loops ?? createBackgroundLoops({ clock, ...(options.logger ? { logger: options.logger } : {}) });
  const loop = loops.create({ name: 'usage_history', everyMs: options.intervalMs ?? 1_000, maxBackoffMs: 5_000, job: write, failure: 'call counts are held and written with the next run' });
  loop.start();

  return {
    count(accountId, keyId, api, outcome, nowMs, route, latencyMs) {
      const id = dayWindow(nowMs).id;
      if (id !== dayId) {
        dayId = id;
        today = days.get(id) ?? new Map();
        days.set(id, today);
      }
      counted = true;
      let day = today.get(accountId);
      if (!day) today.set(accountId, (day = { apis: new Map(), keys: new Map(), endpoints: new Map(), latency: new Array<number>(LATENCY_BOUNDS_MS.length).fill(0) }));
      const index = OUTCOME_INDEX[outcome];
      let row = day.apis.get(api);
      if (!row) day.apis.set(api, (row = [0, 0, 0, 0, 0]));
      row[index]!++;
      const error = IS_ERROR[index]!;
      let key = day.keys.get(keyId);
      if (!key) day.keys.set(keyId, (key = [0, 0]));
      key[0]!++;
      key[1]! += error;
      let routes = day.endpoints.get(api);
      if (!routes) day.endpoints.set(api, (routes = new Map()));
      // A route is one of the service document's templates (a fixed set), never the raw path.
      const endpoint = route ?? OTHER_ENDPOINT;
      let calls = routes.get(endpoint);
      if (!calls) routes.set(endpoint, (calls = [0, 0]));
      calls[0]!++;
      calls[1]! += error;
      if (latencyMs !== undefined) day.latency[latencyBucket(latencyMs)]!++;
      if (nowMs - (written.get(keyId) ?? -Infinity) >= lastUsedEveryMs) lastUsed.set(keyId, nowMs);
    },
    flush: () => loop.run(),
    async stop() {
      await loop.stop();
      await loop.run();
    },
  };
}
