import { execFile } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import type Redis from 'ioredis';
import { BENCH_PATH } from './bench-setup';
import { processCpuSeconds } from './child-server';
import type { ChildServer } from './child-server';
import type { PacedResult } from './paced-load';

/** How every target is loaded: the same settings for each row. */
export interface LoadSettings {
  path: string;
  connections: number;
  seconds: number;
  warmupSeconds: number;
}

/**
 * The load of the throughput benches: BENCH_CONNECTIONS connections (64) for BENCH_SECONDS (8) per
 * target, after a 2 s warm-up.
 */
export const BENCH_LOAD: LoadSettings = {
  path: BENCH_PATH,
  connections: Number(process.env.BENCH_CONNECTIONS ?? 64),
  seconds: Number(process.env.BENCH_SECONDS ?? 8),
  warmupSeconds: 2,
};

/** One target's figures from one measured run. */
export interface Row {
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
  /** The upstream's CPU per call (µs), when its process was given. */
  upstreamCpuUs?: number;
  /** This process's CPU per call (µs): autocannon, the load's client. */
  clientCpuUs?: number;
  roundTrips?: number;
  commands?: number;
  /** Redis's own time inside EVALSHA per admitted call (INFO commandstats `usec` / 2xx): the scripts' cost. */
  evalshaUsec?: number;
}

/** Everything the machine spent on one call (µs): the server, Redis, the upstream and the load's client (on two cores they share them). */
export function machineCpuUs(row: Row): number {
  return row.cpuUs + (row.redisCpuUs ?? 0) + (row.upstreamCpuUs ?? 0) + (row.clientCpuUs ?? 0);
}

/**
 * An environment from `NAME=value` words (a bench's own setting, such as COMPARE_ENV_1 or
 * COUNT_ENV, split by the caller): the value is all after the first `=`.
 */
export function envOf(pairs: readonly string[]): Record<string, string> {
  return Object.fromEntries(pairs.filter(Boolean).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

/** The row of the target named `name`. */
export function byName(rows: Row[], name: string): Row {
  return rows.find((r) => r.name === name) as Row;
}

/**
 * `rounds` rounds of two targets, measured one after the other in alternating order (`a` first in
 * odd rounds, `b` first in even ones), so the machine's drift falls on both alike: a ratio taken
 * within a round compares the two at one moment. A round's rows are in the order measured.
 */
export async function alternatingRounds(rounds: number, a: () => Promise<Row>, b: () => Promise<Row>): Promise<Row[][]> {
  const rows: Row[][] = [];
  for (let round = 0; round < rounds; round++) {
    console.error(`round ${round + 1} of ${rounds}`);
    rows.push(round % 2 === 0 ? [await a(), await b()] : [await b(), await a()]);
  }
  return rows;
}

/**
 * `rounds` rounds of the targets, each measured in turn within a round: the machine's speed drifts
 * over a minute, and targets measured side by side drift together, so ratios are taken within a
 * round. A round's rows are in the targets' order.
 */
export async function interleavedRounds(rounds: number, targets: (() => Promise<Row>)[]): Promise<Row[][]> {
  const rows: Row[][] = [];
  for (let round = 0; round < rounds; round++) {
    console.error(`round ${round + 1} of ${rounds}`);
    const row: Row[] = [];
    for (const target of targets) row.push(await target());
    rows.push(row);
  }
  return rows;
}

/** Cycles through the keys, one per request. */
export function rotate(keys: string[]): () => string {
  let i = 0;
  return () => keys[i++ % keys.length] as string;
}

/**
 * Sends exactly `total` calls, `connections` at a time (at `rate` a second in all, when given),
 * each with the next key; resolves with how many got 2xx.
 */
export async function sendCalls(url: string, nextKey: () => string, total: number, connections: number, rate = 0): Promise<number> {
  const result = await autocannon({
    url,
    connections,
    amount: total,
    ...(rate > 0 ? { overallRate: rate } : {}),
    requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'x-tollgate-key': nextKey() } }) }],
  });
  return result['2xx'];
}

async function load(url: string, settings: LoadSettings, seconds: number, nextKey: () => string, sample?: ChildServer): Promise<{ result: autocannon.Result; rssMb: number }> {
  let rssMb = sample?.rssMb() ?? 0;
  const timer = setInterval(() => (rssMb = Math.max(rssMb, sample?.rssMb() ?? 0)), 250);
  const result = await autocannon({
    url: url + settings.path,
    connections: settings.connections,
    duration: seconds,
    requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'x-tollgate-key': nextKey() } }) }],
  });
  clearInterval(timer);
  return { result, rssMb };
}

