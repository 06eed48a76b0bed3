import Redis from 'ioredis';
import { parseApiKey } from '../src/domain/api-key';
import { builtInPlanTable } from '../src/config';
import { dayWindow, monthWindow } from '../src/domain/windows';
import type { HistoryCount } from '../src/data/account-store';
import { HISTORY_OUTCOMES } from '../src/data/account-store';
import { createRedisStores } from '../src/data/redis/redis-stores';
import { redisKeys } from '../src/data/redis/redis-keys';
import { startRedisServer } from '../test/support/redis-server';

const BUILT_IN_PLANS = builtInPlanTable();

/**
 * "Capacity on paper": what one account, key, per-second log and day of history cost Redis in
 * memory, and what one admission costs it in CPU, measured on a throw-away redis-server, and the
 * number of Redis masters those figures give for 1 million accounts and 50,000 admitted calls/s.
 *
 *   node --conditions=development --import tsx bench/capacity.ts
 *   [CAP_ACCOUNTS=10000] [CAP_ADMIT_ACCOUNTS=1000] [CAP_ADMISSIONS=20000] [CAP_USABLE_GB=25] [CAP_ROUNDS=5]
 *
 * Memory: `INFO memory` used_memory before and after writing N of a thing through the gateway's
 * own Redis stores, divided by N (what Redis really allocates: the keyspace entries, TTL entries,
 * encodings and allocator rounding), beside `MEMORY USAGE` of one of each. CPU: `CONFIG
 * RESETSTAT`, admissions through `quotaStore.admit` (one EVALSHA each), then `INFO commandstats`
 * (usec_per_call: time inside the script) and `INFO cpu` (the whole redis-server process: network
 * reads and writes too) per admission.
 */
const ACCOUNTS = Number(process.env.CAP_ACCOUNTS ?? 10_000);
const ADMIT_ACCOUNTS = Number(process.env.CAP_ADMIT_ACCOUNTS ?? 1_000);
const ADMISSIONS = Number(process.env.CAP_ADMISSIONS ?? 20_000);
const USABLE_GB = Number(process.env.CAP_USABLE_GB ?? 25);
const CONCURRENCY = 200;
const ROUNDS = Number(process.env.CAP_ROUNDS ?? 5);
const LOG_ENTRIES = 10;
const apiPlans = BUILT_IN_PLANS.token!;

/** Runs `task(i)` for i in [0, n) with at most `limit` in flight. */
async function pool(n: number, limit: number, task: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < n) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(limit, n) }, worker));
}

const field = (info: string, name: string): number => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? NaN);

