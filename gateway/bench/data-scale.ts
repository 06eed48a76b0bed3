import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import type { HistoryCount } from '../src/data/account-store';
import type { Stores } from '../src/data/stores';
import { createRedisStores } from '../src/data/redis/redis-stores';
import { redisKeys } from '../src/data/redis/redis-keys';
import { openSqliteStores } from '../src/data/sqlite/sqlite-stores';
import { parseApiKey } from '../src/domain/api-key';
import { dayWindow } from '../src/domain/windows';
import { startRedisServer } from '../test/support/redis-server';
import { BENCH_ADMIN_TOKEN, BENCH_PROXY_SECRET } from './bench-setup';
import { startChild } from './child-server';
import type { ChildServer } from './child-server';
import { startBenchGateway } from './gateway-build';
import { BENCH_LOAD, alternatingRounds, byName, median, measure, rotate } from './measure';
import type { Row } from './measure';

/**
 * Whether a call's cost grows with the data: two gateways on two Redis servers, one holding 10
 * accounts, the other 100,000 (DATA_ACCOUNTS), each account with 3 keys and 90 days of history,
 * measured side by side in pairs of rounds (each side first in one) under the same load: every
 * key of 10 accounts (all of the small one's; 10 drawn at random from the big one's): how calls
 * are spread over accounts changes what a call costs (a busier account's log is longer), so only
 * the data may differ.
 * Also the memory an account takes (3 keys, 90 days of history, a month counter): in Redis
 * (`used_memory` over the 100,000, and `MEMORY USAGE` of an account's hash) and in the embedded
 * SQLite store's file (over DATA_SQLITE_ACCOUNTS, 2,000; the store also holds it all in the heap). Each Redis's EVALSHA time per admitted call is read in every
 * round, so a gap tells Redis's lookups in a large keyspace from the gateway's work.
 */
const ACCOUNTS = Number(process.env.DATA_ACCOUNTS ?? 100_000);
const SQLITE_ACCOUNTS = Number(process.env.DATA_SQLITE_ACCOUNTS ?? 2_000);
const KEYS_PER_ACCOUNT = 3;
const HISTORY_DAYS = 90;
const SMALL_ACCOUNTS = 10;
const CONCURRENCY = 200;
// A rate no run reaches: this bench is about the data, not the limits.
const PLANS = { token: { playground_per_day: 0, plans: { scale: { monthly_quota: 1_000_000_000, rate_per_second: 10_000, price: 0, currency: 'EUR' } } } };
const SMALL = 'gateway, Redis with 10 accounts';
const LARGE = 'gateway, Redis with 100,000 accounts';

/** What {@link dataScale} measured. */
export interface DataScale {
  accounts: number;
  rounds: Row[][];
  /** Large over small, req/s, per pair of rounds (the geometric mean of a round with each side first). */
  ratios: number[];
  /** Large over small, req/s, per round. */
  roundRatios: number[];
  /** Large over small, the gateway's CPU per call, per round. */
  cpuRatios: number[];
  redisBytesPerAccount: number;
  /** `MEMORY USAGE` of an account's hash (its record and its 3 keys' secrets), the median of 100. */
  accountHashBytes: number;
  /** Redis's own time per admission (EVALSHA usec / admitted calls) per round, with 10 and with 100,000 accounts. */
  evalshaUsec: { small: number[]; large: number[] };
  sqliteFileBytesPerAccount: number;
  sqliteAccounts: number;
  /** How long each gateway worked after it started, before any load (s of wall time, s of CPU): large, small. */
  startupWork: { large: { seconds: number; cpuSeconds: number }; small: { seconds: number; cpuSeconds: number } };
}

async function pool(n: number, task: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, n) }, async () => {
    while (next < n) await task(next++);
  }));
}

