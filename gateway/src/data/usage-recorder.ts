import { randomBytes } from 'node:crypto';
import type { Logger } from '@tollgate/envelope';
import { dayWindow } from '../domain/windows';
import { HISTORY_OUTCOMES } from './account-store';
import type { AccountStore, HistoryCount, HistoryOutcome } from './account-store';

/** Counts calls in memory and writes them to the store in one batch at a time. */
export interface UsageRecorder {
  /** One answered call of a known key. Synchronous and allocation-light: it is on every call. */
  count(accountId: string, keyId: string, api: string, outcome: HistoryOutcome, nowMs: number): void;
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
}

// An hour of batches at one a second; beyond that the store has been down long enough to say so.
// The store's batch markers outlive this (redis-keys.ts HISTORY_BATCH_TTL_SECONDS).
const MAX_PENDING_BATCHES = 3_600;

// Counts of one UTC day: account → API → one count per outcome, in HISTORY_OUTCOMES' order. Nested
// maps rather than one map of joined names: counting then builds no string per call.
type DayCounts = Map<string, Map<string, number[]>>;
const OUTCOME_INDEX: Readonly<Record<HistoryOutcome, number>> = Object.freeze(Object.fromEntries(HISTORY_OUTCOMES.map((o, i) => [o, i])) as Record<HistoryOutcome, number>);

function countsOf(days: Map<string, DayCounts>): HistoryCount[] {
  const out: HistoryCount[] = [];
  for (const [dayId, accounts] of days) {
    for (const [accountId, apis] of accounts) {
      for (const [api, row] of apis) {
        for (let i = 0; i < row.length; i++) if (row[i]) out.push({ accountId, api, dayId, outcome: HISTORY_OUTCOMES[i]!, count: row[i]! });
      }
    }
  }
  return out;
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
 * outcome in the gateway and flushed at most once per `intervalMs` as one pipeline, with the
 * keys' last use (at most once a minute per key). A crash loses at most the last interval's counts.
 */
export function createUsageRecorder(options: UsageRecorderOptions): UsageRecorder {
  const { store, clock } = options;
  const lastUsedEveryMs = options.lastUsedEveryMs ?? 60_000;
  // Usually one day; two for the interval that crosses midnight.
  let days = new Map<string, DayCounts>();
  let dayId = '';
  let today: DayCounts = new Map();
  let lastUsed = new Map<string, number>();
  const written = new Map<string, number>();
  // Batches not yet written, oldest first, each with its id: one that timed out may have been
  // applied, so it is sent again as it was, under the same id, and the store adds it once.
  const pending: { id: string; counts: HistoryCount[]; lastUsed: Map<string, number> }[] = [];
  const batchPrefix = randomBytes(6).toString('base64url');
  let sequence = 0;
  let flushing: Promise<void> | undefined;

  const write = async (): Promise<void> => {
    if (days.size || lastUsed.size) {
      pending.push({ id: `${batchPrefix}:${++sequence}`, counts: countsOf(days), lastUsed });
      days = new Map();
      dayId = '';
      lastUsed = new Map();
    }
    while (pending.length) {
      const batch = pending[0]!;
      try {
        await store.record(batch.counts, batch.lastUsed, batch.id);
      } catch (err) {
        options.logger?.warn({ err: (err as Error).message, batches: pending.length }, 'usage history not written now; sent again at the next flush');
        // A store down for long must not grow the gateway without bound: the oldest go first.
        if (pending.length > MAX_PENDING_BATCHES) pending.splice(0, pending.length - MAX_PENDING_BATCHES);
        return;
      }
      pending.shift();
      for (const [keyId, atMs] of batch.lastUsed) written.set(keyId, atMs);
    }
    if (written.size > 100_000) for (const [keyId, atMs] of written) if (clock() - atMs >= lastUsedEveryMs) written.delete(keyId);
  };
  const flush = (): Promise<void> => {
    // One batch at a time, so a slow store never has two of the same counts in flight.
    flushing ??= write().finally(() => {
      flushing = undefined;
    });
    return flushing;
  };
  const timer = setInterval(() => void flush(), options.intervalMs ?? 1_000);
  timer.unref();

  return {
    count(accountId, keyId, api, outcome, nowMs) {
      const day = dayWindow(nowMs).id;
      if (day !== dayId) {
        dayId = day;
        today = days.get(day) ?? new Map();
        days.set(day, today);
      }
      let apis = today.get(accountId);
      if (!apis) today.set(accountId, (apis = new Map()));
      let row = apis.get(api);
      if (!row) apis.set(api, (row = [0, 0, 0, 0, 0]));
      row[OUTCOME_INDEX[outcome]]!++;
      if (nowMs - (written.get(keyId) ?? -Infinity) >= lastUsedEveryMs) lastUsed.set(keyId, nowMs);
    },
    flush,
    async stop() {
      clearInterval(timer);
      await flushing;
      await flush();
    },
  };
}
