import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { startRedisServer } from '../test/support/redis-server';
import { BENCH_ADMIN_TOKEN, BENCH_PATH, BENCH_PROXY_SECRET, createBenchKeys, writeBenchPlans } from './bench-setup';
import { startChild } from './child-server';
import type { ChildServer } from './child-server';
import { GATEWAY_SOURCE, buildGateway, startBenchGateway } from './gateway-build';
import { BENCH_LOAD, byName, interleavedRounds, machineCpuUs, measure, median, paced, rotate } from './measure';
import type { Row } from './measure';
import { reportHalfPeak } from './half-peak';
import type { HalfPeak } from './half-peak';
import type { PacedResult } from './paced-load';
import { clusterVsSingle } from './cluster-vs-single';
import type { ClusterVsSingle } from './cluster-vs-single';
import { dataScale, reportDataScale } from './data-scale';
import type { DataScale } from './data-scale';
import { embeddedVsMemory } from './embedded-vs-memory';
import type { EmbeddedVsMemory } from './embedded-vs-memory';
import { reportSoak, soak } from './soak';
import { eventsCost, reportEventsCost } from './events-cost';
import type { EventsCost } from './events-cost';
import type { Soak } from './soak';

/**
 * Every target of the gateway's speed in one run, ending in one table of ratios (bench/README.md):
 *
 * - proxy: the trivial upstream called directly, a bare Node proxy (node:http both ways, keep-alive),
 *   the gateway with the memory store, the gateway with Redis, and the common express-rate-limit +
 *   rate-limit-redis + http-proxy-middleware baseline. The bare proxy, the gateway with Redis and
 *   the baseline are measured in interleaved rounds (BENCH_ROUNDS, 3 by default), each ratio taken
 *   within a round; then paced hrtime-timed runs at half the gateway's peak in a process of their
 *   own, BENCH_PACED_ROUNDS of them, each pacing the direct upstream, the bare proxy and the
 *   gateway in turn for BENCH_PACED_SLICE_MS (250) at a time, BENCH_PACED_SECONDS (10) each;
 * - stores: the embedded SQLite store against the in-memory one (embedded-vs-memory.ts);
 * - cluster: a Redis Cluster of three masters against one Redis (cluster-vs-single.ts);
 * - scale: 100,000 accounts against 10, and the bytes an account takes (data-scale.ts);
 * - soak: SOAK_MINUTES (10) at half the peak (soak.ts);
 * - events: quota alerts and the usage stream on against off (events-cost.ts).
 *
 * BENCH_PARTS (proxy,stores,cluster,scale,soak by default) picks the parts. Every server is its
 * own process; autocannon runs in this one.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PACED_SECONDS = Number(process.env.BENCH_PACED_SECONDS ?? 10);
const PACED_SLICE_MS = Number(process.env.BENCH_PACED_SLICE_MS ?? 250);
const PACED_WARMUP_SECONDS = 1;
const PACED_ROUNDS = Number(process.env.BENCH_PACED_ROUNDS ?? 3);
const KEYS = 200;
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const PARTS = new Set((process.env.BENCH_PARTS ?? 'proxy,stores,cluster,scale,soak,events').split(','));
const SOAK_MINUTES = Number(process.env.SOAK_MINUTES ?? 10);

// Node 24's node:http proxy is slower than Node 20's, so the gateway's target against it is higher there (issue 38).
const BARE_TARGET = Number(process.versions.node.split('.')[0]) >= 24 ? 0.75 : 0.6;

const BARE = 'bare Node proxy';
const BARE_UNDICI = "bare proxy on undici (the gateway's client)";
const GATEWAY = 'gateway, Redis store';
const BASELINE = 'baseline (express-rate-limit + rate-limit-redis + HPM)';

/** What the proxy part measured. */
interface ProxyRun {
  load1?: string;
  once: Row[];
  rounds: Row[][];
  half?: HalfPeak;
}

/** What every part measured, for the table at the end. */
interface Run {
  proxy?: ProxyRun;
  stores?: EmbeddedVsMemory;
  cluster?: ClusterVsSingle;
  scale?: DataScale;
  soak?: Soak;
  events?: EventsCost;
}

