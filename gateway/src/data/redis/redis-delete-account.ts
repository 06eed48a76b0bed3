import type { AccountStore } from '../account-store';
import { historyDaysKept } from '../retention';
import { releaseEmail } from './account-context';
import type { AccountParts } from './account-context';
import { indexMember, redisKeys } from './redis-keys';

const CUSTOMER_FIELD = 'customer:';

/**
 * Erases an account in Redis. What lives outside its slot (its address's claim, the listing, the
 * key-prefix index, its billing customers) goes first; then everything in its slot (record, keys,
 * secrets, history days, billing) in one DEL, one atomic step: a deletion cut short leaves the
 * record, so the next one finds it and finishes. Counters with a TTL (quotas, rates) are left to
 * lapse: they name no person. Every gateway is told to drop the keys it remembered for failing open.
 */
export function redisDeleteAccount(parts: AccountParts): AccountStore['deleteAccount'] {
  const { redis, ctx, readAccount } = parts;
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
      for (const [i, prefix] of prefixes.entries()) if (prefix) await redis.srem(redisKeys.keyPrefix(prefix), keyIds[i]!);
      if (keyIds.length) await redis.zrem(redisKeys.keyExpiries(), ...keyIds);
      for (const customerId of customers) await redis.del(redisKeys.billingCustomer(customerId));
      await redis.zrem(redisKeys.billingIndex(), accountId);
      await redis.del(
        redisKeys.legacy.secrets(accountId),
        redisKeys.keys(accountId),
        redisKeys.billing(accountId),
        ...keyIds.map((keyId) => redisKeys.key(accountId, keyId)),
        ...historyDaysKept(ctx.clock()).map((day) => redisKeys.history(accountId, day)),
        redisKeys.account(accountId),
      );
      for (const id of [...keyIds, accountId]) await redis.publish(redisKeys.revocations(), id);
      return account;
    });
}
