import Redis from 'ioredis';
import { createRedisStores } from '../../../src/data/redis/redis-stores';
import { redisKeys } from '../../../src/data/redis/redis-keys';
import { indexKeyExpiries, indexKeyPrefixes } from '../../../src/data/redis/key-indexes';
import { keyHints, parseApiKey } from '../../../src/domain/api-key';
import { builtInPlanTable } from '../../../src/config';
import { disconnectRedis, useCloseAfterEach } from '../../support/close-after-each';
import { startRedisServer } from '../../support/redis-server';
import type { RedisServer } from '../../support/redis-server';
import type { Stores } from '../../../src/data/stores';
import { describeStoreContract } from '../store-contract';

const BUILT_IN_PLANS = builtInPlanTable();

let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(() => server.stop());
const closeAfterEach = useCloseAfterEach();

/** A client of the emptied server and the stores over it; the client is closed after the test, pass or fail. */
async function freshStores(clock: () => number): Promise<{ redis: Redis; stores: Stores }> {
  const redis = closeAfterEach(new Redis(server.url), disconnectRedis);
  await redis.flushall();
  return { redis, stores: createRedisStores(redis, { clock }) };
}

describeStoreContract('redis', async (clock) => {
  const { redis, stores } = await freshStores(clock);
  return { stores, close: async () => void (await redis.quit()) };
});

