import { dayIds } from '../../domain/windows';
import { HISTORY_OUTCOMES } from '../account-store';
import type { AccountStore, HistoryDay } from '../account-store';
import { HISTORY_BATCH_TTL_SECONDS, HISTORY_TTL_SECONDS } from '../retention';
import type { MemoryParts } from './account-state';

type HistoryPart = Pick<AccountStore, 'record' | 'history'>;

/** Calls per account, day, API and outcome in this process, and keys' last use. */
export function memoryHistory(parts: MemoryParts): HistoryPart {
  const { accounts, keys, history, persist, options } = parts;
  const batches = new Map<string, number>();
  // Day names by when they lapse, soonest first: a day written moves to the end (it lapses last),
  // so a flush sweeps only the days that lapsed, not every account's every day.
  const lapses = new Map([...history].sort((a, b) => a[1].expiresAtMs - b[1].expiresAtMs).map(([name, day]) => [name, day.expiresAtMs]));
  return {
    async record(counts, lastUsed, batchId) {
      const nowMs = options.clock();
      // Ids of batches added, oldest first, as long as Redis keeps its markers: a batch sent again
      // adds nothing here either (the contract is one for every store).
      for (const [id, untilMs] of batches) {
        if (untilMs > nowMs) break;
        batches.delete(id);
      }
      const fresh = batchId === undefined || !batches.has(batchId);
      if (batchId !== undefined && fresh) batches.set(batchId, nowMs + HISTORY_BATCH_TTL_SECONDS * 1000);
      for (const c of fresh ? counts : []) {
        const name = `${c.accountId}|${c.dayId}`;
        const day = history.get(name) ?? { counts: new Map<string, number>(), expiresAtMs: 0 };
        day.counts.set(`${c.api}:${c.outcome}`, (day.counts.get(`${c.api}:${c.outcome}`) ?? 0) + c.count);
        day.expiresAtMs = nowMs + HISTORY_TTL_SECONDS * 1000;
        history.set(name, day);
        lapses.delete(name);
        lapses.set(name, day.expiresAtMs);
        persist?.history(name);
      }
      for (const [keyId, atMs] of lastUsed) {
        const stored = keys.get(keyId);
        if (stored) stored.record.last_used_at = new Date(atMs).toISOString();
        if (stored) persist?.keyUsed(keyId);
      }
      for (const [name, lapsesAtMs] of lapses) {
        if (lapsesAtMs > nowMs) break;
        lapses.delete(name);
        history.delete(name);
        persist?.history(name);
      }
    },
    async history(accountId, apis, fromDayId, toDayId): Promise<HistoryDay[] | undefined> {
      if (!accounts.has(accountId)) return undefined;
      return dayIds(fromDayId, toDayId).flatMap((day) => {
        const stored = history.get(`${accountId}|${day}`);
        // A lapsed day not yet swept (a clock set back can leave one) reads as none.
        const counts = stored && stored.expiresAtMs > options.clock() ? stored.counts : undefined;
        return apis.map((api) => ({ day, api, counts: Object.fromEntries(HISTORY_OUTCOMES.map((o) => [o, counts?.get(`${api}:${o}`) ?? 0])) as HistoryDay['counts'] }));
      });
    },
  };
}
