import { accountOfKeyId } from '../../domain/api-key';
import type { HistoryCount } from '../account-store';
import type { UsageDetail } from '../usage-breakdown';
import { HISTORY_BATCH_TTL_SECONDS, HISTORY_TTL_SECONDS } from '../retention';
import { redisKeys } from './redis-keys';

/** Accounts whose history one call to a single Redis adds at most (a few hundred commands inside). */
export const HISTORY_ACCOUNTS_PER_CALL = 50;

/** One field of an account's day hash and what to add to it. */
interface FieldCount {
  dayId: string;
  field: string;
  count: number;
}

/** One account's part of a history batch: its counts and details, the days they fall on, and its keys' last use. */
interface HistoryGroup {
  accountId: string;
  days: string[];
  counts: FieldCount[];
  used: [string, number][];
}

/** A batch's counts, details and last uses, grouped by account (the unit of a Cluster slot). */
function historyGroups(counts: readonly HistoryCount[], details: readonly UsageDetail[], lastUsed: ReadonlyMap<string, number>): HistoryGroup[] {
  const groups = new Map<string, HistoryGroup>();
  const groupOf = (accountId: string): HistoryGroup => {
    let group = groups.get(accountId);
    if (!group) groups.set(accountId, (group = { accountId, days: [], counts: [], used: [] }));
    return group;
  };
  const add = (accountId: string, dayId: string, field: string, count: number): void => {
    const group = groupOf(accountId);
    group.counts.push({ dayId, field, count });
    if (!group.days.includes(dayId)) group.days.push(dayId);
  };
  for (const c of counts) add(c.accountId, c.dayId, `${c.api}:${c.outcome}`, c.count);
  // The details go to the same day hashes in the same script call: the account's batch marker covers them.
  for (const d of details) add(d.accountId, d.dayId, d.field, d.count);
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
export function historyCalls(counts: readonly HistoryCount[], lastUsed: ReadonlyMap<string, number>, batchId: string, perCall: number, details: readonly UsageDetail[] = []): HistoryCall[] {
  const groups = historyGroups(counts, details, lastUsed);
  const calls: HistoryCall[] = [];
  for (let i = 0; i < groups.length; i += perCall) {
    const call: HistoryCall = { keys: [], args: [HISTORY_TTL_SECONDS, HISTORY_BATCH_TTL_SECONDS] };
    for (const group of groups.slice(i, i + perCall)) {
      call.keys.push(redisKeys.historyBatch(group.accountId, batchId), ...group.days.map((day) => redisKeys.history(group.accountId, day)), ...group.used.map(([keyId]) => redisKeys.key(group.accountId, keyId)));
      call.args.push(group.days.length, group.counts.length, group.used.length);
      for (const c of group.counts) call.args.push(group.days.indexOf(c.dayId) + 1, c.field, c.count);
      for (const [, atMs] of group.used) call.args.push(new Date(atMs).toISOString());
    }
    calls.push(call);
  }
  return calls;
}
