import { dayIds, monthWindow } from '../../domain/windows';
import { HISTORY_OUTCOMES, historyApis } from '../account-store';
import type { AccountCalls, AccountStore, HistoryCount, HistoryDay } from '../account-store';
import { breakdownDay } from '../usage-breakdown';
import { HISTORY_BATCH_TTL_SECONDS, HISTORY_TTL_SECONDS, TOP_ACCOUNTS_KEEP_SECONDS } from '../retention';
import { SERVER_HISTORY, TOP_HISTORY } from './account-state';
import type { HistoryEntry, MemoryParts } from './account-state';

type HistoryPart = Pick<AccountStore, 'record' | 'history' | 'usageBreakdown' | 'serverHistory' | 'topAccounts'>;

/** The counts of each day, every API asked for or found and every outcome listed (zeros where none). */
function daysOf(read: (day: string) => Map<string, number> | undefined, asked: readonly string[], fromDayId: string, toDayId: string): HistoryDay[] {
  const days = dayIds(fromDayId, toDayId);
  const apis = historyApis(asked, days.map((day) => read(day)?.keys() ?? []));
  return days.flatMap((day) => {
    const counts = read(day);
    return apis.map((api) => ({ day, api, counts: Object.fromEntries(HISTORY_OUTCOMES.map((o) => [o, counts?.get(`${api}:${o}`) ?? 0])) as HistoryDay['counts'] }));
  });
}

/** The `limit` largest of `counts`, largest first (one pass; ties by account id). */
function largest(counts: Map<string, number>, limit: number): AccountCalls[] {
  const top: AccountCalls[] = [];
  const before = (a: AccountCalls, b: AccountCalls): boolean => a.calls > b.calls || (a.calls === b.calls && a.account_id < b.account_id);
  for (const [account_id, calls] of counts) {
    const entry = { account_id, calls };
    if (top.length === limit && !before(entry, top[limit - 1]!)) continue;
    let i = top.length;
    while (i > 0 && before(entry, top[i - 1]!)) i--;
    top.splice(i, 0, entry);
    if (top.length > limit) top.pop();
  }
  return top;
}

/** Calls per account, day, API and outcome in this process, the server's totals, and keys' last use. */
export function memoryHistory(parts: MemoryParts): HistoryPart {
  const { accounts, keys, history, monthCalls, persist, options } = parts;
  const batches = new Map<string, number>();
  // Names by when they lapse, soonest first, one map per lifetime (days live 91 days from their
  // last write, a month's top accounts until 35 days after it ends): an entry written moves to the
  // end of its map, so a flush sweeps only what lapsed, not every account's every day.
  const dayLapses = new Map<string, number>();
  const monthLapses = new Map<string, number>();
  const lapsesOf = (name: string): Map<string, number> => (name.startsWith(`${TOP_HISTORY}|`) ? monthLapses : dayLapses);
  for (const [name, entry] of [...history].sort((a, b) => a[1].expiresAtMs - b[1].expiresAtMs)) lapsesOf(name).set(name, entry.expiresAtMs);
  const add = (name: string, field: string, count: number, expiresAtMs: number): void => {
    const entry: HistoryEntry = history.get(name) ?? { counts: new Map<string, number>(), expiresAtMs: 0 };
    entry.counts.set(field, (entry.counts.get(field) ?? 0) + count);
    entry.expiresAtMs = Math.max(entry.expiresAtMs, expiresAtMs);
    history.set(name, entry);
    const lapses = lapsesOf(name);
    lapses.delete(name);
    lapses.set(name, entry.expiresAtMs);
    persist?.history(name);
  };
  const addCount = (c: HistoryCount, nowMs: number): void => {
    const keepUntil = nowMs + HISTORY_TTL_SECONDS * 1000;
    add(`${c.accountId}|${c.dayId}`, `${c.api}:${c.outcome}`, c.count, keepUntil);
    add(`${SERVER_HISTORY}|${c.dayId}`, `${c.api}:${c.outcome}`, c.count, keepUntil);
    const month = monthWindow(Date.parse(`${c.dayId}T00:00:00Z`));
    add(`${TOP_HISTORY}|${month.id}|${c.accountId}`, 'calls', c.count, month.endMs + TOP_ACCOUNTS_KEEP_SECONDS * 1000);
    const calls = monthCalls.get(month.id) ?? new Map<string, number>();
    monthCalls.set(month.id, calls.set(c.accountId, (calls.get(c.accountId) ?? 0) + c.count));
  };
  const sweep = (lapses: Map<string, number>, nowMs: number): void => {
    for (const [name, lapsesAtMs] of lapses) {
      if (lapsesAtMs > nowMs) break;
      lapses.delete(name);
      history.delete(name);
      persist?.history(name);
      const [kind, month] = name.split('|');
      if (kind === TOP_HISTORY && month !== undefined) monthCalls.delete(month);
    }
  };
  // A lapsed day not yet swept (a clock set back can leave one) reads as none.
  const live = (name: string): Map<string, number> | undefined => {
    const stored = history.get(name);
    return stored && stored.expiresAtMs > options.clock() ? stored.counts : undefined;
  };
  return {
    async record(counts, lastUsed, batchId, details = []) {
      const nowMs = options.clock();
      // Ids of batches added, oldest first, as long as Redis keeps its markers: a batch sent again
      // adds nothing here either (the contract is one for every store).
      for (const [id, untilMs] of batches) {
        if (untilMs > nowMs) break;
        batches.delete(id);
      }
      const fresh = batchId === undefined || !batches.has(batchId);
      if (batchId !== undefined && fresh) batches.set(batchId, nowMs + HISTORY_BATCH_TTL_SECONDS * 1000);
      for (const c of fresh ? counts : []) addCount(c, nowMs);
      for (const d of fresh ? details : []) add(`${d.accountId}|${d.dayId}`, d.field, d.count, nowMs + HISTORY_TTL_SECONDS * 1000);
      for (const [keyId, atMs] of lastUsed) {
        const stored = keys.get(keyId);
        if (stored) stored.record.last_used_at = new Date(atMs).toISOString();
        if (stored) persist?.keyUsed(keyId);
      }
      sweep(dayLapses, nowMs);
      sweep(monthLapses, nowMs);
    },
    async history(accountId, apis, fromDayId, toDayId): Promise<HistoryDay[] | undefined> {
      if (!accounts.has(accountId)) return undefined;
      return daysOf((day) => live(`${accountId}|${day}`), apis, fromDayId, toDayId);
    },
    async usageBreakdown(accountId, fromDayId, toDayId) {
      if (!accounts.has(accountId)) return undefined;
      return dayIds(fromDayId, toDayId).map((day) => breakdownDay(day, live(`${accountId}|${day}`) ?? []));
    },
    serverHistory: async (apis, fromDayId, toDayId) => daysOf((day) => live(`${SERVER_HISTORY}|${day}`), apis, fromDayId, toDayId),
    async topAccounts(monthId, limit) {
      const counts = monthCalls.get(monthId) ?? new Map<string, number>();
      return { top: largest(counts, limit), active: counts.size };
    },
  };
}
