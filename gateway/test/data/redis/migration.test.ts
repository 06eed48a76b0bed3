import { readFileSync } from 'node:fs';
import Redis from 'ioredis';
import request from 'supertest';
import { validateResponse } from '@tollgate/envelope';
import { migrateLegacyKeys } from '../../../src/data/redis/legacy-migration';
import { redisKeys } from '../../../src/data/redis/redis-keys';
import { ADMIN_ROUTES } from '../../../src/admin/admin-routes';
import { captureKeyspace } from '../../support/capture-legacy-redis';
import type { CapturedKey, LegacyKey, LegacyRedisFixture } from '../../support/capture-legacy-redis';
import { startEchoUpstream } from '../../support/echo-upstream';
import type { EchoUpstream } from '../../support/echo-upstream';
import { ADMIN_TOKEN, TEST_PLANS, buildGateway } from '../../support/gateway-fixture';
import type { GatewayFixture } from '../../support/gateway-fixture';
import { startRedisServer } from '../../support/redis-server';
import type { RedisServer } from '../../support/redis-server';

jest.setTimeout(30_000);

// Made by the gateway before accounts (commit d7aa4a1): see test/support/capture-legacy-redis.ts.
const fixture = JSON.parse(readFileSync(`${__dirname}/../../fixtures/legacy-redis.json`, 'utf8')) as LegacyRedisFixture;
const CAPTURED_AT = Date.parse(fixture.captured_at);
const APIS = Object.keys(TEST_PLANS);
function legacyKey(label: string): LegacyKey {
  const k = fixture.keys[label];
  if (!k) throw new Error(`the fixture has no key ${label}`);
  return k;
}
const [ada, bob, ops, player, adaAgain, mallory] = ['ada', 'bob', 'ops', 'player', 'ada_again', 'mallory'].map(legacyKey) as [LegacyKey, LegacyKey, LegacyKey, LegacyKey, LegacyKey, LegacyKey];
const auth = { Authorization: `Bearer ${ADMIN_TOKEN}` };
const accountOf = (k: LegacyKey): string => `acc_${k.id.slice(4)}`;

/** Writes the captured keyspace back, each key with the time it had left at capture. */
async function restore(redis: Redis, keys: readonly CapturedKey[]): Promise<void> {
  const pipeline = redis.pipeline();
  for (const { name, type, value, pttl } of keys) {
    if (type === 'string') pipeline.set(name, value as string);
    else if (type === 'hash') pipeline.hset(name, value as Record<string, string>);
    else if (type === 'set') pipeline.sadd(name, ...(value as string[]));
    else pipeline.zadd(name, ...(value as [string, string][]).flatMap(([member, score]) => [score, member]));
    if (pttl > 0) pipeline.pexpire(name, pttl);
  }
  await pipeline.exec();
}

/** The keyspace without times to live (they run down between two readings). */
const contents = async (redis: Redis): Promise<Omit<CapturedKey, 'pttl'>[]> => (await captureKeyspace(redis)).map(({ pttl: _pttl, ...rest }) => rest);

let redisServer: RedisServer;
let upstream: EchoUpstream;
beforeAll(async () => {
  [redisServer, upstream] = await Promise.all([startRedisServer(), startEchoUpstream()]);
});
afterAll(async () => {
  await Promise.all([redisServer.stop(), upstream.close()]);
});

describe('the fixture', () => {
  it('when read, then it holds the old layout: one record per key, the old index, and this month’s counters', () => {
    const names = fixture.redis.map((k) => k.name);
    expect(names).toContain('gw:keys');
    for (const k of Object.values(fixture.keys)) expect(names).toContain(`gw:{${k.id}}:key`);
    expect(names).toContain(`gw:{${ada.id}}:month:token:2026-03`);
    expect(names).toContain(`gw:{${player.id}}:day:token:2026-03-20`);
    expect(names.some((n) => n.startsWith('gw:{acc_'))).toBe(false);
  });
});