describe('redis layout', () => {
  it("when accounts, keys and calls are made, then every name of an account's data carries its hash tag, and only counters expire", async () => {
    const now = Date.parse('2026-03-15T12:00:00Z');
    const { redis, stores: { keyStore, accountStore, quotaStore } } = await freshStores(() => now);
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
      ...[paid.key, play.key, second.key].map((secret) => redisKeys.keyPrefix(keyHints(secret).prefix)),
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
    // Outside any account: the listing, the emails and the prefix index (each its own key, found by name).
    for (const name of [...durable, ...counters].filter((n) => n !== redisKeys.accountIndex() && !n.startsWith('gw:email:') && !n.startsWith('gw:keyprefix:'))) {
      expect(name).toMatch(/^gw:\{acc_[0-9a-f]{24}\}:/);
      expect([a, b]).toContain(/\{(acc_[0-9a-f]{24})\}/.exec(name)![1]);
    }
  });

  it("when a key keeps calling, then its second log's TTL is renewed by the calls that open a run or a ten-second bucket's first second, and by no other", async () => {
    let now = Date.parse('2026-03-15T12:00:03.500Z');
    const { redis, stores: { keyStore, quotaStore } } = await freshStores(() => now);
    const made = await keyStore.create({ owner: 'a@example.com', subscriptions: { token: { plan: 'free', status: 'active' } } });
    const parsed = parseApiKey(made.key);
    if (!parsed.ok) throw new Error('a generated key did not parse');
    const log = redisKeys.secondLog(parsed.accountId, 'token');
    // Calls under the free plan's 3 a second, 3.5 s into a ten-second bucket: 900 ms apart, then
    // 500 ms apart across the next bucket's start (10.0 s and 10.5 s both renew: a rule keyed to
    // the oldest entry's bucket would renew only the first), one at 20.949 s (the window is a whole
    // second, not less), a pause of 1.5 s that ends the run, then more.
    const steps = [...Array<number>(6).fill(900), 600, 500, 500, 500, ...Array<number>(9).fill(900), 850, 999, 1_500, ...Array<number>(15).fill(900)];
    const calledAt: number[] = [];
    const renewedAt: number[] = [];
    const expected: number[] = [];
    for (const step of steps) {
      // An hour's TTL marks the log: a call that renews it sets the script's minute instead.
      if (await redis.exists(log)) await redis.pexpire(log, 3_600_000);
      const admission = await quotaStore.admit({ accountId: parsed.accountId, keyHash: parsed.hash, api: 'token', apiPlans: BUILT_IN_PLANS.token!, nowMs: now });
      expect(admission.outcome).toBe('admitted');
      const ttl = await redis.pttl(log);
      expect(ttl).toBeGreaterThan(0);
      if (ttl <= 60_000) renewedAt.push(now);
      const previous = calledAt.at(-1);
      if (previous === undefined || now - previous >= 1_000 || now % 10_000 < 1_000) expected.push(now);
      calledAt.push(now);
      now += step;
    }
    expect(renewedAt).toEqual(expected);
    expect(renewedAt.length).toBeLessThan(steps.length / 4);
    // No call of the run is more than ten seconds after the log's last renewal.
    let last = calledAt[0]!;
    for (const t of calledAt) {
      if (renewedAt.includes(t)) last = t;
      expect(t - last).toBeLessThan(10_000);
    }
  });

  it('when history is recorded and changes audited, then the server totals are in one slot with a TTL, and the audit streams keep their entries without one', async () => {
    const now = Date.parse('2026-03-15T12:00:00Z');
    const { redis, stores: { accountStore, auditLog } } = await freshStores(() => now);
    const account = await accountStore.createAccount({ name: 'a' });
    await accountStore.record([{ accountId: account.id, api: 'token', dayId: '2026-03-15', outcome: '2xx', count: 2 }], new Map(), 'b1');
    await auditLog.append({ account_id: account.id, actor: { type: 'system', id: 'test', via: 'test' }, from: null, action: 'account.create', target: null, details: {} });
    for (const name of [redisKeys.serverDay('2026-03-15'), redisKeys.topAccounts('2026-03'), redisKeys.statsBatch('b1:0')]) {
      expect([name, await redis.ttl(name)]).toEqual([name, expect.any(Number)]);
      expect(await redis.ttl(name)).toBeGreaterThan(0);
      expect(name).toMatch(/^gw:\{stats\}:/);
    }
    for (const name of [redisKeys.audit(), redisKeys.accountAudit(account.id)]) expect([name, await redis.type(name), await redis.ttl(name)]).toEqual([name, 'stream', -1]);
  });

  it('when keys were made before the prefix index, then indexing at start finds them, once', async () => {
    const { redis, stores: { accountStore } } = await freshStores(Date.now);
    const account = await accountStore.createAccount({ name: 'a' });
    const key = (await accountStore.createKey(account.id, { name: 'k' }))!;
    // As an older gateway left them: no index at all.
    await redis.del(redisKeys.keyPrefix(key.record.prefix));
    expect(await accountStore.findKeysByPrefix(key.record.prefix, 10)).toEqual([]);
    expect(await indexKeyPrefixes(redis)).toBe(1);
    expect(await accountStore.findKeysByPrefix(key.record.prefix, 10)).toEqual([key.record]);
    expect(await indexKeyPrefixes(redis)).toBe(0);
  });

  it('when keys with an expiry were made before the expiry index, then indexing at start finds them, once, and the expiring ones are found', async () => {
    const nowMs = Date.now();
    const { redis, stores: { accountStore } } = await freshStores(() => nowMs);
    const account = await accountStore.createAccount({ name: 'a' });
    const expiring = (await accountStore.createKey(account.id, { name: 'expiring', expiresAtMs: nowMs + 86_400_000 }))!;
    await accountStore.createKey(account.id, { name: 'never' });
    // As an older gateway left them: no index at all.
    await redis.del(redisKeys.keyExpiries());
    expect(await accountStore.keysExpiringBetween(nowMs, nowMs + 7 * 86_400_000)).toEqual([]);
    expect(await indexKeyExpiries(redis)).toBe(1);
    expect(await accountStore.keysExpiringBetween(nowMs, nowMs + 7 * 86_400_000)).toEqual([{ key: expiring.record, account: await accountStore.getAccount(account.id) }]);
    expect(await indexKeyExpiries(redis)).toBe(0);
  });

  it('when more keys expire in the window than a page holds, then every one is found, and deleting their account takes them out of the index', async () => {
    const nowMs = Date.now();
    const { redis, stores: { accountStore } } = await freshStores(() => nowMs);
    const account = await accountStore.createAccount({ name: 'many' });
    const made = new Set<string>();
    for (let i = 0; i < 450; i++) made.add((await accountStore.createKey(account.id, { name: `k${i}`, expiresAtMs: nowMs + 1_000 + (i % 3) }))!.record.id);
    const found = await accountStore.keysExpiringBetween(nowMs, nowMs + 86_400_000);
    expect(new Set(found.map(({ key }) => key.id))).toEqual(made);
    expect(found).toHaveLength(450);
    await accountStore.deleteAccount(account.id);
    expect(await redis.zcard(redisKeys.keyExpiries())).toBe(0);
  });

  it('when a key was written before teams, then it reads with no maker; one made by a person stores their id and address in its hash', async () => {
    const { redis, stores: { accountStore } } = await freshStores(() => Date.parse('2026-03-15T12:00:00Z'));
    const account = await accountStore.createAccount({ email: 'old@example.com' });
    const old = (await accountStore.createKey(account.id, { name: 'old' }))!;
    const made = (await accountStore.createKey(account.id, { name: 'new', createdBy: { person_id: 'per_0123456789abcdef01234567', email: 'dev@example.com' } }))!;
    // What the release before teams wrote: the same hash without the two fields.
    expect(await redis.hexists(redisKeys.key(account.id, old.record.id), 'created_by')).toBe(0);
    expect(await redis.hmget(redisKeys.key(account.id, made.record.id), 'created_by', 'created_by_email')).toEqual(['per_0123456789abcdef01234567', 'dev@example.com']);
    expect(await accountStore.getKey(old.record.id)).toEqual({ ...old.record, created_by: null });
    expect((await accountStore.findKey(old.key))?.key.created_by).toBeNull();
  });
});
