import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import Redis from 'ioredis';
import type { HistoryCount } from '../src/data/account-store';
import { createRedisStores } from '../src/data/redis/redis-stores';
import { redisKeys } from '../src/data/redis/redis-keys';
import { openSqliteStores } from '../src/data/sqlite/sqlite-stores';
import { usageFields } from '../src/data/usage-breakdown';
import type { UsageDetail } from '../src/data/usage-breakdown';
import type { Stores } from '../src/data/stores';
import { startRedisServer } from '../test/support/redis-server';

/**
 * Bytes an account's day of history takes with its details (per key, per endpoint, latency
 * buckets) and without: Redis `MEMORY USAGE` of the day's hash, and in the SQLite file the row's
 * name and counts. The history alone; a typical day (3 keys, 5 endpoints, 8 latency buckets, some
 * errors); the most a day holds at the portal's live-key limit (every endpoint of the three
 * services and every bucket, every one with errors), and with as many revoked keys calling too.
 *
 *   node --conditions=development --import tsx bench/usage-detail-bytes.ts
 */
const DAY = '2026-03-10';
const NOW = Date.parse(`${DAY}T12:00:00Z`);
// The three services' documented routes (services/*/src/routes: 13 paths), plus each API's `other`.
const ENDPOINTS = [
  ['burger', '/v1/country'],
  ['burger', '/v1/extremes'],
  ['burger', '/v1/index'],
  ['burger', '/v1/meta'],
  ['burger', 'other'],
  ['token', '/v1/change'],
  ['token', '/v1/chart'],
  ['token', '/v1/historical'],
  ['token', '/v1/meta'],
  ['token', '/v1/price'],
  ['token', 'other'],
  ['logs', '/v1/chains'],
  ['logs', '/v1/logs'],
  ['logs', '/v1/meta'],
  ['logs', '/v1/transfers'],
  ['logs', 'other'],
] as const;

interface Shape {
  name: string;
  keys: number;
  endpoints: number;
  buckets: number;
  /** Whether each key and endpoint has errors too. */
  errors: boolean | 'some';
}
const SHAPES: Shape[] = [
  { name: 'history alone (3 APIs × 2 outcomes)', keys: 0, endpoints: 0, buckets: 0, errors: false },
  { name: 'typical: 3 keys, 5 endpoints, 8 latency buckets, errors on 1 key and 2 endpoints', keys: 3, endpoints: 5, buckets: 8, errors: 'some' },
  { name: 'the live-key limit: 20 keys, 16 endpoints, 24 buckets, errors everywhere', keys: 20, endpoints: ENDPOINTS.length, buckets: 24, errors: true },
  { name: 'and 20 revoked keys that called that day too: 40 keys', keys: 40, endpoints: ENDPOINTS.length, buckets: 24, errors: true },
];

function dayOf(accountId: string, keyIds: string[], shape: Shape): { counts: HistoryCount[]; details: UsageDetail[] } {
  const counts: HistoryCount[] = ['burger', 'token', 'logs'].flatMap((api) => (['2xx', '429'] as const).map((outcome) => ({ accountId, api, dayId: DAY, outcome, count: 12_345 })));
  const details: UsageDetail[] = [];
  const add = (field: string, count: number): void => void details.push({ accountId, dayId: DAY, field, count });
  keyIds.slice(0, shape.keys).forEach((keyId, i) => {
    add(usageFields.keyCalls(keyId), 4_321);
    if (shape.errors === true || (shape.errors === 'some' && i === 0)) add(usageFields.keyErrors(keyId), 21);
  });
  ENDPOINTS.slice(0, shape.endpoints).forEach(([api, route], i) => {
    add(usageFields.endpointCalls(api, route), 2_345);
    if (shape.errors === true || (shape.errors === 'some' && i < 2)) add(usageFields.endpointErrors(api, route), 12);
  });
  for (let b = 0; b < shape.buckets; b++) add(usageFields.latency(b), 1_234);
  return { counts, details };
}

async function measureShapes(stores: Stores, bytesOf: (accountId: string) => Promise<number>): Promise<number[]> {
  const sizes: number[] = [];
  for (const [i, shape] of SHAPES.entries()) {
    const account = await stores.accountStore.createAccount({ name: `bytes-${i}` });
    const keyIds: string[] = [];
    for (let k = 0; k < shape.keys; k++) keyIds.push((await stores.accountStore.createKey(account.id, { name: `key ${k}` }))!.record.id);
    const { counts, details } = dayOf(account.id, keyIds, shape);
    await stores.accountStore.record(counts, new Map(), `bytes-${i}`, details);
    sizes.push(await bytesOf(account.id));
  }
  return sizes;
}

async function main(): Promise<void> {
  const server = await startRedisServer();
  const redis = new Redis(server.url);
  const dir = mkdtempSync(path.join(tmpdir(), 'tollgate-detail-bytes-'));
  try {
    const inRedis = await measureShapes(createRedisStores(redis, { clock: () => NOW }), async (accountId) => Number(await redis.call('MEMORY', 'USAGE', redisKeys.history(accountId, DAY), 'SAMPLES', '0')));
    const file = path.join(dir, 'tollgate.db');
    const sqlite = openSqliteStores({ path: file, clock: () => NOW });
    // The rows are read once the file is closed (its writer holds it while open).
    const accounts: string[] = [];
    await measureShapes(sqlite.stores, async (accountId) => accounts.push(accountId));
    sqlite.close();
    const db = new Database(file, { readonly: true });
    const inSqlite = accounts.map((accountId) => (db.prepare('SELECT length(name) + length(counts) + 8 AS bytes FROM history WHERE name = ?').get(`${accountId}|${DAY}`) as { bytes: number }).bytes);
    db.close();
    console.log('| day of one account | Redis `MEMORY USAGE` | SQLite row (name, counts JSON, expiry) |');
    console.log('| --- | --- | --- |');
    SHAPES.forEach((shape, i) => console.log(`| ${shape.name} | ${inRedis[i]} B | ${inSqlite[i]} B |`));
  } finally {
    await redis.quit();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
