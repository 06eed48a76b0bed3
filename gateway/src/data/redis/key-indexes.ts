import { accountOfKeyId, shownStart } from '../../domain/api-key';
import { isIndexedPrefix } from '../account-store';
import type { RedisClient } from './redis-client';
import { redisKeys } from './redis-keys';

const PAGE = 500;

/**
 * Calls `visit` with one field of every key of every account. Commands go one by one, not as a
 * pipeline: on a Cluster each key lives in its account's slot.
 */
async function eachKeyField(redis: RedisClient, field: string, visit: (keyId: string, value: string | null) => Promise<void>): Promise<void> {
  let cursor = '-';
  for (;;) {
    const members = await redis.zrangebylex(redisKeys.accountIndex(), cursor, '+', 'LIMIT', 0, PAGE);
    if (members.length === 0) return;
    await Promise.all(
      members.map(async (member) => {
        const accountId = member.slice(member.indexOf(':') + 1);
        const keyIds = (await redis.zrange(redisKeys.keys(accountId), 0, -1)).map((m) => m.slice(m.indexOf(':') + 1));
        const values = await Promise.all(keyIds.map((keyId) => redis.hget(redisKeys.key(accountId, keyId), field)));
        for (const [i, value] of values.entries()) await visit(keyIds[i]!, value);
      }),
    );
    cursor = `(${members.at(-1)!}`;
  }
}

/**
 * Puts every key made before an index existed into it, once: a marker says it is done, so later
 * starts cost one GET. Keys made or rolled since are indexed as they change (redis-api-keys.ts).
 * Resolves with how many keys were indexed.
 */
async function indexOnce(redis: RedisClient, marker: string, field: string, add: (keyId: string, value: string) => Promise<boolean>): Promise<number> {
  if (await redis.get(marker)) return 0;
  let indexed = 0;
  await eachKeyField(redis, field, async (keyId, value) => {
    if (value && (await add(keyId, value))) indexed++;
  });
  await redis.set(marker, '1');
  return indexed;
}

/** The prefix index (operators find keys by prefix), for keys made before it. */
export const indexKeyPrefixes = (redis: RedisClient): Promise<number> =>
  indexOnce(redis, redisKeys.keyPrefixIndexed(), 'prefix', async (keyId, prefix) => {
    if (!isIndexedPrefix(prefix)) return false;
    await redis.sadd(redisKeys.keyPrefix(prefix), keyId);
    return true;
  });

/** The expiry index (the expiry notices read a week of it), for keys made before it. */
export const indexKeyExpiries = (redis: RedisClient): Promise<number> =>
  indexOnce(redis, redisKeys.keyExpiryIndexed(), 'expires_ms', async (keyId, expiresMs) => {
    if (expiresMs === '0') return false;
    await redis.zadd(redisKeys.keyExpiries(), expiresMs, keyId);
    return true;
  });

/** The prefix-index sets a key stored with `storedPrefix` may be in: that prefix and, for a key stored before issue 40, its shown start. */
export const indexedPrefixes = (storedPrefix: string, accountId: string): string[] => [...new Set([storedPrefix, shownStart(storedPrefix, accountId)])].filter(Boolean);

/**
 * A key stored before issue 40 shows its secret's own start (`tg_` and its account's hex), not the
 * prefix it stored (see shownStart): it is put under that start too, so an operator finds it by
 * what the lists show. Records are not rewritten: the rule that reads them is the same everywhere.
 */
export const indexKeyStarts = (redis: RedisClient): Promise<number> =>
  indexOnce(redis, redisKeys.keyStartIndexed(), 'prefix', async (keyId, prefix) => {
    const start = shownStart(prefix, accountOfKeyId(keyId) ?? '');
    if (start === prefix || !isIndexedPrefix(start)) return false;
    await redis.sadd(redisKeys.keyPrefix(start), keyId);
    return true;
  });
