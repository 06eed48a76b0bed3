import { accountOfKeyId, generateApiKey, newAccountId } from '../../domain/api-key';
import { EmailTakenError, KeyLimitError, KeyRevokedError } from '../account-store';
import type { Account, ApiKey } from '../account-store';
import { CREATE_SCRIPT } from './scripts/create-script';
import { CREATE_KEY_SCRIPT, DELETE_ACCOUNT_SCRIPT, HISTORY_SCRIPT, REVOKE_SCRIPT, ROLL_SCRIPT, SET_IF_EXISTS_SCRIPT, STATS_SCRIPT, UNROLL_SCRIPT } from './scripts/key-scripts';
import { migrateLegacyKeyById } from './legacy-migration';
import type { RedisClient } from './redis-client';
import { decodeAccount, decodeKey } from './record-codec';
import { redisKeys } from './redis-keys';
import type { StoreGuard } from './store-guard';

/** What the Redis account store shares with the quota store built beside it. */
export interface RedisAccountsContext {
  clock: () => number;
  guard: StoreGuard;
  /** A deadline in Redis's clock, `budgetMs` from now. */
  deadline: (budgetMs: number) => number;
  maxWaitMs: number;
  /** Queues what undoes a command the client was told failed. */
  undo: (command: () => Promise<unknown>) => void;
  newAccountId?: () => string;
  generateKey?: (accountId: string) => string;
  /** Every API name, for moving keys made before accounts (see legacy-migration.ts). */
  apis?: readonly string[];
}

/** The account store's scripts, as ioredis defines them on the client. */
export interface AccountScripts {
  tollgateHistory(...args: (string | number)[]): Promise<number>;
  tollgateCreate(...args: (string | number)[]): Promise<number>;
  tollgateCreateKey(...args: (string | number)[]): Promise<number>;
  tollgateRoll(...args: (string | number)[]): Promise<number>;
  tollgateUnroll(...args: (string | number)[]): Promise<number>;
  tollgateRevoke(...args: (string | number)[]): Promise<number>;
  tollgateSetIfExists(...args: (string | number)[]): Promise<number>;
  tollgateStats(...args: (string | number)[]): Promise<number>;
  tollgateDeleteAccount(...args: (string | number)[]): Promise<string[]>;
}

/** What each part of the account store (accounts, keys, history) is built from. */
export interface AccountParts {
  redis: RedisClient;
  ctx: RedisAccountsContext;
  scripts: AccountScripts;
  makeAccountId: () => string;
  makeKey: (accountId: string) => string;
  readAccount(id: string): Promise<Account | undefined>;
  readKey(keyId: string): Promise<ApiKey | undefined>;
  /** Moves a key made before accounts into its account before it is acted on. */
  migrated(keyId: string): Promise<void>;
}

// The id of a key made before accounts: `key_` and 24 hex, no key suffix.
const LEGACY_KEY_ID = /^key_[0-9a-f]{24}$/;

/** The error a change that reached Redis after its deadline ends with (the script made nothing). */
export const LATE = 'the change reached Redis after its deadline and was not made';

/**
 * The guard turns every error thrown inside it into a StoreError (and runs its undo): an answer
 * that refuses (email taken, key revoked, key cap reached) is returned through it as a value and thrown after.
 */
export const refusedAfter = <T>(result: Promise<T | EmailTakenError | KeyRevokedError | KeyLimitError>): Promise<T> =>
  result.then((value) => {
    if (value instanceof EmailTakenError || value instanceof KeyRevokedError || value instanceof KeyLimitError) throw value;
    return value;
  });

export const present = <T>(value: T | undefined): value is T => value !== undefined;

/** Frees an address's claim, only while it is still this account's (another may hold it by now). */
export async function releaseEmail(redis: RedisClient, email: string, accountId: string): Promise<void> {
  await redis.eval("if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0", 1, redisKeys.email(email), accountId);
}

/** Members after `cursor` (before it, newest first), at most `limit`, and the cursor of the next page. */
export async function pageOfIndex(redis: RedisClient, index: string, cursor: string | undefined, limit: number, newestFirst = false): Promise<{ ids: string[]; next: string | null }> {
  const members = newestFirst
    ? await redis.zrevrangebylex(index, cursor ? `(${cursor}` : '+', '-', 'LIMIT', 0, limit + 1)
    : await redis.zrangebylex(index, cursor ? `(${cursor}` : '-', '+', 'LIMIT', 0, limit + 1);
  const page = members.slice(0, limit);
  return { ids: page.map((m) => m.slice(m.indexOf(':') + 1)), next: members.length > limit ? (page.at(-1) ?? null) : null };
}

/** Defines the scripts on the client (ioredis sends each by its SHA, EVAL on NOSCRIPT) and the readers every part shares. */
export function accountParts(redis: RedisClient, ctx: RedisAccountsContext): AccountParts {
  redis.defineCommand('tollgateCreate', { numberOfKeys: 1, lua: CREATE_SCRIPT });
  redis.defineCommand('tollgateCreateKey', { numberOfKeys: 4, lua: CREATE_KEY_SCRIPT });
  redis.defineCommand('tollgateRoll', { numberOfKeys: 3, lua: ROLL_SCRIPT });
  // The number of keys varies with the days in a batch: given first, as EVAL takes it.
  redis.defineCommand('tollgateHistory', { lua: HISTORY_SCRIPT });
  redis.defineCommand('tollgateUnroll', { numberOfKeys: 3, lua: UNROLL_SCRIPT });
  redis.defineCommand('tollgateRevoke', { numberOfKeys: 3, lua: REVOKE_SCRIPT });
  redis.defineCommand('tollgateSetIfExists', { numberOfKeys: 1, lua: SET_IF_EXISTS_SCRIPT });
  redis.defineCommand('tollgateStats', { lua: STATS_SCRIPT });
  // The number of keys varies with the history days: given first, as EVAL takes it.
  redis.defineCommand('tollgateDeleteAccount', { lua: DELETE_ACCOUNT_SCRIPT });
  return {
    redis,
    ctx,
    scripts: redis as unknown as AccountScripts,
    makeAccountId: ctx.newAccountId ?? (() => newAccountId()),
    makeKey: ctx.generateKey ?? ((accountId: string) => generateApiKey(accountId)),
    readAccount: async (id) => decodeAccount(id, await redis.hgetall(redisKeys.account(id))),
    readKey: async (keyId) => {
      const accountId = accountOfKeyId(keyId);
      return accountId === undefined ? undefined : decodeKey(keyId, accountId, await redis.hgetall(redisKeys.key(accountId, keyId)));
    },
    // An old key id names a key that may not be moved into its account yet (Redis was down when the
    // gateway started, or only the CLI has run since the upgrade): move it before acting on it.
    migrated: async (keyId) => {
      if (LEGACY_KEY_ID.test(keyId)) await migrateLegacyKeyById(redis, keyId, ctx.clock(), ctx.apis);
    },
  };
}
