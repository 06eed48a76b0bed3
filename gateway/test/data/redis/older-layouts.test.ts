import Redis from 'ioredis';
import { KeyLimitError } from '../../../src/data/account-store';
import { createRedisStores } from '../../../src/data/redis/redis-stores';
import { redisKeys } from '../../../src/data/redis/redis-keys';
import type { Stores } from '../../../src/data/stores';
import { parseApiKey } from '../../../src/domain/api-key';
import { BUILT_IN_PLANS } from '../../../src/domain/plans';
import { startRedisServer } from '../../support/redis-server';
import type { RedisServer } from '../../support/redis-server';

// Until 2026-11 secrets were kept in their own hash per account (`gw:{acc}:secrets`, field = the
// secret's hash); they are now fields `s:<hash>` of the account's hash. Data of the old layout is
// made here as the old gateway left it: by moving the fields back out of the account's hash.

let server: RedisServer;
let redis: Redis;
let stores: Stores;
const now = Date.parse('2026-03-15T12:00:00Z');

beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(() => server.stop());
// A client per test: the stores add their listeners to the client they are given.
beforeEach(async () => {
  redis = new Redis(server.url);
  await redis.flushall();
  stores = createRedisStores(redis, { clock: () => now });
});
afterEach(() => redis.quit());

/** An account of two keys on a plan, its secrets moved back into the old layout. */
async function oldLayout(): Promise<{ accountId: string; keys: { id: string; secret: string }[] }> {
  const made = await stores.keyStore.create({ owner: 'old@example.com', subscriptions: { token: { plan: 'free', status: 'active' } } });
  const accountId = made.record.account_id;
  const second = (await stores.accountStore.createKey(accountId, { name: 'second' }))!;
  const account = redisKeys.account(accountId);
  const fields = await redis.hgetall(account);
  for (const [field, entry] of Object.entries(fields).filter(([field]) => field.startsWith('s:'))) {
    await redis.hset(redisKeys.legacy.secrets(accountId), field.slice(2), entry);
    await redis.hdel(account, field);
  }
  expect(await redis.hlen(redisKeys.legacy.secrets(accountId))).toBe(2);
  return { accountId, keys: [{ id: made.record.id, secret: made.key }, { id: second.record.id, secret: second.key }] };
}

const secretFields = async (accountId: string): Promise<string[]> => (await redis.hkeys(redisKeys.account(accountId))).filter((field) => field.startsWith('s:'));

/** Admits a secret, or (`otherHash`) a secret of its account that hashes to another value. */
function admit(secret: string, otherHash = false) {
  const parsed = parseApiKey(secret);
  if (!parsed.ok) throw new Error('a generated key did not parse');
  const keyHash = otherHash ? parsed.hash.replace(/^./, (c) => (c === '0' ? '1' : '0')) : parsed.hash;
  return stores.quotaStore.admit({ accountId: parsed.accountId, keyHash, api: 'token', apiPlans: BUILT_IN_PLANS.token!, nowMs: now });
}

describe('secrets kept in their own hash (before 2026-11)', () => {
  it('when a key of the old layout is called, then it is admitted and charged once, and every secret of its account moves into the account', async () => {
    const { accountId, keys } = await oldLayout();
    const admission = await admit(keys[0]!.secret);
    expect(admission).toMatchObject({ outcome: 'admitted', keyId: keys[0]!.id, used: 1 });
    expect(await redis.exists(redisKeys.legacy.secrets(accountId))).toBe(0);
    expect(await secretFields(accountId)).toHaveLength(2);
    expect(await admit(keys[1]!.secret)).toMatchObject({ outcome: 'admitted', keyId: keys[1]!.id, used: 2 });
    expect(await stores.quotaStore.usage(accountId, 'token', now)).toEqual({ month: 2, day: 0 });
  });

  it('when an unknown secret is presented for an account of the old layout, then it is refused and nothing moves', async () => {
    const { accountId, keys } = await oldLayout();
    expect((await admit(keys[0]!.secret, true)).outcome).toBe('unknown_key');
    expect(await redis.hlen(redisKeys.legacy.secrets(accountId))).toBe(2);
  });

  it('when a key of the old layout is found by its secret, then it is found, current and previous told apart after a roll', async () => {
    const { keys } = await oldLayout();
    expect(await stores.accountStore.findKey(keys[0]!.secret)).toMatchObject({ key: { id: keys[0]!.id }, secret: 'current' });
    const rolled = (await stores.accountStore.rollKey(keys[0]!.id, 60_000))!;
    expect(await stores.accountStore.findKey(keys[0]!.secret)).toMatchObject({ key: { id: keys[0]!.id }, secret: 'previous' });
    expect(await stores.accountStore.findKey(rolled.key)).toMatchObject({ key: { id: keys[0]!.id }, secret: 'current' });
  });

  it('when a key of the old layout is rolled with a grace, then both its secrets work until the grace is ended, and its other key still works', async () => {
    const { accountId, keys } = await oldLayout();
    const rolled = (await stores.accountStore.rollKey(keys[0]!.id, 60_000))!;
    expect(await redis.exists(redisKeys.legacy.secrets(accountId))).toBe(0);
    expect((await admit(keys[0]!.secret)).outcome).toBe('admitted');
    expect((await admit(rolled.key)).outcome).toBe('admitted');
    expect((await admit(keys[1]!.secret)).outcome).toBe('admitted');
    await stores.accountStore.endGrace(keys[0]!.id);
    expect((await admit(keys[0]!.secret)).outcome).toBe('rolled');
  });

  it('when a key of the old layout is revoked, then it is refused as revoked and the other key still works', async () => {
    const { accountId, keys } = await oldLayout();
    await stores.accountStore.revokeKey(keys[1]!.id);
    expect(await redis.exists(redisKeys.legacy.secrets(accountId))).toBe(0);
    expect((await admit(keys[1]!.secret)).outcome).toBe('revoked');
    expect((await admit(keys[0]!.secret)).outcome).toBe('admitted');
  });

  it('when the grace of a key of the old layout is ended, then its previous secret is refused as rolled', async () => {
    const { keys } = await oldLayout();
    const rolled = (await stores.accountStore.rollKey(keys[0]!.id, 60_000))!;
    await oldLayoutAgain(keys[0]!.secret);
    await stores.accountStore.endGrace(keys[0]!.id);
    expect((await admit(keys[0]!.secret)).outcome).toBe('rolled');
    expect((await admit(rolled.key)).outcome).toBe('admitted');
  });

  it('when a key is made in an account of the old layout at its cap of live keys, then the old secrets count and it is refused', async () => {
    const { accountId } = await oldLayout();
    await expect(stores.accountStore.createKey(accountId, { name: 'third', maxLive: 2 })).rejects.toBeInstanceOf(KeyLimitError);
    const third = (await stores.accountStore.createKey(accountId, { name: 'third', maxLive: 3 }))!;
    expect(await secretFields(accountId)).toHaveLength(3);
    expect((await admit(third.key)).outcome).toBe('admitted');
  });
});

/** Moves the secrets of the account a secret names back into the old layout (after a step that moved them). */
async function oldLayoutAgain(secret: string): Promise<void> {
  const parsed = parseApiKey(secret);
  if (!parsed.ok) throw new Error('a generated key did not parse');
  const account = redisKeys.account(parsed.accountId);
  for (const field of await secretFields(parsed.accountId)) {
    await redis.hset(redisKeys.legacy.secrets(parsed.accountId), field.slice(2), (await redis.hget(account, field))!);
    await redis.hdel(account, field);
  }
}
