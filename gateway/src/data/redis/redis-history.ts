import { randomUUID } from 'node:crypto';
import { dayIds } from '../../domain/windows';
import { HISTORY_OUTCOMES } from '../account-store';
import type { AccountStore, HistoryDay } from '../account-store';
import type { AccountParts } from './account-context';
import { HISTORY_ACCOUNTS_PER_CALL, historyCalls } from './history-calls';
import { isCluster, streamsOf } from './redis-client';
import { redisKeys } from './redis-keys';
import { createWriteCoalescer } from './write-coalescer';

type HistoryPart = Pick<AccountStore, 'record' | 'history'>;

/** Calls per account, day, API and outcome in Redis, and keys' last use: written in batches by the usage recorder. */
export function redisHistory(parts: AccountParts): HistoryPart {
  const { redis, ctx, scripts } = parts;
  const coalesce = createWriteCoalescer(() => streamsOf(redis));
  return {
    record: (counts, lastUsed, batchId) =>
      ctx.guard.run('record', async () => {
        if (!counts.length && !lastUsed.size) return;
        // One batch: the history costs a gateway one write a second, not one per call. Per
        // account, the script adds its counts at most once per batch id, so a batch sent again
        // after a timeout (it may have been applied) is not counted twice. Corking the sockets for
        // the turn sends a Cluster's calls (one per account: a slot each) as one write per master.
        coalesce();
        const sent: Promise<unknown>[] = [];
        const batch = batchId ?? randomUUID();
        // One Redis takes the whole batch in a few calls; a Cluster, one call per account.
        for (const { keys, args } of historyCalls(counts, lastUsed, batch, isCluster(redis) ? 1 : HISTORY_ACCOUNTS_PER_CALL)) sent.push(scripts.tollgateHistory(keys.length, ...keys, ...args));
        // Every command is waited for (none left running unseen), then the first failure thrown.
        for (const result of await Promise.allSettled(sent)) if (result.status === 'rejected') throw result.reason;
      }),
    history: (accountId, apis, fromDayId, toDayId) =>
      ctx.guard.run('history', async (): Promise<HistoryDay[] | undefined> => {
        if (!(await redis.exists(redisKeys.account(accountId)))) return undefined;
        const days = dayIds(fromDayId, toDayId);
        const pipeline = redis.pipeline();
        for (const day of days) pipeline.hgetall(redisKeys.history(accountId, day));
        const replies = (await pipeline.exec()) ?? [];
        return days.flatMap((day, i) => {
          const fields = (replies[i]?.[1] ?? {}) as Record<string, string>;
          return apis.map((api) => ({ day, api, counts: Object.fromEntries(HISTORY_OUTCOMES.map((o) => [o, Number(fields[`${api}:${o}`] ?? 0)])) as HistoryDay['counts'] }));
        });
      }),
  };
}
