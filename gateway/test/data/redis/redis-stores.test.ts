import Redis from 'ioredis';
import { createRedisStores } from '../../../src/data/redis/redis-stores';
import { redisKeys } from '../../../src/data/redis/redis-keys';
import { parseApiKey } from '../../../src/domain/api-key';
import { BUILT_IN_PLANS } from '../../../src/domain/plans';
import { startRedisServer } from '../../support/redis-server';
import type { RedisServer } from '../../support/redis-server';
import { describeStoreContract } from '../store-contract';

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
  it("when accounts, keys and calls are made, then every name of an account's data carries its hash tag, and only counters expire", async () => {
    const redis = new Redis(server.url);
    await redis.flushall();
    const now = Date.parse('2026-03-15T12:00:00Z');
    const { keyStore, accountStore, quotaStore } = createRedisStores(redis, { clock: () => now });
    const paid = await keyStore.create({ owner: 'a@example.com', subscriptions: { token: { plan: 'free', status: 'active' } } });
    const play = await keyStore.create({ owner: 'b' });
    const second = (await accountStore.createKey(paid.record.account_id, { name: 'second' }))!;
    for (const secret of [paid.key, play.key, second.key]) {
      const parsed = parseApiKey(secret);
      if (!parsed.ok) throw new Error('a generated key did not parse');
      const admission = await quotaStore.admit({ accountId: parsed.accountId, keyHash: parsed.hash, api: 'token', apiPlans: BUILT_IN_PLANS.token!, nowMs: now });
      expect(['admitted', 'playground']).toContain(admission.outcome);
    }
    const [a, b] = [paid.record.account_id, play.record.account_id];
    const durable = [
      redisKeys.accountIndex(),
      redisKeys.email('a@example.com'),
      ...[a, b].flatMap((id) => [redisKeys.account(id), redisKeys.keys(id)]),
      redisKeys.key(a, paid.record.id),
      redisKeys.key(a, second.record.id),
      redisKeys.key(b, play.record.id),
    ];
    const counters = [redisKeys.secondLog(a, 'token'), redisKeys.month(a, 'token', '2026-03'), redisKeys.day(b, 'token', '2026-03-15'), redisKeys.playgroundLog(b, 'token', '2026-03-15')];
    expect((await redis.keys('gw:*')).sort()).toEqual([...durable, ...counters].sort());
    for (const name of durable) expect(await redis.ttl(name)).toBe(-1);
    for (const name of counters) expect(await redis.ttl(name)).toBeGreaterThan(0);
    expect(await redis.get(redisKeys.month(a, 'token', '2026-03'))).toBe('2');
    for (const name of [...durable, ...counters].filter((n) => n !== redisKeys.accountIndex() && !n.startsWith('gw:email:'))) {
      expect(name).toMatch(/^gw:\{acc_[0-9a-f]{24}\}:/);
      expect([a, b]).toContain(/\{(acc_[0-9a-f]{24})\}/.exec(name)![1]);
    }
    await redis.quit();
  });
});
