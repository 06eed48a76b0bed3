import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Redis from 'ioredis';
import { startRedisServer } from '../test/support/redis-server';
import { processCpuSeconds, startChild } from './child-server';
import type { ChildServer } from './child-server';
import type { PacedResult } from './paced-load';

/**
 * One run, side by side: the trivial upstream called directly, a bare Node proxy (the ceiling),
 * the gateway with the memory store, the gateway with Redis, and the common express-rate-limit +
 * rate-limit-redis + http-proxy-middleware baseline. Every server is its own process, autocannon
 * runs in this one, and the paced hrtime-timed run at half the gateway's peak in a process of its own.
 */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const WARMUP_SECONDS = 2;
const PACED_SECONDS = Number(process.env.BENCH_PACED_SECONDS ?? 8);
const PACED_WARMUP_SECONDS = 2;
const KEYS = 200;
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const ADMIN_TOKEN = 'bench-admin-token-0123456789';
const PATH = '/token/v1/prices?coins=eth';

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  rssMb: number;
  /** The server process's CPU per call (µs) during the measured run. */
  cpuUs: number;
  /** redis-server's CPU per call (µs), for the rows that use it. */
  redisCpuUs?: number;
  roundTrips?: number;
  commands?: number;
}

async function createKeys(gateway: ChildServer): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < KEYS; i++) {
    const res = await fetch(`${gateway.url}/admin/v1/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify({ owner: `bench-${i}`, subscriptions: { token: 'bench' } }),
    });
    keys.push(((await res.json()) as { data: { key: string } }).data.key);
  }
  return keys;
}

function rotate(keys: string[]): () => string {
  let i = 0;
  return () => keys[i++ % keys.length] as string;
}

async function load(url: string, seconds: number, nextKey: () => string, sample?: ChildServer): Promise<{ result: autocannon.Result; rssMb: number }> {
  let rssMb = sample?.rssMb() ?? 0;
  const timer = setInterval(() => (rssMb = Math.max(rssMb, sample?.rssMb() ?? 0)), 250);
  const result = await autocannon({
    url: url + PATH,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'x-tollgate-key': nextKey() } }) }],
  });
  clearInterval(timer);
  return { result, rssMb };
}

/** Runs bench/paced-client.ts as its own process (see there) and reads its JSON result. */
function paced(url: string, rate: number, keysFile?: string): Promise<PacedResult> {
  const env = { PATH: process.env.PATH ?? '', PACED_URL: url + PATH, PACED_RATE: String(rate), PACED_SECONDS: String(PACED_SECONDS), PACED_WARMUP_SECONDS: String(PACED_WARMUP_SECONDS), PACED_KEYS_FILE: keysFile ?? '' };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--conditions=development', '--import', 'tsx', 'bench/paced-client.ts'], { cwd: path.resolve(__dirname, '..'), env }, (err, stdout) =>
      err ? reject(err) : resolve(JSON.parse(stdout) as PacedResult),
    );
  });
}

async function commandStats(redis: Redis): Promise<Record<string, number>> {
  const info = await redis.info('commandstats');
  return Object.fromEntries([...info.matchAll(/cmdstat_([a-z|]+):calls=(\d+)/g)].map((m) => [m[1] as string, Number(m[2])]));
}

async function redisPid(redis: Redis): Promise<number> {
  return Number(/process_id:(\d+)/.exec(await redis.info('server'))?.[1]);
}

async function measure(name: string, server: ChildServer, nextKey: () => string, redis?: Redis): Promise<Row> {
  await load(server.url, WARMUP_SECONDS, nextKey);
  if (redis) await redis.config('RESETSTAT');
  const pid = redis ? await redisPid(redis) : 0;
  const cpuBefore = server.cpuSeconds();
  const redisCpuBefore = redis ? processCpuSeconds(pid) : 0;
  const { result, rssMb } = await load(server.url, SECONDS, nextKey, server);
  const perCallUs = (seconds: number) => (seconds * 1e6) / result.requests.total;
  const row: Row = { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, rssMb, cpuUs: perCallUs(server.cpuSeconds() - cpuBefore) };
  if (redis) {
    row.redisCpuUs = perCallUs(processCpuSeconds(pid) - redisCpuBefore);
    const stats = await commandStats(redis);
    const ok = result['2xx'];
    // Our own INFO call is in the stats too; leave it out.
    const total = Object.entries(stats).reduce((sum, [cmd, calls]) => (cmd === 'info' || cmd === 'config|resetstat' ? sum : sum + calls), 0);
    row.roundTrips = ((stats.evalsha ?? 0) + (stats.eval ?? 0)) / ok;
    row.commands = total / ok;
  }
  console.error(`  ${name}: ${Math.round(row.rps)} req/s`);
  return row;
}

async function main(): Promise<void> {
  const load1 = loadavg()[0]?.toFixed(2);
  const redisServer = await startRedisServer();
  const redis = new Redis(redisServer.url);
  const dir = mkdtempSync(path.join(tmpdir(), 'tollgate-bench-'));
  const plansFile = path.join(dir, 'plans.json');
  writeFileSync(plansFile, JSON.stringify({ token: { playground_per_day: 0, plans: { bench: { monthly_quota: 1_000_000_000, rate_per_second: 80, price: 0, currency: 'EUR' } } } }));
  const upstream = await startChild('bench/upstream.ts', {});
  const gatewayEnv = { TOKEN_URL: upstream.url, PLANS_FILE: plansFile, ADMIN_TOKEN, LOG_LEVEL, PROXY_SECRET: 'bench' };
  const rows: Row[] = [];
  const anyKey = rotate(Array.from({ length: KEYS }, (_, i) => `client-${i}`));
  let half: { rate: number; direct: PacedResult; gateway: PacedResult } | undefined;
  try {
    console.error(`load average ${load1}; ${CONNECTIONS} connections, ${SECONDS} s per target after ${WARMUP_SECONDS} s warm-up`);
    rows.push(await measure('upstream direct', upstream, anyKey));

    const bare = await startChild('bench/bare-proxy.ts', { UPSTREAM_URL: upstream.url });
    rows.push(await measure('bare Node proxy', bare, anyKey));
    await bare.stop();

    const memory = await startChild('src/main.ts', gatewayEnv);
    rows.push(await measure('gateway, memory store', memory, rotate(await createKeys(memory))));
    await memory.stop();

    await redis.flushall();
    const withRedis = await startChild('src/main.ts', { ...gatewayEnv, REDIS_URL: redisServer.url });
    const keyList = await createKeys(withRedis);
    const redisKeys = rotate(keyList);
    const gatewayRow = await measure('gateway, Redis store', withRedis, redisKeys, redis);
    rows.push(gatewayRow);
    const rate = Math.round(gatewayRow.rps / 2);
    const keysFile = path.join(dir, 'keys.txt');
    writeFileSync(keysFile, keyList.join('\n'));
    half = { rate, direct: await paced(upstream.url, rate), gateway: await paced(withRedis.url, rate, keysFile) };
    await withRedis.stop();

    await redis.flushall();
    const baseline = await startChild('bench/baseline.ts', { UPSTREAM_URL: upstream.url, REDIS_URL: redisServer.url });
    rows.push(await measure('baseline (express-rate-limit + rate-limit-redis + HPM)', baseline, anyKey, redis));
    await baseline.stop();
  } finally {
    await upstream.stop();
    await redis.quit();
    await redisServer.stop();
    rmSync(dir, { recursive: true, force: true });
  }

  const direct = rows[0] as Row;
  const fmt = (n: number | undefined, digits = 2) => (n === undefined ? '-' : n.toFixed(digits));
  const table = rows.map((r) => ({
    target: r.name,
    'req/s': Math.round(r.rps),
    'p50 ms': r.p50,
    'p99 ms': r.p99,
    'added p50 ms': r === direct ? '-' : fmt(r.p50 - direct.p50, 0),
    'added p99 ms': r === direct ? '-' : fmt(r.p99 - direct.p99, 0),
    'non-2xx': r.non2xx,
    'server CPU µs/call': fmt(r.cpuUs, 0),
    'Redis CPU µs/call': fmt(r.redisCpuUs, 0),
    'Redis round trips/call': fmt(r.roundTrips),
    'Redis cmds/call (incl. in scripts)': fmt(r.commands),
    'peak RSS MB': fmt(r.rssMb, 0),
  }));
  console.log(`\nTollgate gateway bench — ${new Date().toISOString()}, load average at start ${load1}, ${CONNECTIONS} connections, ${SECONDS} s each, gateway LOG_LEVEL=${LOG_LEVEL}, ${KEYS} keys rotated`);
  console.table(table);
  const byName = (prefix: string) => rows.find((r) => r.name.startsWith(prefix)) as Row;
  const gw = byName('gateway, Redis');
  console.log(`gateway (Redis) / bare proxy: ${(gw.rps / byName('bare').rps).toFixed(2)}  (target ≥ 0.60)`);
  console.log(`gateway (Redis) / baseline:   ${(gw.rps / byName('baseline').rps).toFixed(2)}  (target ≥ 1.5)`);
  const cpu = (r: Row) => r.cpuUs + (r.redisCpuUs ?? 0);
  const bare = byName('bare');
  const base = byName('baseline');
  // The req/s ratios swing with whatever else the shared cores run; CPU per call does not.
  console.log(
    `CPU per call, server + Redis: bare proxy ${fmt(cpu(bare), 0)} µs, gateway (Redis) ${fmt(cpu(gw), 0)} µs, baseline ${fmt(cpu(base), 0)} µs; with equal CPU: gateway / bare ${fmt(cpu(bare) / cpu(gw))}, gateway / baseline ${fmt(cpu(base) / cpu(gw))}`,
  );
  console.log(`Redis round trips per admitted call: ${fmt(gw.roundTrips)}  (target 1)`);
  if (half) {
    const { direct: d, gateway: g } = half;
    console.log(
      `at half the gateway's peak (${half.rate} req/s, paced in its own process, ${PACED_SECONDS} s after ${PACED_WARMUP_SECONDS} s warm-up, hrtime): direct p50 ${fmt(d.p50)} ms p99 ${fmt(d.p99)} ms; gateway p50 ${fmt(g.p50)} ms p99 ${fmt(g.p99)} ms (${g.ok}/${g.sent} 200); added p50 ${fmt(g.p50 - d.p50)} ms, added p99 ${fmt(g.p99 - d.p99)} ms  (target ≤ 2); pacer max lag ${fmt(d.maxLagMs, 1)} / ${fmt(g.maxLagMs, 1)} ms`,
    );
  }
  console.log(`gateway peak RSS under load: ${fmt(gw.rssMb, 0)} MB (Redis), ${fmt(byName('gateway, memory').rssMb, 0)} MB (memory)  (target ≤ 150)`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
