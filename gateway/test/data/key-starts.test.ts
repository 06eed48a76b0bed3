import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import Redis from 'ioredis';
import type { Cluster } from 'ioredis';
import { createLogger } from '@tollgate/envelope';
import { createClusterClient, whenReady } from '../../src/data/redis/redis-client';
import type { RedisClient } from '../../src/data/redis/redis-client';
import { createRedisStores } from '../../src/data/redis/redis-stores';
import { redisKeys } from '../../src/data/redis/redis-keys';
import { indexKeyStarts } from '../../src/data/redis/key-indexes';
import { openSqliteStores } from '../../src/data/sqlite/sqlite-stores';
import type { SqliteStores } from '../../src/data/sqlite/sqlite-stores';
import type { Stores } from '../../src/data/stores';
import { keyChecksum, parseApiKey } from '../../src/domain/api-key';
import { BUILT_IN_PLANS } from '../../src/domain/plans';
import { startRedisCluster } from '../support/redis-cluster';
import type { RedisCluster } from '../support/redis-cluster';
import { startRedisServer } from '../support/redis-server';
import type { RedisServer } from '../support/redis-server';

// Issue 40, item 7: a list shows a key by its secret's own start. Keys made before it keep working
// and show theirs too (`tg_` and their account's hex), read from the prefix they stored (6 random
// characters from after the account part), on every engine, without rewriting a record; an operator
// finds them by that start. The data is made here as the release before left it: a key of the old
// layout, its stored prefix and index as that release wrote them.

jest.setTimeout(60_000);

const NOW = Date.parse('2026-11-28T12:00:00Z');
const clock = (): number => NOW;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A key of the layout before issue 40: `tg_`, the account's hex, 30 base62 characters, the checksum. */
let made = 0;
function oldLayoutKey(accountId: string): string {
  made++;
  let body = `tg_${accountId.slice(4)}`;
  for (let i = 0; i < 30; i++) body += BASE62[(made * 7 + i * 13) % 62];
  return body + keyChecksum(body);
}
/** What that release stored as the prefix: `tg_` and the 6 characters after the account part. */
const oldPrefix = (secret: string): string => `tg_${secret.slice(27, 33)}`;

interface Engine {
  name: string;
  /** Stores whose keys are made in the old layout. */
  open(): Promise<Stores>;
  /** Rewrites a key's stored prefix (and, on Redis, its index) as the release before wrote them. */
  asBefore(keyId: string, accountId: string, secret: string): Promise<void>;
  /** Opens the stores as this release starts on that data. */
  reopen(): Promise<Stores>;
  /** The prefix-index sets naming the key. */
  indexedUnder?(keyId: string, names: string[]): Promise<string[]>;
  close(): Promise<void>;
}

