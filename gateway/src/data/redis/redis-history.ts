import { randomUUID } from 'node:crypto';
import { dayIds, monthWindow } from '../../domain/windows';
import { HISTORY_OUTCOMES, historyApis } from '../account-store';
import type { AccountStore, HistoryCount, HistoryDay } from '../account-store';
import { breakdownDay } from '../usage-breakdown';
import { HISTORY_BATCH_TTL_SECONDS, HISTORY_TTL_SECONDS, TOP_ACCOUNTS_KEEP_SECONDS } from '../retention';
import type { AccountParts } from './account-context';
import { HISTORY_ACCOUNTS_PER_CALL, historyCalls } from './history-calls';
import { isCluster, streamsOf } from './redis-client';
import { redisKeys } from './redis-keys';
import { createWriteCoalescer } from './write-coalescer';

type HistoryPart = Pick<AccountStore, 'record' | 'history' | 'usageBreakdown' | 'serverHistory' | 'topAccounts'>;

/** One day's history counts read back, every API asked for or found and every outcome listed (zeros where none). */
function daysOf(days: string[], replies: [Error | null, unknown][], asked: readonly string[]): HistoryDay[] {
  const apis = historyApis(asked, days.map((_, i) => Object.keys((replies[i]?.[1] ?? {}) as Record<string, string>)));
  return days.flatMap((day, i) => {
    const fields = (replies[i]?.[1] ?? {}) as Record<string, string>;
    return apis.map((api) => ({ day, api, counts: Object.fromEntries(HISTORY_OUTCOMES.map((o) => [o, Number(fields[`${api}:${o}`] ?? 0)])) as HistoryDay['counts'] }));
  });
}

// Additions per stats script call: a batch of many accounts goes in several calls, each with a
// marker of its own (the same batch sent again is split the same way).
const STATS_PER_CALL = 1_000;

/**
 * The calls of the stats script for a batch: each count added to its day's server total and to its
 * account's calls in that month, summed first (see STATS_SCRIPT).
 */
function statsCalls(counts: readonly HistoryCount[], batchId: string, nowMs: number): (string | number)[][] {
  const sums = new Map<string, { type: 'h' | 'z'; key: string; field: string; count: number; ttl: number }>();
  const add = (type: 'h' | 'z', key: string, field: string, count: number, ttl: number): void => {
    const name = `${key} ${field}`;
    const sum = sums.get(name);
    if (sum) sum.count += count;
    else sums.set(name, { type, key, field, count, ttl });
  };
  for (const c of counts) {
    const month = monthWindow(Date.parse(`${c.dayId}T00:00:00Z`));
    add('h', redisKeys.serverDay(c.dayId), `${c.api}:${c.outcome}`, c.count, HISTORY_TTL_SECONDS);
    // TTLs from the gateway's clock, as the history's: a month's ranking lives past its end.
    add('z', redisKeys.topAccounts(month.id), c.accountId, c.count, Math.max(1, Math.ceil((month.endMs - nowMs) / 1000)) + TOP_ACCOUNTS_KEEP_SECONDS);
  }
  const all = [...sums.values()];
  const calls: (string | number)[][] = [];
  for (let start = 0; start < all.length; start += STATS_PER_CALL) {
    const keys = [redisKeys.statsBatch(`${batchId}:${start / STATS_PER_CALL}`)];
    const args: (string | number)[] = [HISTORY_BATCH_TTL_SECONDS];
    for (const sum of all.slice(start, start + STATS_PER_CALL)) {
      let index = keys.indexOf(sum.key) + 1;
      if (index === 0) index = keys.push(sum.key);
      args.push(sum.type, index, sum.field, sum.count, sum.ttl);
    }
    calls.push([keys.length, ...keys, ...args]);
  }
  return calls;
}

/** Calls per account, day, API and outcome in Redis, and keys' last use: written in batches by the usage recorder. */
export function redisHistory(parts: AccountParts): HistoryPart {
  const { redis, ctx, scripts } = parts;
  const { guard } = ctx;
  const coalesce = createWriteCoalescer(() => streamsOf(redis));
  // An account's day hashes, read in one pipeline (one slot: one master of a Cluster); undefined for an unknown account.
  const readDays = async (accountId: string, fromDayId: string, toDayId: string): Promise<{ days: string[]; replies: [Error | null, unknown][] } | undefined> => {
    if (!(await redis.exists(redisKeys.account(accountId)))) return undefined;
    const days = dayIds(fromDayId, toDayId);
    const pipeline = redis.pipeline();
    for (const day of days) pipeline.hgetall(redisKeys.history(accountId, day));
    return { days, replies: (await pipeline.exec()) ?? [] };
  };
  return {
    record: (counts, lastUsed, batchId, details = []) =>
      guard.run('record', async () => {
        if (!counts.length && !details.length && !lastUsed.size) return;
        // One batch: the history costs a gateway one write a second, not one per call. Per
        // account, the script adds its counts at most once per batch id, so a batch sent again
        // after a timeout (it may have been applied) is not counted twice. Corking the sockets for
        // the turn sends a Cluster's calls (one per account: a slot each) as one write per master.
        coalesce();
        const sent: Promise<unknown>[] = [];
        const batch = batchId ?? randomUUID();
        // One Redis takes the whole batch in a few calls; a Cluster, one call per account.
        for (const { keys, args } of historyCalls(counts, lastUsed, batch, isCluster(redis) ? 1 : HISTORY_ACCOUNTS_PER_CALL, details)) sent.push(scripts.tollgateHistory(keys.length, ...keys, ...args));
        // The server's totals: one more call, on the {stats} slot, added once per batch id too.
        for (const call of statsCalls(counts, batch, ctx.clock())) sent.push(scripts.tollgateStats(...call));
        // Every command is waited for (none left running unseen), then the first failure thrown.
        for (const result of await Promise.allSettled(sent)) if (result.status === 'rejected') throw result.reason;
      }),
    history: (accountId, apis, fromDayId, toDayId) =>
      guard.run('history', async (): Promise<HistoryDay[] | undefined> => {
        const read = await readDays(accountId, fromDayId, toDayId);
        return read && daysOf(read.days, read.replies, apis);
      }),
    usageBreakdown: (accountId, fromDayId, toDayId) =>
      guard.run('usage_breakdown', async () => {
        const read = await readDays(accountId, fromDayId, toDayId);
        return read?.days.map((day, i) => breakdownDay(day, Object.entries((read.replies[i]?.[1] ?? {}) as Record<string, string>).map(([field, count]) => [field, Number(count)])));
      }),
    serverHistory: (apis, fromDayId, toDayId) =>
      guard.run('server_history', async () => {
        const days = dayIds(fromDayId, toDayId);
        // Every day's hash is in the {stats} slot: one pipeline, on one master of a Cluster too.
        const pipeline = redis.pipeline();
        for (const day of days) pipeline.hgetall(redisKeys.serverDay(day));
        return daysOf(days, (await pipeline.exec()) ?? [], apis);
      }),
    topAccounts: (monthId, limit) =>
      guard.run('top_accounts', async () => {
        const key = redisKeys.topAccounts(monthId);
        const [ranked, active] = await Promise.all([redis.zrevrange(key, 0, limit - 1, 'WITHSCORES'), redis.zcard(key)]);
        const top = [];
        for (let i = 0; i < ranked.length; i += 2) top.push({ account_id: ranked[i]!, calls: Number(ranked[i + 1]) });
        return { top, active };
      }),
  };
}
