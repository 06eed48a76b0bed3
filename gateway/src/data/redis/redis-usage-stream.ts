import { isCluster } from './redis-client';
import type { RedisClient } from './redis-client';
import { redisKeys } from './redis-keys';

/** Options of {@link createRedisUsageStream}. */
export interface RedisUsageStreamOptions {
  /** Streams the events are spread over (by account), each on a slot of its own. */
  shards: number;
  /** `XADD … MAXLEN ~ n`: each shard keeps about this many entries (Redis trims whole nodes, so a little more). */
  maxLen: number;
}

/** FNV-1a of the account id: which shard holds its events (the same one always, so its events stay in order). */
export function shardOf(subject: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < subject.length; i++) hash = Math.imul(hash ^ subject.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % shards;
}

/**
 * Appends usage events to Redis Streams: `XADD <shard> MAXLEN ~ n * event <json>`, one pipeline per
 * shard (a shard is one key, so one slot: a pipeline on a cluster stays on one master). Consumers
 * read every shard with a consumer group (`XREADGROUP … STREAMS gw:{usage:0}:events …`).
 */
export function createRedisUsageStream(redis: RedisClient, options: RedisUsageStreamOptions) {
  const { shards, maxLen } = options;
  return {
    describe: `redis stream ${redisKeys.usageStream(0)}${shards > 1 ? ` … ${redisKeys.usageStream(shards - 1)}` : ''}${isCluster(redis) ? ' (cluster)' : ''}`,
    async append(entries: readonly { subject: string; json: string }[]): Promise<void> {
      const byShard = new Map<number, string[]>();
      for (const { subject, json } of entries) {
        const shard = shardOf(subject, shards);
        let list = byShard.get(shard);
        if (!list) byShard.set(shard, (list = []));
        list.push(json);
      }
      await Promise.all(
        [...byShard].map(async ([shard, jsons]) => {
          const key = redisKeys.usageStream(shard);
          const pipeline = redis.pipeline();
          for (const json of jsons) pipeline.xadd(key, 'MAXLEN', '~', maxLen, '*', 'event', json);
          const results = (await pipeline.exec()) ?? [];
          const failed = results.find(([err]) => err);
          if (failed) throw failed[0] as Error;
          if (results.length !== jsons.length) throw new Error('the usage stream pipeline was cut short');
        }),
      );
    },
    async close(): Promise<void> {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