describe.each(['at start', 'lazily, on first use'] as const)('keys made before accounts, migrated %s', (mode) => {
  let gw: GatewayFixture;
  let redis: Redis;
  beforeEach(async () => {
    gw = await buildGateway({ upstream: upstream.url, redisUrl: redisServer.url, start: CAPTURED_AT });
    redis = new Redis(redisServer.url);
    // After buildGateway, which empties Redis.
    await restore(redis, fixture.redis);
    if (mode === 'at start') expect(await migrateLegacyKeys(redis, gw.clock.now(), APIS)).toBe(6);
    upstream.seen.length = 0;
  });
  afterEach(async () => {
    await redis.quit();
    await gw.close();
  });

  const call = (k: LegacyKey, api: string) => request(gw.app).get(`/${api}/v1/anything`).set('x-tollgate-key', k.secret);
  const used = async (k: LegacyKey, api: string): Promise<number | undefined> => {
    const res = await request(gw.app).get(`/admin/v1/keys/${k.id}/usage`).set(auth);
    expect(res.status).toBe(200);
    expect(validateResponse(ADMIN_ROUTES.usage, res.status, res.body)).toEqual([]);
    return (res.body.data.apis as { api: string; used: number }[]).find((line) => line.api === api)?.used;
  };

  it.each<[string, LegacyKey, string, number, string | undefined]>([
    ['ada (token free, at its quota)', ada, 'token', 429, undefined],
    ['bob (token pro)', bob, 'token', 200, 'pro'],
    ['bob (burger free)', bob, 'burger', 200, 'free'],
    ['ops team (burger free)', ops, 'burger', 200, 'free'],
    ['player (token playground)', player, 'token', 200, 'free'],
    ['ada again (token slow, inactive: playground)', adaAgain, 'token', 200, 'free'],
    ['mallory (revoked)', mallory, 'token', 401, undefined],
  ])('when the key of %s calls, then it is answered as before, on its subscription, as its own account', async (_case, k, api, status, plan) => {
    const res = await call(k, api);
    expect(res.status).toBe(status);
    if (plan) expect(upstream.seen.at(-1)?.headers).toMatchObject({ 'x-tollgate-user': accountOf(k), 'x-tollgate-subscription': plan });
    else expect(upstream.seen).toHaveLength(0);
  });

  it("when keys call, then this month's and today's counts went on from where they were: a key at its quota stays there", async () => {
    const quota = await call(ada, 'token');
    expect(quota.status).toBe(429);
    expect(quota.body.message).toMatch(/^Your token free plan's 5 calls for this month are used up/);
    expect(await used(ada, 'token')).toBe(5);
    // 4 of 10 playground calls used today: 6 more, then 402.
    const statuses = [];
    for (let i = 0; i < 8; i++) statuses.push((await call(player, 'token')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 402, 402]);
    expect(await used(player, 'token')).toBe(10);
    expect((await call(bob, 'token')).status).toBe(200);
    expect(await used(bob, 'token')).toBe(bob.month.token! + 1);
    expect(await used(bob, 'burger')).toBe(bob.month.burger);
    expect((await call(ops, 'burger')).status).toBe(200);
    expect(await used(ops, 'burger')).toBe(2);
    // The counters keep the time they had left.
    const oldTtl = fixture.redis.find((k) => k.name === `gw:{${ada.id}}:month:token:2026-03`)!.pttl;
    expect(Math.abs((await redis.pttl(redisKeys.month(accountOf(ada), 'token', '2026-03'))) - oldTtl)).toBeLessThan(30_000);
  });

  it('when the revoked key calls, then 401 revoked, and the record keeps its revocation time', async () => {
    const res = await call(mallory, 'token');
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('this API key has been revoked');
    const record = await request(gw.app).get(`/admin/v1/keys/${mallory.id}`).set(auth);
    expect(record.body.data).toMatchObject({ id: mallory.id, revoked_at: mallory.revoked_at });
    expect(await used(mallory, 'token')).toBe(1);
  });

  it('when the old ids are read on the admin routes (before any call), then each answers with its owner, subscriptions and usage', async () => {
    for (const k of Object.values(fixture.keys)) {
      const res = await request(gw.app).get(`/admin/v1/keys/${k.id}`).set(auth);
      expect(res.status).toBe(200);
      expect(validateResponse(ADMIN_ROUTES.get, res.status, res.body)).toEqual([]);
      const created_at = fixture.redis.find((r) => r.name === `gw:{${k.id}}:key`)!.value as Record<string, string>;
      expect(res.body.data).toEqual({ id: k.id, account_id: accountOf(k), owner: expect.any(String), created_at: created_at.created_at, revoked_at: k.revoked_at, subscriptions: k.subscriptions });
      expect((await request(gw.app).get(`/admin/v1/keys/${k.id}/usage`).set(auth)).status).toBe(200);
    }
    expect(await used(bob, 'burger')).toBe(bob.month.burger);
  });

  it('when an old key reads its own account on the dashboard before it ever called, then it is answered', async () => {
    const res = await request(gw.app).get('/dashboard/v1/account').set('x-tollgate-key', bob.secret);
    expect(res.status).toBe(200);
    expect(res.body.data.account.id).toBe(accountOf(bob));
    // Keys made before proofs existed: their accounts count as proven.
    expect(res.body.data.account.email_verified).toBe(true);
  });

  it('when an old key is revoked by its old id before it ever called, then its next call is refused as revoked', async () => {
    const revoked = await request(gw.app).delete(`/admin/v1/keys/${bob.id}`).set(auth);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revoked_at).toBe(new Date(gw.clock.now()).toISOString());
    const res = await call(bob, 'token');
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('this API key has been revoked');
    expect(upstream.seen).toHaveLength(0);
  });

  it('when migrated, then an owner that is no address names its account (email null), an address is the email, and a second holder of it gets none', async () => {
    if (mode !== 'at start') for (const k of Object.values(fixture.keys)) await call(k, Object.keys(k.subscriptions)[0] ?? 'token');
    const account = (k: LegacyKey) => gw.stores.accountStore.getAccount(accountOf(k));
    expect(await account(ops)).toMatchObject({ id: accountOf(ops), email: null, name: 'ops team', status: 'active', subscriptions: ops.subscriptions });
    expect(await account(bob)).toMatchObject({ email: 'bob@example.com', name: 'bob@example.com', subscriptions: bob.subscriptions });
    expect(await account(mallory)).toMatchObject({ email: 'mallory@example.com', status: 'active' });
    const adas = [await account(ada), await account(adaAgain)];
    expect(adas.map((a) => a?.email).sort()).toEqual(['ada@example.com', null]);
    expect(await gw.stores.accountStore.findAccountByEmail('ada@example.com')).toEqual(adas.find((a) => a?.email));
    expect(await gw.stores.accountStore.getKey(ada.id)).toMatchObject({ id: ada.id, account_id: accountOf(ada), name: 'default', revoked_at: null });
    expect(await gw.stores.accountStore.getKey(mallory.id)).toMatchObject({ revoked_at: mallory.revoked_at });
    expect((await gw.stores.accountStore.listKeys(accountOf(bob), { limit: 10 }))?.items.map((k) => k.id)).toEqual([bob.id]);
    expect((await gw.stores.accountStore.listAccounts({ limit: 100 })).items.map((a) => a.id).sort()).toEqual(Object.values(fixture.keys).map(accountOf).sort());
  });

  it('when the migration runs again, twice at once, then nothing changes: no count doubled, no account made twice', async () => {
    if (mode !== 'at start') for (const k of Object.values(fixture.keys)) await call(k, Object.keys(k.subscriptions)[0] ?? 'token');
    const before = await contents(redis);
    expect(await migrateLegacyKeys(redis, gw.clock.now(), APIS)).toBe(6);
    await Promise.all([migrateLegacyKeys(redis, gw.clock.now(), APIS), migrateLegacyKeys(redis, gw.clock.now(), APIS)]);
    expect(await contents(redis)).toEqual(before);
  });

  it('when many calls of a key arrive at once, then it is migrated once and each call counts once', async () => {
    const statuses = await Promise.all(Array.from({ length: 10 }, () => call(player, 'token').then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(6);
    expect(statuses.filter((s) => s === 402)).toHaveLength(4);
    const bobs = await Promise.all(Array.from({ length: 5 }, () => call(bob, 'token').then((r) => r.status)));
    expect(bobs).toEqual([200, 200, 200, 200, 200]);
    expect(await used(bob, 'token')).toBe(bob.month.token! + 5);
    expect(await redis.zcard(redisKeys.accountIndex())).toBe(mode === 'at start' ? 6 : 2);
    expect((await redis.hkeys(redisKeys.account(accountOf(bob)))).filter((field) => /^[0-9a-f]{64}$/.test(field))).toHaveLength(1);
  });
});

describe('two migrations at once from the old layout', () => {
  it('when two gateways start together, then the result is the same as one migration', async () => {
    const redis = new Redis(redisServer.url);
    try {
      await redis.flushall();
      await restore(redis, fixture.redis);
      await migrateLegacyKeys(redis, CAPTURED_AT, APIS);
      const once = await contents(redis);
      await redis.flushall();
      await restore(redis, fixture.redis);
      await Promise.all([migrateLegacyKeys(redis, CAPTURED_AT, APIS), migrateLegacyKeys(redis, CAPTURED_AT, APIS)]);
      expect(await contents(redis)).toEqual(once);
      expect(await redis.get(redisKeys.month(accountOf(ada), 'token', '2026-03'))).toBe('5');
      expect(await redis.get(redisKeys.day(accountOf(player), 'token', '2026-03-20'))).toBe('4');
    } finally {
      await redis.quit();
    }
  });
});