async function main(): Promise<void> {
  const started = performance.now();
  buildGateway();
  const run: Run = {};
  if (PARTS.has('proxy')) {
    run.proxy = await proxyPart();
    report(run.proxy);
  }
  if (PARTS.has('stores')) {
    console.error('stores: SQLite against in-memory');
    run.stores = await embeddedVsMemory(ROUNDS);
  }
  if (PARTS.has('cluster')) {
    console.error('cluster: three masters against one Redis');
    run.cluster = await clusterVsSingle(ROUNDS, false);
  }
  if (PARTS.has('scale')) {
    console.error('scale: 100,000 accounts against 10');
    run.scale = await dataScale(ROUNDS);
    reportDataScale(run.scale);
  }
  if (PARTS.has('soak')) {
    const rate = run.proxy?.half?.rate ?? Number(process.env.SOAK_RATE ?? 2_000);
    console.error(`soak: ${SOAK_MINUTES} min at ${rate} calls/s`);
    run.soak = await soak(rate, SOAK_MINUTES);
    reportSoak(run.soak);
  }
  if (PARTS.has('events')) {
    console.error('events: alerts and the usage stream on against off');
    run.events = await eventsCost(ROUNDS);
    reportEventsCost(run.events);
  }
  reportTargets(run, (performance.now() - started) / 60_000);
}

async function proxyPart(): Promise<ProxyRun> {
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
    console.error(`Node ${process.version}; load average ${load1}; ${BENCH_LOAD.connections} connections, ${BENCH_LOAD.seconds} s per target after ${BENCH_LOAD.warmupSeconds} s warm-up, ${ROUNDS} rounds`);
    once.push(await measure('upstream direct', upstream, BENCH_LOAD, anyKey));
    // The plain in-memory store: without STORE_PATH a gateway keeps an SQLite file (bench/embedded-vs-memory.ts compares the two).
    const memory = await startBenchGateway({ ...gatewayEnv, STORE_PATH: ':memory:' });
    once.push(await measure('gateway, memory store', memory, BENCH_LOAD, rotate(await createBenchKeys(memory, KEYS)), undefined, upstream));
    await memory.stop();

    await redis.flushall();
    const bare = await startChild('bench/bare-proxy.ts', { UPSTREAM_URL: upstream.url });
    const bareUndici = await startChild('bench/bare-undici-proxy.ts', { UPSTREAM_URL: upstream.url });
    const gateway = await startBenchGateway({ ...gatewayEnv, REDIS_URL: redisServer.url });
    const baseline = await startChild('bench/baseline.ts', { UPSTREAM_URL: upstream.url, REDIS_URL: redisServer.url });
    servers.push(bare, bareUndici, gateway, baseline);
    const keyList = await createBenchKeys(gateway, KEYS);
    const gatewayKeys = rotate(keyList);
    rounds.push(
      ...(await interleavedRounds(ROUNDS, [
        () => measure(BARE, bare, BENCH_LOAD, anyKey, undefined, upstream),
        () => measure(BARE_UNDICI, bareUndici, BENCH_LOAD, anyKey, undefined, upstream),
        () => measure(GATEWAY, gateway, BENCH_LOAD, gatewayKeys, redis, upstream),
        () => measure(BASELINE, baseline, BENCH_LOAD, anyKey, redis, upstream),
      ])),
    );
    const rate = Math.round(median(rounds.map((r) => byName(r, GATEWAY).rps)) / 2);
    const keysFile = path.join(dir, 'keys.txt');
    writeFileSync(keysFile, keyList.join('\n'));
    const targets = [{ url: upstream.url + BENCH_PATH }, { url: bare.url + BENCH_PATH }, { url: gateway.url + BENCH_PATH, keysFile }];
    half = { rate, seconds: PACED_SECONDS, warmupSeconds: PACED_WARMUP_SECONDS, sliceMs: PACED_SLICE_MS, rounds: [] };
    for (let round = 0; round < PACED_ROUNDS; round++) {
      console.error(`paced round ${round + 1} of ${PACED_ROUNDS} at ${rate} req/s`);
      const { results, busy } = await paced({ targets, rate, seconds: PACED_SECONDS, warmupSeconds: PACED_WARMUP_SECONDS, sliceMs: PACED_SLICE_MS, server: gateway });
      const [direct, bareRun, gatewayRun] = results as [PacedResult, PacedResult, PacedResult];
      half.rounds.push({ direct, bare: bareRun, gateway: { ...gatewayRun, busy } });
    }
  } finally {
    for (const server of servers) await server.stop();
    await upstream.stop();
    await redis.quit();
    await redisServer.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return { load1, once, rounds, half };
}