/** `n` accounts of 3 keys and 90 days of history each; returns every secret. */
async function populate(stores: Stores, n: number, nowMs: number): Promise<string[]> {
  const secrets: string[] = [];
  const ids: string[] = [];
  await pool(n, async (i) => {
    const account = await stores.accountStore.createAccount({ email: `scale${i}@example.com`, name: `Scale ${i}`, subscriptions: { token: { plan: 'scale', status: 'active' } } });
    ids.push(account.id);
    for (let k = 0; k < KEYS_PER_ACCOUNT; k++) secrets.push((await stores.accountStore.createKey(account.id, { name: `key ${k}` }))!.key);
  });
  const days = Array.from({ length: HISTORY_DAYS }, (_, d) => dayWindow(nowMs - d * 86_400_000).id);
  // A thousand accounts' history per batch: 90 days each, a count of 2xx and of 429.
  for (let from = 0; from < ids.length; from += 1_000) {
    const counts: HistoryCount[] = [];
    for (const accountId of ids.slice(from, from + 1_000)) for (const dayId of days) counts.push({ accountId, api: 'token', dayId, outcome: '2xx', count: 1_234 }, { accountId, api: 'token', dayId, outcome: '429', count: 5 });
    await stores.accountStore.record(counts, new Map(), `scale-${from}`);
  }
  return secrets;
}

/** Every key of `n` accounts drawn at random from those the secrets belong to. */
function keysOfRandomAccounts(secrets: string[], n: number): string[] {
  const byAccount = new Map<string, string[]>();
  for (const secret of secrets) {
    const parsed = parseApiKey(secret);
    if (!parsed.ok) throw new Error('a generated key did not parse');
    const keys = byAccount.get(parsed.accountId);
    if (keys) keys.push(secret);
    else byAccount.set(parsed.accountId, [secret]);
  }
  const ids = [...byAccount.keys()];
  const chosen = new Set<string>();
  while (chosen.size < Math.min(n, ids.length)) chosen.add(ids[Math.floor(Math.random() * ids.length)]!);
  return [...chosen].flatMap((id) => byAccount.get(id)!);
}

const usedMemory = async (redis: Redis): Promise<number> => Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1]);

/** Bytes an account takes in the embedded store's file. */
async function sqliteBytes(dir: string, nowMs: number): Promise<number> {
  const file = path.join(dir, 'scale.db');
  const sqlite = openSqliteStores({ path: file, clock: () => nowMs });
  await populate(sqlite.stores, SQLITE_ACCOUNTS, nowMs);
  sqlite.close();
  return statSync(file).size / SQLITE_ACCOUNTS;
}

/** The median `MEMORY USAGE` of the hashes of 100 accounts the secrets name. */
async function accountHashMemory(redis: Redis, secrets: string[]): Promise<number> {
  const ids = [...new Set(secrets.map((secret) => parseApiKey(secret)).flatMap((parsed) => (parsed.ok ? [parsed.accountId] : [])))].slice(0, 100);
  const sizes = await Promise.all(ids.map(async (id) => Number(await redis.call('MEMORY', 'USAGE', redisKeys.account(id)))));
  return median(sizes);
}

/**
 * Waits until the server has used under 5% of a core for two seconds in a row, and returns how
 * long it worked before that. A gateway starts the hourly key-expiry sweep at once, and until it
 * read only the week's expiring keys (2026-11-27) it read every key of every account: with 100,000
 * accounts that took 24 s of the large gateway's CPU and its Redis's, and measured while it ran,
 * the small side's rounds lost the cores to it (req/s 1.50 large over small in the first pairs,
 * 0.90 once it was done). Whatever a gateway does at start is kept out of the rounds this way.
 */
async function untilIdle(server: ChildServer, maxMs = 600_000): Promise<{ seconds: number; cpuSeconds: number }> {
  const started = Date.now();
  const cpuStarted = server.cpuSeconds();
  let quiet = 0;
  let last = cpuStarted;
  while (quiet < 2 && Date.now() - started < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const now = server.cpuSeconds();
    quiet = now - last < 0.05 ? quiet + 1 : 0;
    last = now;
  }
  if (quiet < 2) console.error(`the gateway was still busy after ${maxMs / 1000} s: the rounds measure it busy`);
  return { seconds: (Date.now() - started) / 1000 - quiet, cpuSeconds: last - cpuStarted };
}

