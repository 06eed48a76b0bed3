import { randomUUID } from 'node:crypto';
import { generateApiKey, hashApiKey, keyHints, newAccountId, newKeyId, parseApiKey, accountOfKeyId } from '../domain/api-key';
import { dayIds } from '../domain/windows';
import { EmailTakenError, HISTORY_OUTCOMES, KeyRevokedError, newAccountRecord, newKeyRecord } from './account-store';
import type { Account, AccountStore, ApiKey, HistoryDay, Page } from './account-store';
import { CREATE_SCRIPT } from './admit-script';
import { END_GRACE_SCRIPT } from './end-grace-script';
import { migrateLegacyKey, migrateLegacyKeyById } from './redis-migration';
import { isCluster, streamsOf } from './redis-client';
import { createWriteCoalescer } from './write-coalescer';
import type { RedisClient } from './redis-client';
import { CREATE_KEY_SCRIPT, HISTORY_SCRIPT, REVOKE_SCRIPT, ROLL_SCRIPT, SET_IF_EXISTS_SCRIPT, UNROLL_SCRIPT } from './key-scripts';
import { decodeAccount, decodeKey, decodeSecret, encodeAccount, encodeKey, encodeSecret, encodeSubscription, subscriptionField } from './record-codec';
import { indexMember, redisKeys } from './redis-keys';
import { HISTORY_ACCOUNTS_PER_CALL, historyCalls } from './redis-history';
import type { StoreGuard } from './store-guard';

interface AccountScripts {
  tollgateHistory(...args: (string | number)[]): Promise<number>;
  tollgateCreate(...args: (string | number)[]): Promise<number>;
  tollgateCreateKey(...args: (string | number)[]): Promise<number>;
  tollgateRoll(...args: (string | number)[]): Promise<number>;
  tollgateUnroll(...args: (string | number)[]): Promise<number>;
  tollgateRevoke(...args: (string | number)[]): Promise<number>;
  tollgateSetIfExists(...args: (string | number)[]): Promise<number>;
}

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
  /** Every API name, for moving keys made before accounts (see redis-migration.ts). */
  apis?: readonly string[];
}

// The id of a key made before accounts: `key_` and 24 hex, no key suffix.
const LEGACY_KEY_ID = /^key_[0-9a-f]{24}$/;

const LATE = 'the change reached Redis after its deadline and was not made';

/**
 * The guard turns every error thrown inside it into a StoreError (and runs its undo): an answer
 * that refuses (email taken, key revoked) is returned through it as a value and thrown after.
 */
const refusedAfter = <T>(result: Promise<T | EmailTakenError | KeyRevokedError>): Promise<T> =>
  result.then((value) => {
    if (value instanceof EmailTakenError || value instanceof KeyRevokedError) throw value;
    return value;
  });

/** Members after `cursor`, at most `limit`, and the cursor of the next page. */
async function pageOfIndex(redis: RedisClient, index: string, cursor: string | undefined, limit: number): Promise<{ ids: string[]; next: string | null }> {
  const members = await redis.zrangebylex(index, cursor ? `(${cursor}` : '-', '+', 'LIMIT', 0, limit + 1);
  const page = members.slice(0, limit);
  return { ids: page.map((m) => m.slice(m.indexOf(':') + 1)), next: members.length > limit ? (page.at(-1) ?? null) : null };
}