/** The round whose gateway req/s is the median: its rows go in the table, so they come from one moment. */
function medianRound(rounds: Row[][]): Row[] {
  const target = median(rounds.map((r) => byName(r, GATEWAY).rps));
  return rounds.find((r) => byName(r, GATEWAY).rps === target) as Row[];
}

function report(run: ProxyRun): void {
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
    'upstream CPU µs/call': fmt(r.upstreamCpuUs, 0),
    'client CPU µs/call': fmt(r.clientCpuUs, 0),
    'Redis round trips/call': fmt(r.roundTrips),
    'Redis cmds/call (incl. in scripts)': fmt(r.commands),
    'peak RSS MB': fmt(r.rssMb, 0),
  }));
  console.log(`\nTollgate gateway bench — ${new Date().toISOString()}, Node ${process.version}, load average at start ${run.load1}, ${BENCH_LOAD.connections} connections, ${BENCH_LOAD.seconds} s each, gateway from ${GATEWAY_SOURCE}, LOG_LEVEL=${LOG_LEVEL}, ${KEYS} keys rotated`);
  console.log(`rows: the direct upstream and the memory store once; the two bare proxies, gateway (Redis) and baseline from the median of ${rounds.length} interleaved rounds`);
  console.table(table);
  const ratio = (a: string, b: string) => rounds.map((r) => byName(r, a).rps / byName(r, b).rps);
  const cpu = (r: Row) => r.cpuUs + (r.redisCpuUs ?? 0);
  const cpuRatio = (a: string, b: string) => rounds.map((r) => cpu(byName(r, b)) / cpu(byName(r, a)));
  const machineRatio = (a: string, b: string) => rounds.map((r) => machineCpuUs(byName(r, b)) / machineCpuUs(byName(r, a)));
  const each = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(', ');
  const line = (label: string, xs: number[], target: string) => console.log(`${label} ${median(xs).toFixed(2)} (rounds: ${each(xs)})  (target ${target})`);
  line('gateway (Redis) / bare proxy, req/s:', ratio(GATEWAY, BARE), `≥ ${BARE_TARGET}`);
  line('gateway (Redis) / baseline, req/s:  ', ratio(GATEWAY, BASELINE), '≥ 2.0');
  console.log(`with equal CPU (server + Redis CPU per call): gateway / bare ${median(cpuRatio(GATEWAY, BARE)).toFixed(2)}, gateway / baseline ${median(cpuRatio(GATEWAY, BASELINE)).toFixed(2)}`);
  const machineOf = (name: string) => median(rounds.map((r) => machineCpuUs(byName(r, name)))).toFixed(0);
  console.log(`the machine's CPU per call (server + Redis + upstream + client), µs: bare ${machineOf(BARE)}, bare on undici ${machineOf(BARE_UNDICI)}, gateway ${machineOf(GATEWAY)}, baseline ${machineOf(BASELINE)}; gateway / baseline by it ${median(machineRatio(GATEWAY, BASELINE)).toFixed(2)}`);
  console.log(`Redis round trips per admitted call: ${median(rounds.map((r) => byName(r, GATEWAY).roundTrips ?? Number.NaN)).toFixed(2)}  (target ≤ 1: one turn's calls share one)`);
  if (half) reportHalfPeak(half);
  const rss = Math.max(...rounds.map((r) => byName(r, GATEWAY).rssMb));
  console.log(`gateway peak RSS under load: ${fmt(rss, 0)} MB (Redis, highest of the rounds), ${fmt(byName(once, 'gateway, memory store').rssMb, 0)} MB (memory)  (target ≤ 150)`);
}

