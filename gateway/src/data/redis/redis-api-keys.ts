import { accountOfKeyId, hashApiKey, keyHints, newKeyId, parseApiKey } from '../../domain/api-key';
import { KeyLimitError, KeyRevokedError, isIndexedPrefix, newKeyRecord } from '../account-store';
import type { Account, AccountStore, ApiKey, Page } from '../account-store';
import { LATE, pageOfIndex, present, refusedAfter } from './account-context';
import type { AccountParts } from './account-context';
import { indexedPrefixes } from './key-indexes';
import { migrateLegacyKey } from './legacy-migration';
import { OLD_SECRET_PREFIX, decodeKey, decodeSecret, encodeKey, encodeSecret, secretField } from './record-codec';
import { indexMember, redisKeys } from './redis-keys';
import { END_GRACE_SCRIPT } from './scripts/end-grace-script';

type ApiKeysPart = Pick<AccountStore, 'createKey' | 'getKey' | 'listKeys' | 'rollKey' | 'endGrace' | 'revokeKey' | 'keysExpiringBetween' | 'findKeysByPrefix' | 'findKey'>;

/** An account's keys in Redis: records, the secrets admission reads, and their lifecycle. */
export function redisApiKeys(parts: AccountParts): ApiKeysPart {
  const { redis, ctx, scripts, readAccount, readKey, migrated } = parts;
  const { guard, clock } = ctx;
  return {
    createKey: (accountId, input) => {
      const keyId = newKeyId(accountId);
      const key = parts.makeKey(accountId);
      const hash = hashApiKey(key);
      const record = newKeyRecord(keyId, accountId, input, keyHints(key), clock());
      const secret = encodeSecret({ keyId, expiresAtMs: input.expiresAtMs ?? 0, revokedAtMs: 0, graceUntilMs: 0 });
      const names = [redisKeys.account(accountId), redisKeys.key(accountId, keyId), redisKeys.legacy.secrets(accountId), redisKeys.keys(accountId)];
      const forget = (): void => ctx.undo(() => redis.multi().del(names[1]!).hdel(names[0]!, secretField(hash)).zrem(names[3]!, indexMember(Date.parse(record.created_at), keyId)).exec());
      return refusedAfter(
        guard.run(
          'create_key',
          async () => {
            // Indexed first: the index may name a key that is not there (read back, it is left out), never miss one.
            await indexPrefix(parts, record.prefix, keyId);
            if (input.expiresAtMs !== undefined) await redis.zadd(redisKeys.keyExpiries(), input.expiresAtMs, keyId);
            const member = indexMember(Date.parse(record.created_at), keyId);
            const made = await scripts.tollgateCreateKey(...names, ctx.deadline(ctx.maxWaitMs), hash, secret, member, input.maxLive ?? 0, clock(), ...Object.entries(encodeKey(record, hash)).flat());
            if (made === 0) throw new Error(LATE);
            if (made === -2) return new KeyLimitError(input.maxLive ?? 0);
            return made === -1 ? undefined : { key, record };
          },
          forget,
        ),
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
    rollKey: redisRollKey(parts),
    endGrace: (keyId) =>
      guard.run('end_grace', async () => {
        await migrated(keyId);
        const accountId = accountOfKeyId(keyId);
        if (!accountId) return undefined;
        if (!(await redis.eval(END_GRACE_SCRIPT, 3, ...secretKeys(accountId, keyId), clock()))) return undefined;
        await redis.publish(redisKeys.revocations(), keyId);
        return readKey(keyId);
      }),
    revokeKey: (keyId) =>
      guard.run('revoke_key', async () => {
        await migrated(keyId);
        const accountId = accountOfKeyId(keyId);
        if (!accountId) return undefined;
        const nowMs = clock();
        if (!(await scripts.tollgateRevoke(...secretKeys(accountId, keyId), nowMs, new Date(nowMs).toISOString(), keyId))) return undefined;
        await redis.publish(redisKeys.revocations(), keyId);
        return readKey(keyId);
      }),
    keysExpiringBetween: async (fromMs, toMs) => {
      const index = redisKeys.keyExpiries();
      // A week past its expiry a key is told nothing more: its entry goes.
      await guard.run('keys_expiring', () => redis.zremrangebyscore(index, '-inf', clock() - EXPIRED_KEPT_MS));
      const found: { key: ApiKey; account: Account }[] = [];
      // An account with several expiring keys is read once.
      const accounts = new Map<string, Promise<Account | undefined>>();
      const accountOf = (accountId: string): Promise<Account | undefined> => {
        let account = accounts.get(accountId);
        if (!account) accounts.set(accountId, (account = readAccount(accountId)));
        return account;
      };
      // A page at a time, each its own store call: a week of keys may be many, and each costs a read or two.
      for (let offset = 0; ; offset += EXPIRING_PAGE) {
        const ids = await guard.run('keys_expiring', () => redis.zrangebyscore(index, `(${fromMs}`, toMs, 'LIMIT', offset, EXPIRING_PAGE));
        const page = await guard.run('keys_expiring', () =>
          Promise.all(
            ids.map(async (keyId) => {
              const accountId = accountOfKeyId(keyId);
              // The index may name a key not made (yet: it is indexed first) or gone with its account: left out.
              const [key, account] = accountId ? await Promise.all([readKey(keyId), accountOf(accountId)]) : [];
              return key && account && !key.revoked_at ? [{ key, account }] : [];
            }),
          ),
        );
        found.push(...page.flat());
        if (ids.length < EXPIRING_PAGE) return found;
      }
    },
    findKeysByPrefix: (prefix, limit) =>
      guard.run('find_keys_by_prefix', async () => {
        if (!isIndexedPrefix(prefix)) return [];
        const ids = (await redis.smembers(redisKeys.keyPrefix(prefix))).sort().slice(0, limit);
        return (await Promise.all(ids.map(readKey))).filter((key): key is ApiKey => key?.prefix === prefix);
      }),
    findKey: (secret) =>
      guard.run('find_key', async () => {
        const parsed = parseApiKey(secret);
        if (!parsed.ok) return undefined;
        // An entry an older gateway wrote (`s:<hash>`, or in the secrets' own hash) counts until a script moves it.
        const read = async () => {
          const [entry, older] = await redis.hmget(redisKeys.account(parsed.accountId), secretField(parsed.hash), OLD_SECRET_PREFIX + parsed.hash);
          return entry ?? older ?? redis.hget(redisKeys.legacy.secrets(parsed.accountId), parsed.hash);
        };
        let entry = await read();
        // An old key not moved into its account yet (see migrated) is moved now.
        if (!entry && parsed.legacy && (await migrateLegacyKey(redis, parsed.hash, clock(), ctx.apis))) entry = await read();
        if (!entry) return undefined;
        const { keyId } = decodeSecret(entry);
        const [fields, account] = await Promise.all([redis.hgetall(redisKeys.key(parsed.accountId, keyId)), readAccount(parsed.accountId)]);
        const key = decodeKey(keyId, parsed.accountId, fields);
        return key && account && { key, account, secret: fields.hash === parsed.hash ? ('current' as const) : ('previous' as const) };
      }),
  };
}

/** How long past its expiry a key's entry stays in the expiry index. */
const EXPIRED_KEPT_MS = 7 * 86_400_000;
/** Keys read per store call by keysExpiringBetween. */
const EXPIRING_PAGE = 200;

/** The keys of a script that changes a key's secrets: its record, its account, the secrets' old hash. */
const secretKeys = (accountId: string, keyId: string): [string, string, string] => [redisKeys.key(accountId, keyId), redisKeys.account(accountId), redisKeys.legacy.secrets(accountId)];

/** A new secret for a key, the old one kept for the grace; a roll the client was told failed is undone. */
function redisRollKey(parts: AccountParts): AccountStore['rollKey'] {
  const { redis, ctx, scripts, readKey, migrated } = parts;
  return (keyId, graceMs) => {
    const accountId = accountOfKeyId(keyId);
    if (!accountId) return Promise.resolve(undefined);
    const names = secretKeys(accountId, keyId);
    // What a roll the client was told failed must be undone to: read before the roll is sent.
    let undoArgs: string[] | undefined;
    let abandoned = false;
    const forget = (): void => {
      abandoned = true;
      const args = undoArgs;
      if (args) ctx.undo(() => scripts.tollgateUnroll(...names, ...args));
    };
    return refusedAfter(
      ctx.guard.run(
        'roll_key',
        async (): Promise<{ key: string; record: ApiKey } | KeyRevokedError | undefined> => {
          await migrated(keyId);
          const before = await redis.hmget(names[0], 'hash', 'prev_hash', 'rolled_at', 'grace_until', 'prefix', 'last4');
          const [oldHash, oldPrev] = before;
          if (!oldHash) return undefined;
          // The entries as they are, wherever a gateway of any layout wrote them (the roll moves them).
          const prev = oldPrev || '-';
          const [moved, kept] = await Promise.all([redis.hmget(names[1], secretField(oldHash), secretField(prev), OLD_SECRET_PREFIX + oldHash, OLD_SECRET_PREFIX + prev), redis.hmget(names[2], oldHash, prev)]);
          const [oldEntry, oldPrevEntry] = [moved[0] ?? moved[2] ?? kept[0], moved[1] ?? moved[3] ?? kept[1]];
          const key = parts.makeKey(accountId);
          const newHash = hashApiKey(key);
          const nowMs = ctx.clock();
          const graceUntil = nowMs + graceMs;
          const hints = keyHints(key);
          if (abandoned) throw new Error(LATE);
          await indexPrefix(parts, hints.prefix, keyId);
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
          const oldPrefix = before[4];
          // A key stored before issue 40 was also indexed under its shown start (key-indexes.ts).
          if (oldPrefix) for (const indexed of indexedPrefixes(oldPrefix, accountId)) if (indexed !== hints.prefix) await redis.srem(redisKeys.keyPrefix(indexed), keyId);
          const record = await readKey(keyId);
          return record && { key, record };
        },
        forget,
      ),
    );
  };
}

/** Puts a key under its prefix in the index (a prefix that tells nothing is left out). */
async function indexPrefix(parts: AccountParts, prefix: string, keyId: string): Promise<void> {
  if (isIndexedPrefix(prefix)) await parts.redis.sadd(redisKeys.keyPrefix(prefix), keyId);
}
