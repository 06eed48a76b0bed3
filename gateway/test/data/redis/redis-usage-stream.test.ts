import Redis from 'ioredis';
import { redisKeys } from '../../../src/data/redis/redis-keys';
import { createRedisUsageStream, shardOf } from '../../../src/data/redis/redis-usage-stream';
import { disconnectRedis, useCloseAfterEach } from '../../support/close-after-each';
import { startRedisServer } from '../../support/redis-server';
import { useStarted } from '../../support/use-started';

const SHARDS = 8;
/** A redis-server and a client of the test's own, to read the shards with. */
const env = useStarted(async () => {
  const server = await startRedisServer();
  const redis = new Redis(server.url);
  const close = async (): Promise<void> => {
    await redis.quit();
    await server.stop();
  };
  return { server, redis, close };
});

/** A writer over a client of its own; the client is closed after the test, pass or fail. */
const closeAfterEach = useCloseAfterEach();
const openWriter = () => createRedisUsageStream(closeAfterEach(new Redis(env.server.url), disconnectRedis), { shards: SHARDS, maxLen: 1000 });

/** Every entry's event in every shard, by shard. */
async function entries(): Promise<string[][]> {
  return Promise.all(Array.from({ length: SHARDS }, async (_, s) => (await env.redis.xrange(redisKeys.usageStream(s), '-', '+')).map(([, fields]) => fields[1]!)));
}

describe('the usage stream on Redis Streams', () => {
  it('when a batch of 250 events of 40 accounts is written, then each is one entry (field event) in its account’s shard, in order', async () => {
    const writer = openWriter();
    const subjects = Array.from({ length: 250 }, (_, i) => `acc_${i % 40}`);
    const events = subjects.map((subject, i) => JSON.stringify({ id: `e${i}`, subject }));
    await writer.write(events, subjects);
    const byShard = await entries();
    for (let s = 0; s < SHARDS; s++) expect(byShard[s]).toEqual(events.filter((_, i) => shardOf(subjects[i]!, SHARDS) === s));
    await env.redis.del(...Array.from({ length: SHARDS }, (_, s) => redisKeys.usageStream(s)));
  });

  it('when one shard refuses a batch and the batch comes again, then every event is written once: what went in the first time is not sent again', async () => {
    const writer = openWriter();
    const subjects = Array.from({ length: 400 }, (_, i) => `acc_${i % 16}`);
    const events = subjects.map((subject, i) => JSON.stringify({ id: `f${i}`, subject }));
    // A key of another type where one shard's stream should be: its XADDs fail (WRONGTYPE), the other shards' do not.
    const broken = shardOf(subjects[0]!, SHARDS);
    await env.redis.set(redisKeys.usageStream(broken), 'not a stream');
    await expect(writer.write(events, subjects)).rejects.toThrow(/WRONGTYPE/);
    await expect(writer.write(events, subjects)).rejects.toThrow(/WRONGTYPE/);
    await env.redis.del(redisKeys.usageStream(broken));
    await writer.write(events, subjects);
    const all = (await entries()).flat();
    expect(all).toHaveLength(400);
    expect(new Set(all)).toEqual(new Set(events));
  });
});