/** The ratios and figures of every target, one table (the medians of the rounds). */
function reportTargets(run: Run, minutes: number): void {
  const rows: { measure: string; value: string; rounds: string; target: string; met: string }[] = [];
  const add = (measure: string, xs: number[], target: string, met: (x: number) => boolean, digits = 2): void => {
    const value = median(xs);
    rows.push({ measure, value: value.toFixed(digits), rounds: xs.map((x) => x.toFixed(digits)).join(', '), target, met: met(value) ? 'yes' : 'NO' });
  };
  const { proxy } = run;
  if (proxy) {
    const ratio = (a: string, b: string, pick: (r: Row) => number = (r) => r.rps) => proxy.rounds.map((r) => pick(byName(r, a)) / pick(byName(r, b)));
    add('gateway (Redis) / bare Node proxy, req/s, c=64', ratio(GATEWAY, BARE), `≥ ${BARE_TARGET} (stretch 1.0)`, (x) => x >= BARE_TARGET);
    add('gateway (Redis) / express-rate-limit baseline, req/s', ratio(GATEWAY, BASELINE), '≥ 2.0', (x) => x >= 2);
    add('non-2xx answers through the gateway', proxy.rounds.map((r) => byName(r, GATEWAY).non2xx), '0', (x) => x === 0, 0);
    // At most one: the calls of one event-loop turn share one EVALSHA (admit-batches.ts).
    add('EVALSHA per admitted call (INFO commandstats)', proxy.rounds.map((r) => byName(r, GATEWAY).roundTrips ?? Number.NaN), '≤ 1', (x) => x <= 1.01);
    add('Redis µs per admission (EVALSHA usec / admitted calls)', proxy.rounds.map((r) => byName(r, GATEWAY).evalshaUsec ?? Number.NaN), '≤ 20', (x) => x <= 20, 1);
    add('gateway p99 / bare proxy p99, c=64', ratio(GATEWAY, BARE, (r) => r.p99), '≤ 2', (x) => x <= 2);
    if (proxy.half) add(`gateway p99 / bare proxy p99, both paced at ${proxy.half.rate}/s`, proxy.half.rounds.map((r) => r.gateway.p99 / r.bare.p99), '≤ 2', (x) => x <= 2);
  }
  if (run.stores) add('SQLite / in-memory, req/s', run.stores.ratios, '≥ 0.90', (x) => x >= 0.9);
  if (run.cluster) add('Redis Cluster (3 masters) / one Redis, req/s', run.cluster.ratios, '≥ 0.85', (x) => x >= 0.85);
  if (run.scale) {
    add(`${run.scale.accounts} accounts / 10 accounts, req/s`, run.scale.ratios, '0.95 to 1.05', (x) => x >= 0.95 && x <= 1.05);
    // Where a gap comes from: Redis's time per admission, and the gateway's CPU per call, each 100,000 / 10.
    const { small, large } = run.scale.evalshaUsec;
    const stated = (measure: string, xs: number[]): void => void rows.push({ measure, value: median(xs).toFixed(2), rounds: xs.map((x) => x.toFixed(2)).join(', '), target: 'stated', met: '-' });
    stated(`Redis µs per admission (EVALSHA usec / admitted calls), ${run.scale.accounts} / 10 accounts`, large.map((x, i) => x / small[i]!));
    stated(`gateway CPU µs per call, ${run.scale.accounts} / 10 accounts`, run.scale.cpuRatios);
    rows.push({ measure: 'bytes per account (3 keys, 90 days of history)', value: `Redis ${Math.round(run.scale.redisBytesPerAccount)} (the account's hash ${run.scale.accountHashBytes}); SQLite ${Math.round(run.scale.sqliteFileBytesPerAccount)} on disk`, rounds: '-', target: 'stated', met: '-' });
  }
  if (run.soak) {
    const s = run.soak.samples;
    add(`soak ${run.soak.minutes} min at ${run.soak.rate}/s: RSS growth after the first minute`, [run.soak.rssGrowth * 100], '< 10%', (x) => x < 10, 1);
    rows.push({ measure: 'soak: open sockets, ref\'d timers (first minute → last)', value: `${s[0]!.sockets} → ${s.at(-1)!.sockets}, ${s[0]!.timeouts} → ${s.at(-1)!.timeouts}`, rounds: '-', target: 'no growth', met: s.at(-1)!.sockets <= s[0]!.sockets + 4 && s.at(-1)!.timeouts <= s[0]!.timeouts + 4 ? 'yes' : 'NO' });
  }
  if (run.events) {
    add('quota alerts on / off, req/s', run.events.alerts, '≥ 0.95', (x) => x >= 0.95, 3);
    add('usage stream on / off (alerts on), req/s', run.events.stream, '≥ 0.95', (x) => x >= 0.95, 3);
  }
  console.log(`\nTollgate gateway targets — ${new Date().toISOString()}, Node ${process.version}, medians of ${ROUNDS} rounds, each ratio taken within a round; ${minutes.toFixed(1)} min in all`);
  console.table(rows);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