/** Commands run, by name, and the µs Redis spent inside EVALSHA in all (a batch of admissions is one EVALSHA). */
async function commandStats(redis: Redis): Promise<{ calls: Record<string, number>; evalshaUsecTotal?: number }> {
  const info = await redis.info('commandstats');
  const evalsha = /cmdstat_evalsha:calls=\d+,usec=(\d+)/.exec(info)?.[1];
  return { calls: Object.fromEntries([...info.matchAll(/cmdstat_([a-z|]+):calls=(\d+)/g)].map((m) => [m[1] as string, Number(m[2])])), evalshaUsecTotal: evalsha === undefined ? undefined : Number(evalsha) };
}

async function redisPid(redis: Redis): Promise<number> {
  return Number(/process_id:(\d+)/.exec(await redis.info('server'))?.[1]);
}

/**
 * Warms the target up, then loads it and reads its CPU time (and redis-server's) from /proc around
 * the run, and Redis's command counts after `CONFIG RESETSTAT`.
 */
export async function measure(name: string, server: ChildServer, settings: LoadSettings, nextKey: () => string, redis?: Redis, upstream?: ChildServer): Promise<Row> {
  await load(server.url, settings, settings.warmupSeconds, nextKey);
  if (redis) await redis.config('RESETSTAT');
  const pid = redis ? await redisPid(redis) : 0;
  const cpuBefore = server.cpuSeconds();
  const redisCpuBefore = redis ? processCpuSeconds(pid) : 0;
  const upstreamCpuBefore = upstream && upstream !== server ? upstream.cpuSeconds() : 0;
  const clientCpuBefore = process.cpuUsage();
  const { result, rssMb } = await load(server.url, settings, settings.seconds, nextKey, server);
  const perCallUs = (seconds: number) => (seconds * 1e6) / result.requests.total;
  const row: Row = { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, rssMb, cpuUs: perCallUs(server.cpuSeconds() - cpuBefore) };
  const client = process.cpuUsage(clientCpuBefore);
  row.clientCpuUs = (client.user + client.system) / result.requests.total;
  if (upstream && upstream !== server) row.upstreamCpuUs = perCallUs(upstream.cpuSeconds() - upstreamCpuBefore);
  if (redis) {
    row.redisCpuUs = perCallUs(processCpuSeconds(pid) - redisCpuBefore);
    const { calls: stats, evalshaUsecTotal } = await commandStats(redis);
    const ok = result['2xx'];
    if (evalshaUsecTotal !== undefined) row.evalshaUsec = evalshaUsecTotal / ok;
    // Our own INFO call is in the stats too; leave it out.
    const total = Object.entries(stats).reduce((sum, [cmd, calls]) => (cmd === 'info' || cmd === 'config|resetstat' ? sum : sum + calls), 0);
    row.roundTrips = ((stats.evalsha ?? 0) + (stats.eval ?? 0)) / ok;
    row.commands = total / ok;
  }
  console.error(`  ${name}: ${Math.round(row.rps)} req/s, ${row.cpuUs.toFixed(0)} µs CPU a call`);
  return row;
}

/** Options of {@link paced}. */
export interface PacedOptions {
  /** Paced in turn, `sliceMs` each (see interleavedLoad); `keysFile` holds one API key a line. */
  targets: { url: string; keysFile?: string }[];
  sliceMs?: number;
  /** Each target's rate, measured seconds and warm-up. */
  rate: number;
  seconds: number;
  warmupSeconds: number;
  /** A server whose CPU use is reported as a share of one core over its share of the run (the run's time over the targets). */
  server?: ChildServer;
}

/** Runs bench/paced-client.ts as its own process (see there) and reads its JSON result: one a target. */
export async function paced(options: PacedOptions): Promise<{ results: PacedResult[]; busy?: number }> {
  const env = {
    PATH: process.env.PATH ?? '',
    PACED_TARGETS: JSON.stringify(options.targets),
    PACED_SLICE_MS: String(options.sliceMs ?? Number.POSITIVE_INFINITY),
    PACED_RATE: String(options.rate),
    PACED_SECONDS: String(options.seconds),
    PACED_WARMUP_SECONDS: String(options.warmupSeconds),
  };
  const cpuBefore = options.server?.cpuSeconds() ?? 0;
  const started = performance.now();
  const results = await new Promise<PacedResult[]>((resolve, reject) => {
    execFile(process.execPath, ['--conditions=development', '--import', 'tsx', 'bench/paced-client.ts'], { cwd: path.resolve(__dirname, '..'), env }, (err, stdout) =>
      err ? reject(err) : resolve(JSON.parse(stdout) as PacedResult[]),
    );
  });
  if (!options.server) return { results };
  const share = (performance.now() - started) / 1000 / options.targets.length;
  return { results, busy: (options.server.cpuSeconds() - cpuBefore) / share };
}

/** The middle value (the lower of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
}
