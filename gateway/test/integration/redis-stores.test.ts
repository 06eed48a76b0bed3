import Redis from 'ioredis';
import { createRedisStores } from '../../src/data/redis-stores';
import { redisKeys } from '../../src/data/redis-keys';
import { hashApiKey } from '../../src/domain/api-key';
import { BUILT_IN_PLANS } from '../../src/domain/plans';
import { startRedisServer } from '../support/redis-server';
import type { RedisServer } from '../support/redis-server';
import { describeStoreContract } from '../support/store-contract';

let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(() => server.stop());

describeStoreContract('redis', async (clock) => {
  const redis = new Redis(server.url);
  await redis.flushall();
  return { stores: createRedisStores(redis, { clock }), close: async () => void (await redis.quit()) };
});

describe('redis layout', () => {
  it('when a call is admitted, then every counter it wrote has a TTL and shares the key id hash tag', async () => {
    const redis = new Redis(server.url);
    await redis.flushall();
    const now = Date.parse('2026-03-15T12:00:00Z');
    const { keyStore, quotaStore } = createRedisStores(redis, { clock: () => now });
    const paid = await keyStore.create({ owner: 'a', subscriptions: { token: { plan: 'free', status: 'active' } } });
    const play = await keyStore.create({ owner: 'b' });
    for (const k of [paid, play]) {
      const outcome = await quotaStore.admit({ keyId: k.record.id, keyHash: hashApiKey(k.key), api: 'token', apiPlans: BUILT_IN_PLANS.token!, nowMs: now });
      expect(['admitted', 'playground']).toContain(outcome.outcome);
    }
    const counters = (await redis.keys('gw:*')).filter((name) => name !== redisKeys.keyIndex() && !name.endsWith(':key'));
    expect(counters.sort()).toEqual(
      [
        redisKeys.secondLog(paid.record.id, 'token'),
        redisKeys.month(paid.record.id, 'token', '2026-03'),
        redisKeys.day(play.record.id, 'token', '2026-03-15'),
        redisKeys.playgroundLog(play.record.id, 'token', '2026-03-15'),
      ].sort(),
    );
    for (const name of counters) {
      expect(await redis.ttl(name)).toBeGreaterThan(0);
      expect(name).toMatch(/^gw:\{key_[0-9a-f]{24}\}:/);
    }
    await redis.quit();
  });
});
