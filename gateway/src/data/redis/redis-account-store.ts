import type { AccountStore } from '../account-store';
import { accountParts } from './account-context';
import type { RedisAccountsContext } from './account-context';
import type { RedisClient } from './redis-client';
import { redisAccounts } from './redis-accounts';
import { redisApiKeys } from './redis-api-keys';
import { redisHistory } from './redis-history';
import { redisDeleteAccount } from './redis-delete-account';

/** Accounts, keys and history in Redis, each account in its own slot (see redis-keys.ts). */
export function createRedisAccountStore(redis: RedisClient, ctx: RedisAccountsContext): AccountStore {
  const parts = accountParts(redis, ctx);
  return { ...redisAccounts(parts), ...redisApiKeys(parts), ...redisHistory(parts), deleteAccount: redisDeleteAccount(parts) };
}
