import { accountOfKeyId } from '../../domain/api-key';
import type { HistoryCount } from '../account-store';
import { HISTORY_BATCH_TTL_SECONDS, HISTORY_TTL_SECONDS } from '../retention';
import { redisKeys } from './redis-keys';

/** Accounts whose history one call to a single Redis adds at most (a few hundred commands inside). */
export const HISTORY_ACCOUNTS_PER_CALL = 50;

/** One account's part of a history batch: its counts, the days they fall on, and its keys' last use. */
interface HistoryGroup {
  accountId: string;
  days: string[];
  counts: HistoryCount[];
  used: [string, number][];
}

/** A batch's counts and last uses, grouped by account (the unit of a Cluster slot). */
function historyGroups(counts: readonly HistoryCount[], lastUsed: ReadonlyMap<string, number>): HistoryGroup[] {
  const groups = new Map<string, HistoryGroup>();
  const groupOf = (accountId: string): HistoryGroup => {
    let group = groups.get(accountId);
    if (!group) groups.set(accountId, (group = { accountId, days: [], counts: [], used: [] }));
    return group;
  };
  for (const c of counts) {
    const group = groupOf(c.accountId);
    group.counts.push(c);
    if (!group.days.includes(c.dayId)) group.days.push(c.dayId);
  }
  for (const [keyId, atMs] of lastUsed) {
    const accountId = accountOfKeyId(keyId);
    if (accountId) groupOf(accountId).used.push([keyId, atMs]);
  }
  return [...groups.values()];
}

/** One call of the history script (key-scripts.ts HISTORY_SCRIPT): its keys and arguments. */
export interface HistoryCall {
  keys: string[];
  args: (string | number)[];
}

/**
 * A history batch as calls of the history script, `perCall` accounts each (1 for a Cluster, where
 * each account is a slot of its own): per account its batch marker, day hashes and used keys, then
 * the counts and last uses as the script reads them.
 */
export function historyCalls(counts: readonly HistoryCount[], lastUsed: ReadonlyMap<string, number>, batchId: string, perCall: number): HistoryCall[] {
  const groups = historyGroups(counts, lastUsed);
  const calls: HistoryCall[] = [];
  for (let i = 0; i < groups.length; i += perCall) {
    const call: HistoryCall = { keys: [], args: [HISTORY_TTL_SECONDS, HISTORY_BATCH_TTL_SECONDS] };
    for (const group of groups.slice(i, i + perCall)) {
      call.keys.push(redisKeys.historyBatch(group.accountId, batchId), ...group.days.map((day) => redisKeys.history(group.accountId, day)), ...group.used.map(([keyId]) => redisKeys.key(group.accountId, keyId)));
      call.args.push(group.days.length, group.counts.length, group.used.length);
      for (const c of group.counts) call.args.push(group.days.indexOf(c.dayId) + 1, `${c.api}:${c.outcome}`, c.count);
      for (const [, atMs] of group.used) call.args.push(new Date(atMs).toISOString());
    }
    calls.push(call);
  }
  return calls;
}
