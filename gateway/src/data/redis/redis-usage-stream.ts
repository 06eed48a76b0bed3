import { closeRedis } from './close-redis';
import { isCluster } from './redis-client';
import type { RedisClient } from './redis-client';
import { redisKeys } from './redis-keys';
import { USAGE_APPEND_SCRIPT } from './scripts/usage-append-script';

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

// Events per script call at most: a call holds Redis while its XADDs run (about 1 µs each), so a
// batch of 500 goes as five calls of 100, and other clients wait at most for one of them.
const PER_CALL = 100;

type Append = (key: string, maxLen: number, ...events: string[]) => Promise<number>;

/**
 * Appends usage events to Redis Streams: each event one entry (`XADD <shard> MAXLEN ~ n * event
 * <json>`), written by a script (scripts/usage-append-script.ts) that takes up to 100 events of one
 * shard a call. A shard is one key, so one slot: on a cluster each call goes to one master. A batch
 * that fails in part (one master away) is refused, and when it comes again only what was not
 * written is sent.
 * Consumers read every shard with a consumer group (`XREADGROUP … STREAMS gw:{usage:0}:events …`).
 */
export function createRedisUsageStream(redis: RedisClient, options: RedisUsageStreamOptions) {
  const { shards, maxLen } = options;
  redis.defineCommand('tollgateUsageAppend', { numberOfKeys: 1, lua: USAGE_APPEND_SCRIPT });
  const append = (redis as unknown as { tollgateUsageAppend: Append }).tollgateUsageAppend.bind(redis);
  // The events of a batch that failed in part and were written all the same: when the batch comes
  // again (its JSON is the same), they are skipped, so one call's failure writes no other's twice.
  let written: Set<string> | undefined;
  return {
    describe: `redis stream ${redisKeys.usageStream(0)}${shards > 1 ? ` … ${redisKeys.usageStream(shards - 1)}` : ''}${isCluster(redis) ? ' (cluster)' : ''}`,
    async write(all: readonly string[], subjects: readonly string[]): Promise<void> {
      const retried = written;
      written = undefined;
      const byShard = new Map<number, string[]>();
      for (let i = 0; i < all.length; i++) {
        if (retried?.has(all[i]!)) continue;
        const shard = shards === 1 ? 0 : shardOf(subjects[i]!, shards);
        let list = byShard.get(shard);
        if (!list) byShard.set(shard, (list = []));
        list.push(all[i]!);
      }
      const parts: string[][] = [];
      const calls: Promise<number>[] = [];
      for (const [shard, events] of byShard) {
        for (let i = 0; i < events.length; i += PER_CALL) {
          const part = events.slice(i, i + PER_CALL);
          parts.push(part);
          calls.push(append(redisKeys.usageStream(shard), maxLen, ...part));
        }
      }
      const settled = await Promise.allSettled(calls);
      const failed = settled.find((result) => result.status === 'rejected');
      if (!failed) return;
      const taken = retried ?? new Set<string>();
      settled.forEach((result, c) => {
        if (result.status === 'fulfilled') for (const event of parts[c]!) taken.add(event);
      });
      written = taken;
      throw failed.reason;
    },
    async close(): Promise<void> {
      await closeRedis(redis);
    },
  };
}