async function main(): Promise<void> {
  const server = await startRedisServer();
  const redis = new Redis(server.url);
  try {
    const version = /redis_version:(\S+)/.exec(await redis.info('server'))?.[1] ?? '?';
    const stores = createRedisStores(redis, { clock: Date.now, timeoutMs: 30_000 }); // long: the bulk writes are one pipeline
    const { accountStore, quotaStore } = stores;
    const usedMemory = async (): Promise<number> => {
      await new Promise((r) => setTimeout(r, 200));
      return field(await redis.info('memory'), 'used_memory');
    };
    const memoryUsage = async (key: string): Promise<number> => Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0'));
    const out: string[] = [];
    const say = (line: string): void => {
      out.push(line);
      console.log(line);
    };
    say(`redis-server ${version} (jemalloc, default encodings), one client, ${CONCURRENCY} commands in flight`);

    // Warm up: scripts loaded, gw:accounts exists, so the deltas hold only the per-thing cost.
    for (let i = 0; i < 50; i++) await accountStore.createAccount({ email: `warm${i}@example.com`, name: `Warm ${i}`, subscriptions: { token: { plan: 'pro', status: 'active' } } });

    // 1a. Accounts: account hash + email string + gw:accounts member.
    const ids: string[] = new Array(ACCOUNTS);
    let before = await usedMemory();
    await pool(ACCOUNTS, CONCURRENCY, async (i) => {
      const account = await accountStore.createAccount({ email: `user${String(i).padStart(7, '0')}@example.com`, name: `User ${i}`, subscriptions: { token: { plan: 'pro', status: 'active' } } });
      ids[i] = account.id;
    });
    const perAccount = ((await usedMemory()) - before) / ACCOUNTS;
    const acc0 = ids[0]!;
    const indexSize = await redis.zcard(redisKeys.accountIndex());
    const indexUsage = await memoryUsage(redisKeys.accountIndex());
    say(`\n1. Memory (used_memory delta / N; MEMORY USAGE of one for comparison)`);
    say(`account (hash + email key + index member), ${ACCOUNTS} accounts: ${perAccount.toFixed(0)} B/account`);
    say(`  MEMORY USAGE: account hash ${await memoryUsage(redisKeys.account(acc0))} B, email key ${await memoryUsage(redisKeys.email('user0000000@example.com'))} B, gw:accounts ${indexUsage} B / ${indexSize} members = ${(indexUsage / indexSize).toFixed(0)} B/member`);

    // 1b. Keys: key record + secrets entry + key index member; the first key of an account also creates its key index (the secret is a field of the account's hash).
    const secrets: string[] = new Array(ACCOUNTS);
    const keyIds: string[] = new Array(ACCOUNTS);
    before = await usedMemory();
    await pool(ACCOUNTS, CONCURRENCY, async (i) => {
      const made = await accountStore.createKey(ids[i]!, { name: 'production' });
      secrets[i] = made!.key;
      keyIds[i] = made!.record.id;
    });
    const perFirstKey = ((await usedMemory()) - before) / ACCOUNTS;
    before = await usedMemory();
    await pool(ACCOUNTS, CONCURRENCY, (i) => accountStore.createKey(ids[i]!, { name: 'staging' }));
    const perSecondKey = ((await usedMemory()) - before) / ACCOUNTS;
    say(`key (record + secrets entry + key-index member), ${ACCOUNTS} keys each: first key of an account ${perFirstKey.toFixed(0)} B/key (creates the key index), second key ${perSecondKey.toFixed(0)} B/key`);
    say(`  MEMORY USAGE: key record ${await memoryUsage(redisKeys.key(acc0, keyIds[0]!))} B, account hash (its record and 2 secrets) ${await memoryUsage(redisKeys.account(acc0))} B, key index (2 members) ${await memoryUsage(redisKeys.keys(acc0))} B`);

    // 1c. A per-second log with LOG_ENTRIES entries plus the month counter, written by real admissions.
    const logAccounts = ACCOUNTS;
    const parsed = secrets.map((s) => {
      const p = parseApiKey(s);
      if (!p.ok) throw new Error('bad key');
      return p;
    });
    const t0 = Date.now();
    before = await usedMemory();
    let logAdmitted = 0;
    await pool(logAccounts * LOG_ENTRIES, CONCURRENCY, async (j) => {
      const p = parsed[j % logAccounts]!;
      const a = await quotaStore.admit({ accountId: p.accountId, keyHash: p.hash, api: 'token', apiPlans, nowMs: t0 });
      if (a.outcome === 'admitted') logAdmitted++;
    });
    const afterLogs = await usedMemory();
    const perLogAndMonth = (afterLogs - before) / logAccounts;
    const elapsed = (Date.now() - t0) / 1000;
    const month = monthWindow(t0).id;
    const logUsage = await memoryUsage(redisKeys.secondLog(acc0, 'token'));
    const logEncoding = await redis.object('ENCODING', redisKeys.secondLog(acc0, 'token'));
    const monthUsage = await memoryUsage(redisKeys.month(acc0, 'token', month));
    // The logs are dropped to tell their share from the month counters'.
    await pool(logAccounts, CONCURRENCY, (i) => redis.del(redisKeys.secondLog(ids[i]!, 'token')));
    const perLog = (afterLogs - (await usedMemory())) / logAccounts;
    const perMonth = perLogAndMonth - perLog;
    say(`per-second log (sec:token, ${LOG_ENTRIES} entries, 60 s TTL) + month counter (TTL), ${logAccounts} accounts, ${logAdmitted} admitted in ${elapsed.toFixed(1)} s: ${perLogAndMonth.toFixed(0)} B/account = log ${perLog.toFixed(0)} B + month counter ${perMonth.toFixed(0)} B`);
    // Longer logs for comparison (a log holds up to 2 × rate entries: it is trimmed at two seconds).
    const member = (n: number): string => `AbCdEfGh:${100000 + n}`;
    const sizes: string[] = [];
    for (const n of [30, 60, 160]) {
      const name = `gw:{acc_cmp}:sec:cmp${n}`;
      for (let k = 0; k < n; k++) await redis.zadd(name, t0 + k, member(k));
      await redis.expire(name, 60);
      sizes.push(`${n} entries ${await memoryUsage(name)} B (${await redis.object('ENCODING', name)})`);
      await redis.del(name);
    }
    say(`  MEMORY USAGE: log of ${LOG_ENTRIES} ${logUsage} B (${logEncoding}), month counter ${monthUsage} B; ${sizes.join(', ')}`);

    // 1d. A day of usage history: one hist hash with 3 APIs × 5 outcomes, written by record() in one batch;
    // record() also leaves a batch marker (hb:<batch>, 24 h TTL) per account per flush, measured apart.
    const apis = Object.keys(BUILT_IN_PLANS);
    const day = dayWindow(t0).id;
    const counts: HistoryCount[] = [];
    for (const id of ids) for (const api of apis) for (const [o, outcome] of HISTORY_OUTCOMES.entries()) counts.push({ accountId: id, api, dayId: day, outcome, count: o === 0 ? 1234 : 7 + o });
    before = await usedMemory();
    await accountStore.record(counts, new Map(), 'capbatch');
    const afterHistory = await usedMemory();
    await pool(ACCOUNTS, CONCURRENCY, (i) => redis.del(redisKeys.historyBatch(ids[i]!, 'capbatch')));
    const perMarker = (afterHistory - (await usedMemory())) / ACCOUNTS;
    const perHistoryDay = (afterHistory - before) / ACCOUNTS - perMarker;
    say(`day of history (hist hash, ${apis.length} APIs × ${HISTORY_OUTCOMES.length} outcomes, 91-day TTL), ${ACCOUNTS} accounts: ${perHistoryDay.toFixed(0)} B/account-day; history batch marker (hb:<batch>, 24 h TTL): ${perMarker.toFixed(0)} B each`);
    say(`  MEMORY USAGE: hist hash ${await memoryUsage(redisKeys.history(acc0, day))} B`);

    // 2. CPU per admission: ADMISSIONS calls over ADMIT_ACCOUNTS fresh accounts (pro: 15/s), random order.
    const cpuIds: string[] = [];
    const cpuKeys: { accountId: string; hash: string }[] = [];
    await pool(ADMIT_ACCOUNTS, CONCURRENCY, async (i) => {
      const account = await accountStore.createAccount({ email: `cpu${i}@example.com`, name: `Cpu ${i}`, subscriptions: { token: { plan: 'pro', status: 'active' } } });
      cpuIds.push(account.id);
      const made = await accountStore.createKey(account.id, { name: 'production' });
      const p = parseApiKey(made!.key);
      if (p.ok) cpuKeys.push({ accountId: p.accountId, hash: p.hash });
    });
    const order = Array.from({ length: ADMISSIONS }, (_, i) => i % cpuKeys.length);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const stat = (stats: string, name: string): { calls: number; usec: number } => {
      const m = new RegExp(`cmdstat_${name}:calls=(\\d+),usec=\\d+,usec_per_call=([\\d.]+)`).exec(stats);
      return { calls: Number(m?.[1] ?? 0), usec: Number(m?.[2] ?? 0) };
    };
    const cpuSeconds = (info: string): number => field(info, 'used_cpu_user') + field(info, 'used_cpu_sys');
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    say(`\n2. CPU: ${ROUNDS} rounds of ${ADMISSIONS} admissions over ${cpuKeys.length} accounts (token pro, 15/s), random order, ${CONCURRENCY} in flight`);
    const usecs: number[] = [];
    const cpus: number[] = [];
    let inner: string[] = [];
    let callsPerAdmission = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      await new Promise((r) => setTimeout(r, 2_100)); // every log empties between rounds
      await redis.config('RESETSTAT');
      const cpuBefore = await redis.info('cpu');
      const outcomes: Record<string, number> = {};
      const started = process.hrtime.bigint();
      await pool(ADMISSIONS, CONCURRENCY, async (i) => {
        const k = cpuKeys[order[i]!]!;
        const a = await quotaStore.admit({ accountId: k.accountId, keyHash: k.hash, api: 'token', apiPlans, nowMs: Date.now() });
        outcomes[a.outcome] = (outcomes[a.outcome] ?? 0) + 1;
      });
      const wallS = Number(process.hrtime.bigint() - started) / 1e9;
      const cpuS = cpuSeconds(await redis.info('cpu')) - cpuSeconds(cpuBefore);
      const stats = await redis.info('commandstats');
      const evalsha = stat(stats, 'evalsha');
      inner = [...stats.matchAll(/cmdstat_([a-z|]+):calls=(\d+)/g)].filter((m) => !['evalsha', 'info', 'config|resetstat'].includes(m[1]!)).map((m) => `${m[1]} ${(Number(m[2]) / ADMISSIONS).toFixed(2)}`);
      callsPerAdmission = evalsha.calls / ADMISSIONS;
      usecs.push(evalsha.usec);
      cpus.push((cpuS * 1e6) / ADMISSIONS);
      say(`round ${round}: ${JSON.stringify(outcomes)} in ${wallS.toFixed(2)} s (${(ADMISSIONS / wallS).toFixed(0)}/s from one client); evalsha ${evalsha.calls} calls, usec_per_call ${evalsha.usec} µs; redis-server CPU ${(cpuS * 1e3).toFixed(0)} ms = ${((cpuS * 1e6) / ADMISSIONS).toFixed(1)} µs/admission`);
    }
    const evalshaUs = median(usecs);
    const cpuPerAdmissionUs = median(cpus);
    say(`median: evalsha usec_per_call ${evalshaUs} µs (min ${Math.min(...usecs)}), ${callsPerAdmission.toFixed(2)} EVALSHA per admission; redis-server CPU (INFO cpu used_cpu_user+sys delta) ${cpuPerAdmissionUs.toFixed(1)} µs per admission (min ${Math.min(...cpus).toFixed(1)})`);
    say(`commands run inside the script per admission: ${inner.join(', ')}`);

    // The history flush: one script per account with calls, per gateway, per second (one count each here).
    await redis.config('RESETSTAT');
    const flushBefore = await redis.info('cpu');
    await accountStore.record(ids.map((id) => ({ accountId: id, api: 'token', dayId: day, outcome: '2xx', count: 17 })), new Map(), 'capflush');
    const flushCpuUs = ((cpuSeconds(await redis.info('cpu')) - cpuSeconds(flushBefore)) * 1e6) / ACCOUNTS;
    const flushUs = stat(await redis.info('commandstats'), 'evalsha').usec;
    say(`history flush: evalsha usec_per_call ${flushUs} µs, redis-server CPU ${flushCpuUs.toFixed(1)} µs per account per flush`);

    // 3. Listings: one page of 100 accounts = ZRANGEBYLEX on gw:accounts + 100 HGETALL.
    await redis.config('RESETSTAT');
    let cursor: string | undefined;
    const pages = 100;
    for (let p = 0; p < pages; p++) {
      const page = await accountStore.listAccounts({ cursor, limit: 100 });
      cursor = page.next_cursor ?? undefined;
    }
    const lstats = await redis.info('commandstats');
    const lstat = (name: string): number => Number(new RegExp(`cmdstat_${name}:calls=\\d+,usec=\\d+,usec_per_call=([\\d.]+)`).exec(lstats)?.[1] ?? 0);
    const zrangeUs = lstat('zrangebylex');
    const hgetallUs = lstat('hgetall');
    const pageUs = zrangeUs + 100 * hgetallUs;
    say(`listing: ${pages} pages of 100 accounts: zrangebylex ${zrangeUs} µs/call, hgetall ${hgetallUs} µs/call, so ${pageUs.toFixed(0)} µs of Redis time per page`);

    // 4. On paper.
    const usable = USABLE_GB * 1e9;
    const million = 1e6;
    const rate = 50_000;
    const perAccountWith = (days: number): number => perAccount + perFirstKey + perSecondKey + days * perHistoryDay + perMonth;
    // Logs alive at once: say 50,000 accounts called in the last minute (a log lives 60 s idle).
    const liveLogs = 50_000;
    const logBytes = liveLogs * perLog;
    say(`\n3. On paper (${USABLE_GB} GB usable per master; one core per master, kept under 70%)`);
    for (const days of [30, 91]) {
      const bytes = million * perAccountWith(days) + logBytes;
      say(`memory, 1,000,000 accounts with 2 keys, ${days} days of history, a month counter: ${perAccount.toFixed(0)} + ${perFirstKey.toFixed(0)} + ${perSecondKey.toFixed(0)} + ${days} × ${perHistoryDay.toFixed(0)} + ${perMonth.toFixed(0)} = ${perAccountWith(days).toFixed(0)} B/account → ${(bytes / 1e9).toFixed(1)} GB (with ${(logBytes / 1e6).toFixed(0)} MB for ${liveLogs} live per-second logs) → ${Math.ceil(bytes / usable)} master(s) (${(bytes / usable).toFixed(2)})`);
    }
    const coresAll = (rate * cpuPerAdmissionUs) / 1e6;
    const coresScript = (rate * evalshaUs) / 1e6;
    say(`CPU, ${rate} admissions/s × ${cpuPerAdmissionUs.toFixed(1)} µs = ${coresAll.toFixed(2)} cores / 0.7 → ${Math.ceil(coresAll / 0.7)} master(s) (script time alone: ${rate} × ${evalshaUs} µs = ${coresScript.toFixed(2)} cores / 0.7 → ${Math.ceil(coresScript / 0.7)})`);
    say(`  + history flushes: ≤ one per account per gateway per second; 10,000 a second × ${flushCpuUs.toFixed(1)} µs = ${((10_000 * flushCpuUs) / 1e6).toFixed(2)} cores`);
    say(`hot account (one slot, one master, one thread): 1e6 / ${evalshaUs} µs = ${(1e6 / evalshaUs).toFixed(0)} admissions/s (1e6 / ${cpuPerAdmissionUs.toFixed(1)} µs = ${(1e6 / cpuPerAdmissionUs).toFixed(0)}/s by process CPU), × 0.7 = ${((0.7 * 1e6) / evalshaUs).toFixed(0)}/s; plans admit at most 80/s per API, so only refused floods reach it`);
    say(`gw:accounts (one key, one slot): ${(indexUsage / indexSize).toFixed(0)} B/member → ${((million * indexUsage) / indexSize / 1e6).toFixed(0)} MB for 1,000,000 accounts; one ZADD per account creation; a listing page of 100 = 1 ZRANGEBYLEX there (${zrangeUs} µs → ${((0.7 * 1e6) / zrangeUs).toFixed(0)} pages/s at 70% of that master) + 100 HGETALL (${hgetallUs} µs each) spread over every master`);
    for (const pairs of [1_000, 10_000, 50_000]) {
      const bytes = pairs * 86_400 * perMarker;
      say(`history batch markers (${perMarker.toFixed(0)} B, 24 h TTL, one per account with calls per gateway per 1 s flush): ${pairs} account-gateway pairs a second × 86,400 s = ${((pairs * 86_400) / 1e6).toFixed(0)} M markers = ${(bytes / 1e9).toFixed(1)} GB → ${(bytes / usable).toFixed(1)} master(s)`);
    }
  } finally {
    redis.disconnect();
    await server.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