const rehashing = async (redis: Redis): Promise<boolean> => /rehashing target/i.test((await redis.call('DEBUG', 'HTSTATS', '0')) as string);

/**
 * Brings Redis to the state a long-running one is in, and returns how long that took (ms).
 * Writing ~9.6 million keys (history is a hash per account and day) grows the table of keys, and
 * of their TTLs, from 8 to 16 million buckets at 8.4 million keys; Redis then moves the buckets a
 * few per command and 1 ms of every 100 ms, and until it is done every lookup searches both tables
 * and every command moves buckets. On this machine it was still moving them 5 minutes after the
 * last write, so a measurement started at once (as before 2026-11-25) measured the move, not the
 * size. `DEBUG RELOAD` saves and loads the data again, which sizes the tables at once, as a
 * restarted Redis does.
 */
async function settled(redis: Redis): Promise<number> {
  const started = Date.now();
  if (await rehashing(redis)) await redis.call('DEBUG', 'RELOAD');
  if (await rehashing(redis)) throw new Error('Redis was still rehashing its keys after DEBUG RELOAD');
  return Date.now() - started;
}

/**
 * Each pair's ratio from a round with each side measured first: in one run on 2026-11-27 whichever
 * side went first in a round was 16-19% slower, both rounds, and with three rounds in turn
 * (small first, large first, small first) the median fell on that side twice.
 */
function pairRatios(ratios: number[]): number[] {
  const pairs: number[] = [];
  for (let i = 0; i + 1 < ratios.length; i += 2) pairs.push(Math.sqrt(ratios[i]! * ratios[i + 1]!));
  return pairs;
}

