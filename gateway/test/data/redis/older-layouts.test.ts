import Redis from 'ioredis';
import type { Cluster } from 'ioredis';
import { createLogger } from '@tollgate/envelope';
import { KeyLimitError } from '../../../src/data/account-store';
import { createClusterClient, whenReady } from '../../../src/data/redis/redis-client';
import type { RedisClient } from '../../../src/data/redis/redis-client';
import { createRedisStores } from '../../../src/data/redis/redis-stores';
import { redisKeys } from '../../../src/data/redis/redis-keys';
import type { Stores } from '../../../src/data/stores';
import { parseApiKey } from '../../../src/domain/api-key';
import { builtInPlanTable } from '../../../src/config';
import { startRedisCluster } from '../../support/redis-cluster';
import type { RedisCluster } from '../../support/redis-cluster';
import { startRedisServer } from '../../support/redis-server';
import type { RedisServer } from '../../support/redis-server';

const BUILT_IN_PLANS = builtInPlanTable();

// A secret's entry is now the field of its account's hash named by the secret's hash (64 hex
// digits). Two older layouts are still read and moved: fields `s:<hash>` of the account (2026-11,
// the release before this one) and, before that, a hash of their own per account
// (`gw:{acc}:secrets`, field = the secret's hash). Data of an old layout is made here as the old
// gateway left it: by moving the fields of new secrets back to where it kept them.

jest.setTimeout(60_000);

const now = Date.parse('2026-03-15T12:00:00Z');
const SECRET = /^[0-9a-f]{64}$/;

interface Layout {
  name: string;
  /** Moves every secret of an account (as this release writes them) to where this layout kept them. */
  write(redis: RedisClient, accountId: string): Promise<void>;
  /** How many secrets of the account are still in this layout. */
  count(redis: RedisClient, accountId: string): Promise<number>;
}

const secretFields = async (redis: RedisClient, accountId: string): Promise<string[]> => (await redis.hkeys(redisKeys.account(accountId))).filter((field) => SECRET.test(field));

const layouts: Layout[] = [
  {
    name: 'fields s:<hash> of the account (2026-11)',
    write: async (redis, accountId) => {
      const account = redisKeys.account(accountId);
      for (const field of await secretFields(redis, accountId)) {
        await redis.hset(account, `s:${field}`, (await redis.hget(account, field))!);
        await redis.hdel(account, field);
      }
    },
    count: async (redis, accountId) => (await redis.hkeys(redisKeys.account(accountId))).filter((field) => field.startsWith('s:')).length,
  },
  {
    name: 'a hash of their own (before 2026-11)',
    write: async (redis, accountId) => {
      const account = redisKeys.account(accountId);
      for (const field of await secretFields(redis, accountId)) {
        await redis.hset(redisKeys.legacy.secrets(accountId), field, (await redis.hget(account, field))!);
        await redis.hdel(account, field);
      }
    },
    count: (redis, accountId) => redis.hlen(redisKeys.legacy.secrets(accountId)),
  },
];

interface Engine {
  name: string;
  start(): Promise<{ client(): Promise<RedisClient>; flush(client: RedisClient): Promise<unknown>; stop(): Promise<void> }>;
}

const engines: Engine[] = [
  {
    name: 'one Redis',
    start: async () => {
      const server: RedisServer = await startRedisServer();
      return { client: async () => new Redis(server.url), flush: (client) => (client as Redis).flushall(), stop: () => server.stop() };
    },
  },
  {
    name: 'a Redis Cluster',
    start: async () => {
      const cluster: RedisCluster = await startRedisCluster({ replicasPerMaster: 0 });
      const logger = createLogger({ service: 'test', level: 'silent' });
      return {
        client: async () => {
          const client = createClusterClient(cluster.seeds.split(',').map((s) => ({ host: '127.0.0.1', port: Number(s.split(':')[1]) })), { logger });
          if (!(await whenReady(client, 10_000))) {
            // Left connecting, it would retry even after the cluster stopped and keep jest from exiting.
            client.disconnect();
            throw new Error('the cluster client did not connect');
          }
          return client;
        },
        flush: (client) => Promise.all((client as Cluster).nodes('master').map((m) => m.flushall())),
        stop: () => cluster.stop(),
      };
    },
  },
];