/** Accounts, keys and history in Redis, each account in its own slot (see redis-keys.ts). */
export function createRedisAccountStore(redis: RedisClient, ctx: RedisAccountsContext): AccountStore {
  const { clock, guard } = ctx;
  redis.defineCommand('tollgateCreate', { numberOfKeys: 1, lua: CREATE_SCRIPT });
  redis.defineCommand('tollgateCreateKey', { numberOfKeys: 4, lua: CREATE_KEY_SCRIPT });
  redis.defineCommand('tollgateRoll', { numberOfKeys: 2, lua: ROLL_SCRIPT });
  // The number of keys varies with the days in a batch: given first, as EVAL takes it.
  redis.defineCommand('tollgateHistory', { lua: HISTORY_SCRIPT });
  redis.defineCommand('tollgateUnroll', { numberOfKeys: 2, lua: UNROLL_SCRIPT });
  redis.defineCommand('tollgateRevoke', { numberOfKeys: 2, lua: REVOKE_SCRIPT });
  redis.defineCommand('tollgateSetIfExists', { numberOfKeys: 1, lua: SET_IF_EXISTS_SCRIPT });
  const scripts = redis as unknown as AccountScripts;
  const coalesce = createWriteCoalescer(() => streamsOf(redis));
  const makeAccountId = ctx.newAccountId ?? (() => newAccountId());
  const makeKey = ctx.generateKey ?? ((accountId: string) => generateApiKey(accountId));

  const readAccount = async (id: string): Promise<Account | undefined> => decodeAccount(id, await redis.hgetall(redisKeys.account(id)));
  const readKey = async (keyId: string): Promise<ApiKey | undefined> => {
    const accountId = accountOfKeyId(keyId);
    return accountId === undefined ? undefined : decodeKey(keyId, accountId, await redis.hgetall(redisKeys.key(accountId, keyId)));
  };
  const present = <T>(value: T | undefined): value is T => value !== undefined;
  // An old key id names a key that may not be moved into its account yet (Redis was down when the
  // gateway started, or only the CLI has run since the upgrade): move it before acting on it.
  const migrated = async (keyId: string): Promise<void> => {
    if (LEGACY_KEY_ID.test(keyId)) await migrateLegacyKeyById(redis, keyId, clock(), ctx.apis);
  };

  const store: AccountStore = {
    createAccount: (input) => {
      const id = makeAccountId();
      const account = newAccountRecord(id, input, clock());
      // Once the client is told 503, the steps not yet sent must not be sent: the undo may run first.
      let abandoned = false;
      const forget = (): void => {
        abandoned = true;
        ctx.undo(async () => {
          await redis.del(redisKeys.account(id));
          await redis.zrem(redisKeys.accountIndex(), indexMember(Date.parse(account.created_at), id));
          if (account.email) await redis.eval("if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0", 1, redisKeys.email(account.email), id);
        });
      };
      return refusedAfter(guard.run(
        'create_account',
        async (): Promise<Account | EmailTakenError> => {
          // The email is claimed first, in its own slot: the claim is what makes it unique.
          if (account.email && !(await redis.set(redisKeys.email(account.email), id, 'NX'))) {
            return new EmailTakenError((await redis.get(redisKeys.email(account.email))) ?? '');
          }
          try {
            if (abandoned) throw new Error(LATE);
            if (!(await scripts.tollgateCreate(redisKeys.account(id), ctx.deadline(ctx.maxWaitMs), ...Object.entries(encodeAccount(account)).flat()))) throw new Error(LATE);
            await redis.zadd(redisKeys.accountIndex(), 0, indexMember(Date.parse(account.created_at), id));
          } catch (err) {
            forget();
            throw err;
          }
          return account;
        },
        forget,
      ));
    },
    getAccount: (id) => guard.run('get_account', () => readAccount(id)),
    findAccountByEmail: (email) =>
      guard.run('find_account', async () => {
        const id = await redis.get(redisKeys.email(email));
        return id ? readAccount(id) : undefined;
      }),
    listAccounts: ({ cursor, limit, email }) =>
      guard.run('list_accounts', async (): Promise<Page<Account>> => {
        if (email !== undefined) {
          const id = await redis.get(redisKeys.email(email));
          const account = id && !cursor ? await readAccount(id) : undefined;
          return { items: account ? [account] : [], next_cursor: null };
        }
        const { ids, next } = await pageOfIndex(redis, redisKeys.accountIndex(), cursor, limit);
        return { items: (await Promise.all(ids.map(readAccount))).filter(present), next_cursor: next };
      }),
    setSubscription: (accountId, api, subscription) =>
      guard.run('set_subscription', async () => {
        const value = subscription ? encodeSubscription(subscription) : '';
        if (!(await scripts.tollgateSetIfExists(redisKeys.account(accountId), subscriptionField(api), value))) return undefined;
        return readAccount(accountId);
      }),
    setEmailVerified: (accountId) =>
      guard.run('set_email_verified', async () => {
        if (!(await scripts.tollgateSetIfExists(redisKeys.account(accountId), 'email_verified', '1'))) return undefined;
        return readAccount(accountId);
      }),
    setStatus: (accountId, status) =>
      guard.run('set_status', async () => {
        if (!(await scripts.tollgateSetIfExists(redisKeys.account(accountId), 'status', status))) return undefined;
        if (status === 'suspended') await redis.publish(redisKeys.revocations(), accountId);
        return readAccount(accountId);
      }),
    createKey: (accountId, input) => {
      const keyId = newKeyId(accountId);
      const key = makeKey(accountId);
      const hash = hashApiKey(key);
      const record = newKeyRecord(keyId, accountId, input, keyHints(key), clock());
      const secret = encodeSecret({ keyId, expiresAtMs: input.expiresAtMs ?? 0, revokedAtMs: 0, graceUntilMs: 0 });
      const names = [redisKeys.account(accountId), redisKeys.key(accountId, keyId), redisKeys.secrets(accountId), redisKeys.keys(accountId)];
      const forget = (): void => ctx.undo(() => redis.multi().del(names[1]!).hdel(names[2]!, hash).zrem(names[3]!, indexMember(Date.parse(record.created_at), keyId)).exec());
      return guard.run(
        'create_key',
        async () => {
          const made = await scripts.tollgateCreateKey(...names, ctx.deadline(ctx.maxWaitMs), hash, secret, indexMember(Date.parse(record.created_at), keyId), ...Object.entries(encodeKey(record, hash)).flat());
          if (made === 0) throw new Error(LATE);
          return made === -1 ? undefined : { key, record };
        },
        forget,
      );
    },
    getKey: (keyId) =>
      guard.run('get_key', async () => {
        await migrated(keyId);
        return readKey(keyId);
      }),
    listKeys: (accountId, { cursor, limit }) =>
      guard.run('list_keys', async (): Promise<Page<ApiKey> | undefined> => {
        if (!(await redis.exists(redisKeys.account(accountId)))) return undefined;
        const { ids, next } = await pageOfIndex(redis, redisKeys.keys(accountId), cursor, limit);
        return { items: (await Promise.all(ids.map(readKey))).filter(present), next_cursor: next };
      }),
    rollKey: (keyId, graceMs) => {
      const accountId = accountOfKeyId(keyId);
      if (!accountId) return Promise.resolve(undefined);
      const names = [redisKeys.key(accountId, keyId), redisKeys.secrets(accountId)] as const;
      // What a roll the client was told failed must be undone to: read before the roll is sent.
      let undoArgs: string[] | undefined;
      let abandoned = false;
      const forget = (): void => {
        abandoned = true;
        const args = undoArgs;
        if (args) ctx.undo(() => scripts.tollgateUnroll(...names, ...args));
      };
      return refusedAfter(
        guard.run(
          'roll_key',
          async (): Promise<{ key: string; record: ApiKey } | KeyRevokedError | undefined> => {
            await migrated(keyId);
            const before = await redis.hmget(names[0], 'hash', 'prev_hash', 'rolled_at', 'grace_until', 'prefix', 'last4');
            const [oldHash, oldPrev] = before;
            if (!oldHash) return undefined;
            const [oldEntry, oldPrevEntry] = await redis.hmget(names[1], oldHash, oldPrev || '-');
            const key = makeKey(accountId);
            const newHash = hashApiKey(key);
            const nowMs = clock();
            const graceUntil = nowMs + graceMs;
            const hints = keyHints(key);
            if (abandoned) throw new Error(LATE);
            undoArgs = [newHash, oldHash, oldEntry ?? '', oldPrev ?? '', oldPrevEntry ?? '', ...before.slice(2).map((v) => v ?? '')];
            const rolled = await scripts.tollgateRoll(
              ...names,
              ctx.deadline(ctx.maxWaitMs),
              newHash,
              graceUntil,
              new Date(nowMs).toISOString(),
              graceMs > 0 ? new Date(graceUntil).toISOString() : '',
              hints.prefix,
              hints.last4,
              keyId,
              oldHash,
            );
            if (rolled === 0) throw new Error(LATE);
            if (rolled === -1) return undefined;
            if (rolled === -2) return new KeyRevokedError(keyId);
            if (rolled === -3) throw new Error('the key was rolled by another request at the same time');
            // Other gateways drop what they remembered of the old secret for failing open.
            await redis.publish(redisKeys.revocations(), keyId);
            const record = await readKey(keyId);
            return record && { key, record };
          },
          forget,
        ),
      );
    },
    endGrace: (keyId) =>
      guard.run('end_grace', async () => {
        await migrated(keyId);
        const accountId = accountOfKeyId(keyId);
        if (!accountId) return undefined;
        if (!(await redis.eval(END_GRACE_SCRIPT, 2, redisKeys.key(accountId, keyId), redisKeys.secrets(accountId), clock()))) return undefined;
        await redis.publish(redisKeys.revocations(), keyId);
        return readKey(keyId);
      }),
    revokeKey: (keyId) =>
      guard.run('revoke_key', async () => {
        await migrated(keyId);
        const accountId = accountOfKeyId(keyId);
        if (!accountId) return undefined;
        const nowMs = clock();
        if (!(await scripts.tollgateRevoke(redisKeys.key(accountId, keyId), redisKeys.secrets(accountId), nowMs, new Date(nowMs).toISOString(), keyId))) return undefined;
        await redis.publish(redisKeys.revocations(), keyId);
        return readKey(keyId);
      }),
    findKey: (secret) =>
      guard.run('find_key', async () => {
        const parsed = parseApiKey(secret);
        if (!parsed.ok) return undefined;
        const read = () => redis.hget(redisKeys.secrets(parsed.accountId), parsed.hash);
        let entry = await read();
        // An old key not moved into its account yet (see migrated above) is moved now.
        if (!entry && parsed.legacy && (await migrateLegacyKey(redis, parsed.hash, clock(), ctx.apis))) entry = await read();
        if (!entry) return undefined;
        const { keyId } = decodeSecret(entry);
        const [fields, account] = await Promise.all([redis.hgetall(redisKeys.key(parsed.accountId, keyId)), readAccount(parsed.accountId)]);
        const key = decodeKey(keyId, parsed.accountId, fields);
        return key && account && { key, account, secret: fields.hash === parsed.hash ? ('current' as const) : ('previous' as const) };
      }),
    record: (counts, lastUsed, batchId) =>
      guard.run('record', async () => {
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
      guard.run('history', async (): Promise<HistoryDay[] | undefined> => {
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
  return store;
}