function sqliteEngine(): Engine {
  const dir = mkdtempSync(path.join(tmpdir(), 'tollgate-key-starts-'));
  const file = path.join(dir, 'tollgate.db');
  let opened: SqliteStores | undefined;
  return {
    name: 'SQLite',
    async open() {
      opened = openSqliteStores({ path: file, clock, generateKey: oldLayoutKey });
      return opened.stores;
    },
    async asBefore(keyId, _accountId, secret) {
      opened?.close();
      const db = new Database(file);
      db.prepare("UPDATE keys SET record = json_set(record, '$.prefix', ?) WHERE id = ?").run(oldPrefix(secret), keyId);
      db.close();
      opened = undefined;
    },
    async reopen() {
      opened = openSqliteStores({ path: file, clock });
      return opened.stores;
    },
    async close() {
      opened?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function redisEngine(name: string, connect: () => Promise<RedisClient>, flush: (redis: RedisClient) => Promise<void>): Engine {
  let redis: RedisClient;
  return {
    name,
    async open() {
      redis = await connect();
      await flush(redis);
      return createRedisStores(redis, { clock, generateKey: oldLayoutKey });
    },
    async asBefore(keyId, accountId, secret) {
      const stored = await redis.hget(redisKeys.key(accountId, keyId), 'prefix');
      await redis.srem(redisKeys.keyPrefix(stored!), keyId);
      await redis.hset(redisKeys.key(accountId, keyId), 'prefix', oldPrefix(secret));
      await redis.sadd(redisKeys.keyPrefix(oldPrefix(secret)), keyId);
    },
    async reopen() {
      // What openStores runs at start on Redis.
      expect(await indexKeyStarts(redis)).toBeGreaterThan(0);
      expect(await indexKeyStarts(redis)).toBe(0);
      return createRedisStores(redis, { clock });
    },
    async indexedUnder(keyId, names) {
      const found: string[] = [];
      for (const prefix of names) if (await redis.sismember(redisKeys.keyPrefix(prefix), keyId)) found.push(prefix);
      return found;
    },
    async close() {
      await redis.quit();
    },
  };
}

let server: RedisServer;
let redisCluster: RedisCluster;
beforeAll(async () => {
  [server, redisCluster] = await Promise.all([startRedisServer(), startRedisCluster()]);
});
afterAll(async () => {
  await Promise.all([server.stop(), redisCluster.stop()]);
});

const logger = createLogger({ service: 'test', level: 'silent' });
const engines: (() => Engine)[] = [
  sqliteEngine,
  () => redisEngine('Redis', async () => new Redis(server.url), async (redis) => void (await redis.flushall())),
  () =>
    redisEngine(
      'Redis Cluster',
      async () => {
        const cluster = createClusterClient(redisCluster.seeds.split(',').map((s) => ({ host: '127.0.0.1', port: Number(s.split(':')[1]) })), { logger });
        if (!(await whenReady(cluster, 10_000))) throw new Error('the cluster client did not connect');
        return cluster;
      },
      async (cluster) => void (await Promise.all((cluster as Cluster).nodes('master').map((m) => m.flushall()))),
    ),
];

describe.each(engines.map((make) => [make().name, make]))('keys stored before issue 40, on %s', (_name, make) => {
  let engine: Engine;
  beforeEach(() => {
    engine = make();
  });
  afterEach(() => engine.close());

  it('when this release reads them, then each shows its secret’s own start, still admits, is found by that start and by its secret, and a roll gives it a new start', async () => {
    const before = await engine.open();
    const account = await before.accountStore.createAccount({ name: 'old customer' });
    const rolled = (await before.accountStore.createKey(account.id, { name: 'rolled' }))!;
    const kept = (await before.accountStore.createKey(account.id, { name: 'kept' }))!;
    for (const { key, record } of [rolled, kept]) await engine.asBefore(record.id, account.id, key);

    const stores = await engine.reopen();
    const start = `tg_${account.id.slice(4, 10)}`;
    const listed = (await stores.accountStore.listKeys(account.id, { limit: 10 }))!.items;
    expect(listed.map((key) => [key.name, key.prefix, key.last4]).sort()).toEqual([
      ['kept', start, kept.key.slice(-4)],
      ['rolled', start, rolled.key.slice(-4)],
    ]);
    for (const { key } of [rolled, kept]) expect(key.startsWith(start)).toBe(true);
    const parsed = parseApiKey(kept.key);
    if (!parsed.ok) throw new Error('a key of the old layout no longer parses');
    const admission = await stores.quotaStore.admit({ accountId: parsed.accountId, keyHash: parsed.hash, api: 'token', apiPlans: BUILT_IN_PLANS.token!, nowMs: NOW });
    expect(['admitted', 'playground']).toContain(admission.outcome);
    expect((await stores.accountStore.findKey(kept.key))?.key.prefix).toBe(start);
    expect((await stores.accountStore.findKeysByPrefix(start, 10)).map((key) => key.name).sort()).toEqual(['kept', 'rolled']);

    const roll = await stores.accountStore.rollKey(rolled.record.id, 0);
    if (!roll || roll instanceof Error) throw new Error('the roll failed');
    expect(roll.key).toMatch(/^tg_[g-zA-Z][0-9A-Za-z]{6}[0-9a-f]{24}[0-9A-Za-z]{29}$/);
    expect(roll.record.prefix).toBe(roll.key.slice(0, 10));
    expect((await stores.accountStore.findKeysByPrefix(roll.record.prefix, 10)).map((key) => key.id)).toEqual([rolled.record.id]);
    expect((await stores.accountStore.findKeysByPrefix(start, 10)).map((key) => key.name)).toEqual(['kept']);
    // On Redis the index itself: the old key is under its new start alone.
    if (engine.indexedUnder) expect(await engine.indexedUnder(rolled.record.id, [start, oldPrefix(rolled.key), roll.record.prefix])).toEqual([roll.record.prefix]);

    await stores.accountStore.deleteAccount(account.id);
    expect(await stores.accountStore.findKeysByPrefix(start, 10)).toEqual([]);
    if (engine.indexedUnder) expect(await engine.indexedUnder(kept.record.id, [start, oldPrefix(kept.key)])).toEqual([]);
  });
});
