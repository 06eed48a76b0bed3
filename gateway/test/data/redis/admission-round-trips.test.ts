import Redis from 'ioredis';
import { createRedisStores } from '../../../src/data/redis/redis-stores';
import { redisKeys } from '../../../src/data/redis/redis-keys';
import type { Stores } from '../../../src/data/stores';
import { parseApiKey } from '../../../src/domain/api-key';
import { builtInPlanTable } from '../../../src/config';
import { monthWindow, ttlSeconds } from '../../../src/domain/windows';
import { eventually } from '../../support/eventually';
import { startRedisServer } from '../../support/redis-server';
import type { RedisServer } from '../../support/redis-server';

const BUILT_IN_PLANS = builtInPlanTable();

// A call with an active subscription is answered by the usual admission script alone; the calls
// only the full script answers (the playground, a 402, a secret not in the account) take both.

const now = Date.parse('2026-03-15T12:00:00Z');
let server: RedisServer;
let redis: Redis;
let stores: Stores;

beforeAll(async () => {
  server = await startRedisServer();
  redis = new Redis(server.url);
  stores = createRedisStores(redis, { clock: () => now });
});
afterAll(async () => {
  redis.disconnect();
  await server.stop();
});

const made = async (subscriptions: Record<string, { plan: string; status: 'active' | 'inactive' }>): Promise<{ accountId: string; keyHash: string }> => {
  const key = await stores.keyStore.create({ owner: `owner-${Math.random()}`, subscriptions });
  const parsed = parseApiKey(key.key);
  if (!parsed.ok) throw new Error('a generated key did not parse');
  return { accountId: parsed.accountId, keyHash: parsed.hash };
};
const admit = (key: { accountId: string; keyHash: string }) => stores.quotaStore.admit({ ...key, api: 'token', apiPlans: BUILT_IN_PLANS.token!, nowMs: now });

/** EVALSHA calls Redis ran during `run` (ioredis sends a defined script by its SHA). */
async function scriptsRunBy(run: () => Promise<unknown>): Promise<number> {
  await redis.config('RESETSTAT');
  await run();
  const stats = /cmdstat_evalsha:calls=(\d+)/.exec(await redis.info('commandstats'));
  return Number(stats?.[1] ?? 0);
}

