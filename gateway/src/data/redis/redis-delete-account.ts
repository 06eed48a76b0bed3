import type { AccountStore } from '../account-store';
import { historyDaysKept } from '../retention';
import { releaseEmail } from './account-context';
import type { AccountParts } from './account-context';
import { indexedPrefixes } from './key-indexes';
import { indexMember, redisKeys } from './redis-keys';

const CUSTOMER_FIELD = 'customer:';

/**
 * Erases an account in Redis. What lives outside its slot (its address's claim, the listing, the
 * key-prefix and expiry indexes, its billing customers) goes first, for the keys known then; then
 * everything in its slot (record, keys, secrets, history days, billing) in one script, one atomic
 * step that deletes every key its index lists at that moment: a key created while this ran is
 * either listed, and erased, or refused for want of an account (issue 35). A deletion cut short
 * before that step leaves the record, so the next one finds it and finishes; the indexes of keys
 * created meanwhile are cleaned after it. Counters with a TTL (quotas, rates) are left to lapse:
 * they name no person. Every gateway is told to drop the keys it remembered for failing open.
 */
export function redisDeleteAccount(parts: AccountParts): AccountStore['deleteAccount'] {
  const { redis, ctx, readAccount, scripts } = parts;
  const unindex = async (accountId: string, keys: { id: string; prefix: string }[]): Promise<void> => {
    // A key stored before issue 40 is also indexed under its shown start (key-indexes.ts).
    for (const { id, prefix } of keys) for (const indexed of indexedPrefixes(prefix, accountId)) await redis.srem(redisKeys.keyPrefix(indexed), id);
    if (keys.length) await redis.zrem(redisKeys.keyExpiries(), ...keys.map((k) => k.id));
  };
  return (accountId) =>
    ctx.guard.run('delete_account', async () => {
      const account = await readAccount(accountId);
      if (!account) return undefined;
      const keyIds = (await redis.zrange(redisKeys.keys(accountId), 0, -1)).map((member) => member.slice(member.indexOf(':') + 1));
      const prefixes = await Promise.all(keyIds.map((keyId) => redis.hget(redisKeys.key(accountId, keyId), 'prefix')));
      const billing = await redis.hgetall(redisKeys.billing(accountId));
      const customers = Object.entries(billing).flatMap(([field, value]) => (field.startsWith(CUSTOMER_FIELD) ? [value] : []));
      if (account.email) await releaseEmail(redis, account.email, accountId);
      await redis.zrem(redisKeys.accountIndex(), indexMember(Date.parse(account.created_at), accountId));
      await unindex(accountId, keyIds.map((id, i) => ({ id, prefix: prefixes[i] ?? '' })));
      for (const customerId of customers) await redis.del(redisKeys.billingCustomer(customerId));
      await redis.zrem(redisKeys.billingIndex(), accountId);
      const slot = [redisKeys.account(accountId), redisKeys.keys(accountId), redisKeys.legacy.secrets(accountId), redisKeys.billing(accountId), ...historyDaysKept(ctx.clock()).map((day) => redisKeys.history(accountId, day))];
      const erased = await scripts.tollgateDeleteAccount(slot.length, ...slot, redisKeys.key(accountId, ''));
      const erasedKeys: { id: string; prefix: string }[] = [];
      for (let i = 0; i < erased.length; i += 2) erasedKeys.push({ id: erased[i]!, prefix: erased[i + 1]! });
      await unindex(accountId, erasedKeys.filter((k) => !keyIds.includes(k.id)));
      for (const id of [...new Set([...keyIds, ...erasedKeys.map((k) => k.id)]), accountId]) await redis.publish(redisKeys.revocations(), id);
      return account;
    });
}