/** See the top of this file; `pairs` pairs of rounds, each side first in one of them. */
export async function dataScale(pairs: number): Promise<DataScale> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tollgate-scale-'));
  const plansFile = path.join(dir, 'plans.json');
  writeFileSync(plansFile, JSON.stringify(PLANS));
  const nowMs = Date.now();
  // DEBUG HTSTATS tells when Redis has finished growing its table of keys (settled below).
  const debuggable = { args: ['--enable-debug-command', 'local'] };
  const [smallRedis, largeRedis] = await Promise.all([startRedisServer(debuggable), startRedisServer(debuggable)]);
  const clients = [new Redis(smallRedis.url), new Redis(largeRedis.url)];
  const upstream = await startChild('bench/upstream.ts', {});
  const servers: ChildServer[] = [];
  try {
    const stores = clients.map((c) => createRedisStores(c, { clock: () => nowMs, timeoutMs: 60_000 }));
    const smallKeys = await populate(stores[0]!, SMALL_ACCOUNTS, nowMs);
    const before = await usedMemory(clients[1]!);
    console.error(`writing ${ACCOUNTS} accounts of ${KEYS_PER_ACCOUNT} keys and ${HISTORY_DAYS} days of history into Redis…`);
    const largeSecrets = await populate(stores[1]!, ACCOUNTS, nowMs);
    const redisBytesPerAccount = ((await usedMemory(clients[1]!)) - before) / ACCOUNTS;
    const accountHashBytes = await accountHashMemory(clients[1]!, largeSecrets);
    // The keys were made through the stores, so they are in the prefix and expiry indexes already;
    // a gateway that first started on the empty store would have marked them so. Without the marks
    // the large gateway walks all 100,000 accounts once at start (the upgrade from a release before
    // the indexes), which took longer than a start may here.
    await Promise.all(clients.map((c) => c.mset(redisKeys.keyPrefixIndexed(), '1', redisKeys.keyExpiryIndexed(), '1')));
    const settledAfterMs = await settled(clients[1]!);
    console.error(`Redis was moving its table of keys to a grown one after the writes: saved and loaded again in ${(settledAfterMs / 1000).toFixed(1)} s`);
    const largeKeys = keysOfRandomAccounts(largeSecrets, SMALL_ACCOUNTS);
    const env = { TOKEN_URL: upstream.url, PLANS_FILE: plansFile, ADMIN_TOKEN: BENCH_ADMIN_TOKEN, PROXY_SECRET: BENCH_PROXY_SECRET, LOG_LEVEL: 'info' };
    const small = await startBenchGateway({ ...env, REDIS_URL: smallRedis.url });
    servers.push(small);
    const large = await startBenchGateway({ ...env, REDIS_URL: largeRedis.url });
    servers.push(large);
    const [largeStartup, smallStartup] = await Promise.all([untilIdle(large), untilIdle(small)]);
    console.error(`after start, before any load: the large gateway worked ${largeStartup.seconds.toFixed(0)} s (${largeStartup.cpuSeconds.toFixed(1)} s of CPU), the small one ${smallStartup.seconds.toFixed(0)} s (${smallStartup.cpuSeconds.toFixed(1)} s)`);
    const measured = await alternatingRounds(
      2 * pairs,
      () => measure(SMALL, small, BENCH_LOAD, rotate(smallKeys), clients[0]),
      () => measure(LARGE, large, BENCH_LOAD, rotate(largeKeys), clients[1]),
    );
    const sqliteFileBytesPerAccount = await sqliteBytes(dir, nowMs);
    const roundRatios = measured.map((r) => byName(r, LARGE).rps / byName(r, SMALL).rps);
    return {
      accounts: ACCOUNTS,
      rounds: measured,
      ratios: pairRatios(roundRatios),
      roundRatios,
      cpuRatios: measured.map((r) => byName(r, LARGE).cpuUs / byName(r, SMALL).cpuUs),
      redisBytesPerAccount,
      accountHashBytes,
      evalshaUsec: { small: measured.map((r) => byName(r, SMALL).evalshaUsec ?? NaN), large: measured.map((r) => byName(r, LARGE).evalshaUsec ?? NaN) },
      sqliteFileBytesPerAccount,
      sqliteAccounts: SQLITE_ACCOUNTS,
      startupWork: { large: largeStartup, small: smallStartup },
    };
  } finally {
    for (const server of servers) await server.stop();
    await upstream.stop();
    for (const c of clients) c.disconnect();
    await Promise.all([smallRedis.stop(), largeRedis.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The lines {@link dataScale} prints on its own. */
export function reportDataScale(scale: DataScale): void {
  const each = (xs: number[]): string => xs.map((x) => x.toFixed(2)).join(', ');
  console.log(`req/s with ${scale.accounts} accounts / with 10: ${median(scale.ratios).toFixed(2)} (pairs of rounds: ${each(scale.ratios)}; rounds, the small side first in odd ones: ${each(scale.roundRatios)})  (target 0.95 to 1.05)`);
  const usec = (xs: number[]): string => `${median(xs).toFixed(1)} µs (rounds: ${xs.map((x) => x.toFixed(1)).join(', ')})`;
  console.log(`gateway CPU per call with ${scale.accounts} accounts / with 10: ${median(scale.cpuRatios).toFixed(2)} (rounds: ${scale.cpuRatios.map((x) => x.toFixed(2)).join(', ')})`);
  console.log(`Redis's time per admission (EVALSHA usec / admitted calls): ${usec(scale.evalshaUsec.large)} with ${scale.accounts} accounts, ${usec(scale.evalshaUsec.small)} with 10`);
  console.log(`Redis: ${Math.round(scale.redisBytesPerAccount)} bytes per account (3 keys, 90 days of history, a month counter; used_memory over ${scale.accounts}); an account's hash ${scale.accountHashBytes} bytes (MEMORY USAGE)`);
  console.log(`SQLite: ${Math.round(scale.sqliteFileBytesPerAccount)} bytes per account on disk (over ${scale.sqliteAccounts} accounts)`);
  const { large, small } = scale.startupWork;
  console.log(`work after start (the hourly key-expiry sweep among it), waited out before the rounds: ${large.seconds.toFixed(0)} s, ${large.cpuSeconds.toFixed(1)} s of CPU with ${scale.accounts} accounts; ${small.seconds.toFixed(0)} s, ${small.cpuSeconds.toFixed(1)} s with 10`);
}

if (require.main === module) {
  dataScale(Number(process.env.BENCH_ROUNDS ?? 3))
    .then(reportDataScale)
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}
