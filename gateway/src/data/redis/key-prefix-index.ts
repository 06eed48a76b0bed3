import { isIndexedPrefix } from '../account-store';
import type { RedisClient } from './redis-client';
import { redisKeys } from './redis-keys';

const PAGE = 500;

/**
 * Puts every key made before the prefix index existed into it, once: a marker says it is done, so
 * later starts cost one GET. Keys made or rolled since are indexed as they change
 * (redis-api-keys.ts). Commands go one by one, not as a pipeline: on a Cluster each key lives in
 * its account's slot. Resolves with how many keys were indexed.
 */
export async function indexKeyPrefixes(redis: RedisClient): Promise<number> {
  if (await redis.get(redisKeys.keyPrefixIndexed())) return 0;
  let indexed = 0;
  let cursor = '-';
  for (;;) {
    const members = await redis.zrangebylex(redisKeys.accountIndex(), cursor, '+', 'LIMIT', 0, PAGE);
    if (members.length === 0) break;
    await Promise.all(
      members.map(async (member) => {
        const accountId = member.slice(member.indexOf(':') + 1);
        const keyIds = (await redis.zrange(redisKeys.keys(accountId), 0, -1)).map((m) => m.slice(m.indexOf(':') + 1));
        const prefixes = await Promise.all(keyIds.map((keyId) => redis.hget(redisKeys.key(accountId, keyId), 'prefix')));
        for (const [i, prefix] of prefixes.entries()) {
          if (prefix && isIndexedPrefix(prefix)) {
            await redis.sadd(redisKeys.keyPrefix(prefix), keyIds[i]!);
            indexed++;
          }
        }
      }),
    );
    cursor = `(${members.at(-1)!}`;
  }
  await redis.set(redisKeys.keyPrefixIndexed(), '1');
  return indexed;
}