describe('admission round trips on Redis', () => {
  const subscribed = { token: { plan: 'free', status: 'active' as const } };

  beforeAll(async () => {
    // Each script's first use loads it (EVALSHA refused, then EVAL): counted once, before the tests.
    await admit(await made(subscribed));
    await admit(await made({}));
  });

  it.each<[string, string, number, () => Promise<{ accountId: string; keyHash: string }>]>([
    ['an active subscription', 'admitted', 1, () => made(subscribed)],
    ['an active subscription over its rate', 'rate_limited', 1, async () => {
      const key = await made(subscribed);
      for (let i = 0; i < BUILT_IN_PLANS.token!.plans.free!.rate_per_second; i++) await admit(key);
      return key;
    }],
    ['no subscription', 'playground', 2, () => made({})],
    ['an inactive subscription', 'playground', 2, () => made({ token: { plan: 'free', status: 'inactive' } })],
    ['a secret the account does not hold', 'unknown_key', 2, async () => ({ ...(await made(subscribed)), keyHash: 'f'.repeat(64) })],
  ])('when the call has %s, then it is answered %s in %d script call(s)', async (_case, outcome, calls, key) => {
    const caller = await key();
    let answer: string | undefined;
    expect(await scriptsRunBy(async () => (answer = (await admit(caller)).outcome))).toBe(calls);
    expect(answer).toBe(outcome);
  });

  it('when 40 calls of 40 accounts arrive in one turn, then they travel in one script call, and each is admitted and charged once', async () => {
    const callers = await Promise.all(Array.from({ length: 40 }, () => made(subscribed)));
    let outcomes: string[] = [];
    expect(await scriptsRunBy(async () => (outcomes = (await Promise.all(callers.map(admit))).map((a) => a.outcome)))).toBe(1);
    expect(outcomes).toEqual(callers.map(() => 'admitted'));
    const months = await Promise.all(callers.map((c) => redis.get(redisKeys.month(c.accountId, 'token', monthWindow(now).id))));
    expect(months).toEqual(callers.map(() => '1'));
  });

  it("when one call of a turn's batch raises an error in Redis, then that call alone fails and what it wrote is given back; the others are admitted", async () => {
    const callers = await Promise.all(Array.from({ length: 6 }, () => made(subscribed)));
    const broken = callers[2]!;
    // A month counter that is not a counter: the script's INCR raises WRONGTYPE after the ZADD.
    await redis.hset(redisKeys.month(broken.accountId, 'token', monthWindow(now).id), 'not', 'a counter');
    const answers = await Promise.all(callers.map((c) => admit(c).then((a) => a.outcome, (err: Error) => `${err.name}: ${err.message}`)));
    expect(answers).toEqual(callers.map((c) => (c === broken ? 'StoreError: quota store admit failed: the admission script raised an error for this call' : 'admitted')));
    // The refund takes its entry out of the second log again.
    await eventually(async () => (await redis.zcard(redisKeys.secondLog(broken.accountId, 'token'))) === 0, 'the failed call given back');
    expect(await Promise.all(callers.filter((c) => c !== broken).map((c) => redis.zcard(redisKeys.secondLog(c.accountId, 'token'))))).toEqual([1, 1, 1, 1, 1]);
  });

  it('when one turn brings calls that need the full script among usual ones, then the usual ones travel together and only the others take a second trip', async () => {
    const callers = [...(await Promise.all(Array.from({ length: 5 }, () => made(subscribed)))), await made({}), await made({})];
    let outcomes: string[] = [];
    expect(await scriptsRunBy(async () => (outcomes = (await Promise.all(callers.map(admit))).map((a) => a.outcome)))).toBe(3);
    expect(outcomes).toEqual([...callers.slice(0, 5).map(() => 'admitted'), 'playground', 'playground']);
  });

  it("when a month counter is made by the usual script, then its TTL runs to the month's end and a day", async () => {
    const key = await made(subscribed);
    expect((await admit(key)).outcome).toBe('admitted');
    const ttl = await redis.ttl(redisKeys.month(key.accountId, 'token', monthWindow(now).id));
    // Set in whole seconds a moment ago: the same, or one less if a second has turned since.
    expect([ttlSeconds(monthWindow(now), now), ttlSeconds(monthWindow(now), now) - 1]).toContain(ttl);
  });

  it('when Redis answers the usual script only after the client was told 503, then the full script is not sent and nothing is charged', async () => {
    // A store that gives up after 40 ms of silence, with the scripts' deadline at 320 ms.
    const quick = createRedisStores(redis, { clock: () => now, timeoutMs: 40 });
    const key = await made({});
    const before = await quick.quotaStore.admit({ ...key, api: 'token', apiPlans: BUILT_IN_PLANS.token!, nowMs: now });
    expect(before.outcome).toBe('playground');
    const pauser = new Redis(server.url);
    try {
      // Redis holds every command for 150 ms: the store gives up at 40, sends the refund, and the
      // usual script's answer (needs the full one) comes long before the deadline.
      await pauser.client('PAUSE', 150, 'ALL');
      await expect(quick.quotaStore.admit({ ...key, api: 'token', apiPlans: BUILT_IN_PLANS.token!, nowMs: now })).rejects.toThrow(/no answer within/);
      // The pause over, the stores' connection answers in order: the usual script, the refund, a
      // first PING; a full script sent on the usual one's answer would go before the second PING.
      await pauser.ping();
      await redis.ping();
      await redis.ping();
    } finally {
      pauser.disconnect();
    }
    expect(await redis.get(redisKeys.day(key.accountId, 'token', '2026-03-15'))).toBe('1');
  });
});