describe.each(engines)('on $name', (engine) => {
  let started: Awaited<ReturnType<Engine['start']>>;
  let redis: RedisClient;
  let stores: Stores;

  beforeAll(async () => {
    started = await engine.start();
  });
  afterAll(() => started.stop());
  // A client per test: the stores add their listeners to the client they are given.
  beforeEach(async () => {
    redis = await started.client();
    await started.flush(redis);
    stores = createRedisStores(redis, { clock: () => now });
  });
  afterEach(() => redis.quit());

  /** Admits a secret, or (`otherHash`) a secret of its account that hashes to another value. */
  function admit(secret: string, otherHash = false) {
    const parsed = parseApiKey(secret);
    if (!parsed.ok) throw new Error('a generated key did not parse');
    const keyHash = otherHash ? parsed.hash.replace(/^./, (c) => (c === '0' ? '1' : '0')) : parsed.hash;
    return stores.quotaStore.admit({ accountId: parsed.accountId, keyHash, api: 'token', apiPlans: BUILT_IN_PLANS.token!, nowMs: now });
  }

  it('when an account of three keys is made, then its hash is a listpack (each secret a field of 64 bytes)', async () => {
    const made = await stores.keyStore.create({ owner: 'new@example.com', subscriptions: { token: { plan: 'free', status: 'active' } } });
    const accountId = made.record.account_id;
    for (const name of ['second', 'third']) await stores.accountStore.createKey(accountId, { name });
    expect(await secretFields(redis, accountId)).toHaveLength(3);
    expect(await redis.object('ENCODING', redisKeys.account(accountId))).toBe('listpack');
  });

  describe.each(layouts)('secrets kept as $name', (layout) => {
    /** An account of two keys on a plan, its secrets moved back into the old layout. */
    async function oldLayout(): Promise<{ accountId: string; keys: { id: string; secret: string }[] }> {
      const made = await stores.keyStore.create({ owner: 'old@example.com', subscriptions: { token: { plan: 'free', status: 'active' } } });
      const accountId = made.record.account_id;
      const second = (await stores.accountStore.createKey(accountId, { name: 'second' }))!;
      await layout.write(redis, accountId);
      expect(await layout.count(redis, accountId)).toBe(2);
      expect(await secretFields(redis, accountId)).toEqual([]);
      return { accountId, keys: [{ id: made.record.id, secret: made.key }, { id: second.record.id, secret: second.key }] };
    }

    /** Every secret of the account is in this release's layout, none left in the old one. */
    async function movedAll(accountId: string, secrets: number): Promise<void> {
      expect(await layout.count(redis, accountId)).toBe(0);
      expect(await secretFields(redis, accountId)).toHaveLength(secrets);
    }

    it('when a key of the old layout is called, then it is admitted and charged once, and every secret of its account moves', async () => {
      const { accountId, keys } = await oldLayout();
      const admission = await admit(keys[0]!.secret);
      expect(admission).toMatchObject({ outcome: 'admitted', keyId: keys[0]!.id, used: 1 });
      await movedAll(accountId, 2);
      expect(await admit(keys[1]!.secret)).toMatchObject({ outcome: 'admitted', keyId: keys[1]!.id, used: 2 });
      expect(await stores.quotaStore.usage(accountId, 'token', now)).toEqual({ month: 2, day: 0 });
    });

    it('when an unknown secret is presented for an account of the old layout, then it is refused and nothing moves', async () => {
      const { accountId, keys } = await oldLayout();
      expect((await admit(keys[0]!.secret, true)).outcome).toBe('unknown_key');
      expect(await layout.count(redis, accountId)).toBe(2);
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
      await movedAll(accountId, 3);
      expect((await admit(keys[0]!.secret)).outcome).toBe('admitted');
      expect((await admit(rolled.key)).outcome).toBe('admitted');
      expect((await admit(keys[1]!.secret)).outcome).toBe('admitted');
      await stores.accountStore.endGrace(keys[0]!.id);
      expect((await admit(keys[0]!.secret)).outcome).toBe('rolled');
    });

    it('when a key of the old layout is revoked, then it is refused as revoked and the other key still works', async () => {
      const { accountId, keys } = await oldLayout();
      await stores.accountStore.revokeKey(keys[1]!.id);
      await movedAll(accountId, 2);
      expect((await admit(keys[1]!.secret)).outcome).toBe('revoked');
      expect((await admit(keys[0]!.secret)).outcome).toBe('admitted');
    });

    it('when the grace of a key of the old layout is ended, then its previous secret is refused as rolled', async () => {
      const { accountId, keys } = await oldLayout();
      const rolled = (await stores.accountStore.rollKey(keys[0]!.id, 60_000))!;
      await layout.write(redis, accountId);
      await stores.accountStore.endGrace(keys[0]!.id);
      await movedAll(accountId, 3);
      expect((await admit(keys[0]!.secret)).outcome).toBe('rolled');
      expect((await admit(rolled.key)).outcome).toBe('admitted');
    });

    it('when a key is made in an account of the old layout at its cap of live keys, then the old secrets count and it is refused', async () => {
      const { accountId } = await oldLayout();
      await expect(stores.accountStore.createKey(accountId, { name: 'third', maxLive: 2 })).rejects.toBeInstanceOf(KeyLimitError);
      const third = (await stores.accountStore.createKey(accountId, { name: 'third', maxLive: 3 }))!;
      await movedAll(accountId, 3);
      expect((await admit(third.key)).outcome).toBe('admitted');
    });
  });
});
