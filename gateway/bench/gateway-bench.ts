import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { startRedisServer } from '../test/support/redis-server';
import { BENCH_ADMIN_TOKEN, BENCH_PATH, BENCH_PROXY_SECRET, createBenchKeys, writeBenchPlans } from './bench-setup';
import { startChild } from './child-server';
import type { ChildServer } from './child-server';
import { measure, median, paced, rotate } from './measure';
import type { LoadSettings, Row } from './measure';
import { reportHalfPeak } from './half-peak';
import type { HalfPeak } from './half-peak';

/**
 * One run, side by side: the trivial upstream called directly, a bare Node proxy (the ceiling),
 * the gateway with the memory store, the gateway with Redis, and the common express-rate-limit +
 * rate-limit-redis + http-proxy-middleware baseline. The bare proxy, the gateway with Redis and the
 * baseline are measured in interleaved rounds (BENCH_ROUNDS, 3 by default). Every server is its own
 * process, autocannon runs in this one, and the paced hrtime-timed runs at half the gateway's peak
 * (direct, bare proxy, gateway, in BENCH_PACED_ROUNDS interleaved rounds) in a process of their own.
 */
const SETTINGS: LoadSettings = {
  path: BENCH_PATH,
  connections: Number(process.env.BENCH_CONNECTIONS ?? 64),
  seconds: Number(process.env.BENCH_SECONDS ?? 8),
  warmupSeconds: 2,
};
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PACED_SECONDS = Number(process.env.BENCH_PACED_SECONDS ?? 6);
const PACED_WARMUP_SECONDS = 1;
const PACED_ROUNDS = Number(process.env.BENCH_PACED_ROUNDS ?? 3);
const KEYS = 200;
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const GATEWAY_DIR = path.resolve(__dirname, '..');
// BENCH_MODE=dist (default) measures what ships: the compiled gateway, started with the V8 flags of
// its `start` script (the Dockerfile's CMD runs the same). BENCH_MODE=dev runs src/ through tsx.
const MODE = process.env.BENCH_MODE === 'dev' ? 'dev' : 'dist';
const START_FLAGS = (JSON.parse(readFileSync(path.join(GATEWAY_DIR, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start
  .split(' ')
  .filter((arg) => arg.startsWith('--'));

/** Builds @tollgate/envelope's dist, then the gateway's (it compiles against envelope's dist). */
function build(): void {
  for (const dir of [path.join(GATEWAY_DIR, '..', 'packages', 'envelope'), GATEWAY_DIR]) {
    const result = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: dir, stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`tsc -p tsconfig.build.json failed in ${dir}`);
  }
}

function startGateway(env: Record<string, string>): Promise<ChildServer> {
  return MODE === 'dist' ? startChild('dist/main.js', env, START_FLAGS) : startChild('src/main.ts', env);
}

const BARE = 'bare Node proxy';
const GATEWAY = 'gateway, Redis store';
const BASELINE = 'baseline (express-rate-limit + rate-limit-redis + HPM)';

async function main(): Promise<void> {
  if (MODE === 'dist') build();
  const load1 = loadavg()[0]?.toFixed(2);
  const redisServer = await startRedisServer();
  const redis = new Redis(redisServer.url);
  const dir = mkdtempSync(path.join(tmpdir(), 'tollgate-bench-'));
  const plansFile = writeBenchPlans(dir);
  const upstream = await startChild('bench/upstream.ts', {});
  const gatewayEnv = { TOKEN_URL: upstream.url, PLANS_FILE: plansFile, ADMIN_TOKEN: BENCH_ADMIN_TOKEN, LOG_LEVEL, PROXY_SECRET: BENCH_PROXY_SECRET };
  const anyKey = rotate(Array.from({ length: KEYS }, (_, i) => `client-${i}`));
  const once: Row[] = [];
  const rounds: Row[][] = [];
  let half: HalfPeak | undefined;
  const servers: ChildServer[] = [];
  try {
    console.error(`load average ${load1}; ${SETTINGS.connections} connections, ${SETTINGS.seconds} s per target after ${SETTINGS.warmupSeconds} s warm-up, ${ROUNDS} rounds`);
    once.push(await measure('upstream direct', upstream, SETTINGS, anyKey));
    // The plain in-memory store: without STORE_PATH a gateway keeps an SQLite file (bench/embedded-vs-memory.ts compares the two).
    const memory = await startGateway({ ...gatewayEnv, STORE_PATH: ':memory:' });
    once.push(await measure('gateway, memory store', memory, SETTINGS, rotate(await createBenchKeys(memory, KEYS))));
    await memory.stop();

    await redis.flushall();
    const bare = await startChild('bench/bare-proxy.ts', { UPSTREAM_URL: upstream.url });
    const gateway = await startGateway({ ...gatewayEnv, REDIS_URL: redisServer.url });
    const baseline = await startChild('bench/baseline.ts', { UPSTREAM_URL: upstream.url, REDIS_URL: redisServer.url });
    servers.push(bare, gateway, baseline);
    const keyList = await createBenchKeys(gateway, KEYS);
    const gatewayKeys = rotate(keyList);
    // Interleaved: the machine's speed drifts over a minute; targets measured side by side in each
    // round drift together, so the ratios are taken within a round and their median reported.
    for (let round = 0; round < ROUNDS; round++) {
      console.error(`round ${round + 1} of ${ROUNDS}`);
      rounds.push([
        await measure(BARE, bare, SETTINGS, anyKey),
        await measure(GATEWAY, gateway, SETTINGS, gatewayKeys, redis),
        await measure(BASELINE, baseline, SETTINGS, anyKey, redis),
      ]);
    }
    const rate = Math.round(median(rounds.map((r) => byName(r, GATEWAY).rps)) / 2);
    const keysFile = path.join(dir, 'keys.txt');
    writeFileSync(keysFile, keyList.join('\n'));
    const at = (server: ChildServer, keys?: string, sample?: ChildServer) =>
      paced({ url: server.url + BENCH_PATH, rate, seconds: PACED_SECONDS, warmupSeconds: PACED_WARMUP_SECONDS, keysFile: keys, server: sample });
    half = { rate, seconds: PACED_SECONDS, warmupSeconds: PACED_WARMUP_SECONDS, rounds: [] };
    for (let round = 0; round < PACED_ROUNDS; round++) {
      console.error(`paced round ${round + 1} of ${PACED_ROUNDS} at ${rate} req/s`);
      half.rounds.push({ direct: await at(upstream), bare: await at(bare), gateway: await at(gateway, keysFile, gateway) });
    }
  } finally {
    for (const server of servers) await server.stop();
    await upstream.stop();
    await redis.quit();
    await redisServer.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  report({ load1, once, rounds, half });
}

function byName(rows: Row[], name: string): Row {
  return rows.find((r) => r.name === name) as Row;
}

/** The round whose gateway req/s is the median: its rows go in the table, so they come from one moment. */
function medianRound(rounds: Row[][]): Row[] {
  const target = median(rounds.map((r) => byName(r, GATEWAY).rps));
  return rounds.find((r) => byName(r, GATEWAY).rps === target) as Row[];
}

function report(run: { load1?: string; once: Row[]; rounds: Row[][]; half?: HalfPeak }): void {
  const { once, rounds, half } = run;
  const direct = once[0] as Row;
  const rows = [direct, ...medianRound(rounds), ...once.slice(1)];
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
  const where = MODE === 'dist' ? `dist/ (node ${[...START_FLAGS, 'dist/main.js'].join(' ')})` : 'src/ through tsx';
  console.log(`\nTollgate gateway bench — ${new Date().toISOString()}, load average at start ${run.load1}, ${SETTINGS.connections} connections, ${SETTINGS.seconds} s each, gateway from ${where}, LOG_LEVEL=${LOG_LEVEL}, ${KEYS} keys rotated`);
  console.log(`rows: the direct upstream and the memory store once; bare proxy, gateway (Redis) and baseline from the median of ${rounds.length} interleaved rounds`);
  console.table(table);
  const ratio = (a: string, b: string) => rounds.map((r) => byName(r, a).rps / byName(r, b).rps);
  const cpu = (r: Row) => r.cpuUs + (r.redisCpuUs ?? 0);
  const cpuRatio = (a: string, b: string) => rounds.map((r) => cpu(byName(r, b)) / cpu(byName(r, a)));
  const each = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(', ');
  const line = (label: string, xs: number[], target: string) => console.log(`${label} ${median(xs).toFixed(2)} (rounds: ${each(xs)})  (target ${target})`);
  line('gateway (Redis) / bare proxy, req/s:', ratio(GATEWAY, BARE), '≥ 0.60');
  line('gateway (Redis) / baseline, req/s:  ', ratio(GATEWAY, BASELINE), '≥ 1.5');
  console.log(`with equal CPU (server + Redis CPU per call): gateway / bare ${median(cpuRatio(GATEWAY, BARE)).toFixed(2)}, gateway / baseline ${median(cpuRatio(GATEWAY, BASELINE)).toFixed(2)}`);
  console.log(`Redis round trips per admitted call: ${median(rounds.map((r) => byName(r, GATEWAY).roundTrips ?? Number.NaN)).toFixed(2)}  (target 1)`);
  if (half) reportHalfPeak(half);
  const rss = Math.max(...rounds.map((r) => byName(r, GATEWAY).rssMb));
  console.log(`gateway peak RSS under load: ${fmt(rss, 0)} MB (Redis, highest of the rounds), ${fmt(byName(once, 'gateway, memory store').rssMb, 0)} MB (memory)  (target ≤ 150)`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
