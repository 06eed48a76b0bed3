import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Redis from 'ioredis';
import { startRedisServer } from '../test/support/redis-server';
import type { ApiPlans } from '../src/domain/plans';
import { BENCH_ADMIN_TOKEN, BENCH_PATH, BENCH_PLANS, BENCH_PROXY_SECRET, createBenchKeys, writeBenchPlans } from './bench-setup';
import { startChild } from './child-server';
import type { ChildServer } from './child-server';
import { median, rotate } from './measure';

/**
 * Redis commands per admitted call, and what the admission script costs Redis, for one or more
 * gateway builds sharing one redis-server (each in its own keys), measured in alternating rounds:
 *
 *   ADMIT_BUILDS=old/dist/main.js,dist/main.js [ADMIT_CALLS=10000] [ADMIT_RATE=1000] [ADMIT_ROUNDS=3]
 *   node --conditions=development --import tsx bench/admission-commands.ts
 *
 * Each round sends exactly ADMIT_CALLS calls to each build in turn, at ADMIT_RATE a second (the
 * same rate for every build, so the sorted-set logs hold as many entries), after `CONFIG
 * RESETSTAT`, waits 1.5 s so a once-a-second flush of what those calls counted lands in the same
 * stats, and reads `INFO commandstats` (calls and usec_per_call per command, those run inside
 * scripts included). A last run per build is watched with MONITOR (which slows Redis, so its
 * timings are not used) to tell the commands the gateway sent from those its scripts ran, the
 * admission EVALSHA (by the SHA-1 of the build's ADMIT_SCRIPT) from other scripts, and to group the
 * commands sent outside admissions into batches (pipelines) by their arrival.
 */
const BUILDS = (process.env.ADMIT_BUILDS ?? 'dist/main.js').split(',').filter(Boolean);
const CALLS = Number(process.env.ADMIT_CALLS ?? 10_000);
const RATE = Number(process.env.ADMIT_RATE ?? 1000);
const ROUNDS = Number(process.env.ADMIT_ROUNDS ?? 3);
const KEYS = 200;
const GATEWAY_DIR = path.resolve(__dirname, '..');

interface Stat {
  calls: number;
  usecPerCall: number;
}

async function commandStats(redis: Redis): Promise<Record<string, Stat>> {
  const info = await redis.info('commandstats');
  const stats: Record<string, Stat> = {};
  for (const m of info.matchAll(/cmdstat_([a-z|]+):calls=(\d+),usec=\d+,usec_per_call=([\d.]+)/g)) {
    if (m[1] === 'info' || m[1] === 'config|resetstat' || m[1] === 'monitor') continue;
    stats[m[1] as string] = { calls: Number(m[2]), usecPerCall: Number(m[3]) };
  }
  return stats;
}

/** Sends exactly `total` calls at `RATE` a second; resolves with how many were answered 200. */
async function send(gateway: ChildServer, nextKey: () => string, total: number): Promise<number> {
  const result = await autocannon({
    url: gateway.url + BENCH_PATH,
    connections: 16,
    amount: total,
    overallRate: RATE,
    requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'x-tollgate-key': nextKey() } }) }],
  });
  return result['2xx'];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The SHA-1 ioredis sends with EVALSHA for a build's admission script: one fixed script in builds
 * before 2026-11-23, one per API with its plans written in since.
 */
function admitSha(build: string): string {
  const dist = path.dirname(path.resolve(GATEWAY_DIR, build));
  // Where the script lived: dist/data/ before the folders by engine (issue 19), dist/data/redis/scripts/ since.
  const file = [path.join(dist, 'data', 'redis', 'scripts', 'admit-script.js'), path.join(dist, 'data', 'admit-script.js')].find((f) => existsSync(f)) ?? '';
  const keysFile = [path.join(dist, 'data', 'redis', 'redis-keys.js'), path.join(dist, 'data', 'redis-keys.js')].find((f) => existsSync(f)) ?? '';
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const script = require(file) as { ADMIT_SCRIPT?: string; admitScriptFor?: (api: string, plans: ApiPlans, secondLogTtl: number) => string };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { SECOND_LOG_TTL_SECONDS } = require(keysFile) as { SECOND_LOG_TTL_SECONDS: number };
  const lua = script.ADMIT_SCRIPT ?? script.admitScriptFor?.('token', BENCH_PLANS.token, SECOND_LOG_TTL_SECONDS) ?? '';
  return createHash('sha1').update(lua).digest('hex');
}

/** Watches one run with MONITOR and classifies what arrived. */
async function monitored(redisUrl: string, build: string, gateway: ChildServer, nextKey: () => string): Promise<void> {
  const monitor = new Redis(redisUrl);
  const sha = admitSha(build);
  const lines: { t: number; source: string; cmd: string; arg: string }[] = [];
  const mon = await monitor.monitor();
  mon.on('monitor', (time: string, args: string[], source: string) => lines.push({ t: Number(time), source, cmd: (args[0] ?? '').toLowerCase(), arg: args[1] ?? '' }));
  const ok = await send(gateway, nextKey, CALLS);
  await sleep(1500);
  mon.disconnect();
  monitor.disconnect();
  const sent = lines.filter((l) => l.source !== 'lua');
  const inLua = lines.filter((l) => l.source === 'lua');
  const admits = sent.filter((l) => l.cmd === 'evalsha' && l.arg === sha);
  const other = sent.filter((l) => !(l.cmd === 'evalsha' && l.arg === sha));
  const tally = (xs: typeof lines, name: (l: (typeof lines)[number]) => string) => {
    const out: Record<string, number> = {};
    for (const l of xs) out[name(l)] = (out[name(l)] ?? 0) + 1;
    return Object.entries(out)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${v} (${(v / ok).toFixed(3)}/call)`)
      .join(', ');
  };
  // A batch: commands sent outside admissions that arrive within 50 ms of each other.
  const batches: number[] = [];
  let last = -Infinity;
  for (const l of other) {
    if (l.t - last > 0.05) batches.push(0);
    batches[batches.length - 1]!++;
    last = l.t;
  }
  const seconds = lines.length ? (lines.at(-1)!.t - lines[0]!.t) : 0;
  console.log(`${build} (MONITOR, ${ok}/${CALLS} calls 200, ${seconds.toFixed(1)} s of commands):`);
  console.log(`  sent by the gateway: admission EVALSHA ${admits.length} = ${(admits.length / ok).toFixed(3)} per admitted call; other commands: ${tally(other, (l) => (l.cmd === 'evalsha' ? `evalsha ${l.arg.slice(0, 8)}` : l.cmd)) || 'none'}`);
  console.log(`  other commands in ${batches.length} batches (${batches.join(', ')} commands each) over ${seconds.toFixed(1)} s`);
  console.log(`  run inside scripts: ${(inLua.length / ok).toFixed(2)} per admitted call: ${tally(inLua, (l) => l.cmd)}`);
}

async function main(): Promise<void> {
  const redisServer = await startRedisServer();
  const redis = new Redis(redisServer.url);
  const upstream = await startChild('bench/upstream.ts', {});
  const dir = mkdtempSync(path.join(tmpdir(), 'tollgate-admit-'));
  const env = { TOKEN_URL: upstream.url, PLANS_FILE: writeBenchPlans(dir), ADMIN_TOKEN: BENCH_ADMIN_TOKEN, PROXY_SECRET: BENCH_PROXY_SECRET, REDIS_URL: redisServer.url, LOG_LEVEL: 'info' };
  const gateways: ChildServer[] = [];
  try {
    for (const build of BUILDS) gateways.push(await startChild(build, env));
    const keys = await Promise.all(gateways.map((g) => createBenchKeys(g, KEYS).then(rotate)));
    for (const [i, g] of gateways.entries()) await send(g, keys[i]!, 4000);
    await sleep(1500);
    const results: { ok: number; stats: Record<string, Stat> }[][] = BUILDS.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      // Alternating order, so neither build always goes first.
      const order = BUILDS.map((_, i) => i);
      if (round % 2) order.reverse();
      for (const i of order) {
        await redis.config('RESETSTAT');
        const ok = await send(gateways[i]!, keys[i]!, CALLS);
        await sleep(1500);
        results[i]!.push({ ok, stats: await commandStats(redis) });
      }
    }
    for (const [i, build] of BUILDS.entries()) {
      const runs = results[i]!;
      const names = [...new Set(runs.flatMap((r) => Object.keys(r.stats)))].sort();
      console.log(`${build}: ${runs.map((r) => r.ok).join(', ')} of ${CALLS} calls 200 per round, at ${RATE}/s`);
      for (const name of names) {
        const perCall = median(runs.map((r) => (r.stats[name]?.calls ?? 0) / r.ok));
        const usec = runs.map((r) => r.stats[name]?.usecPerCall ?? 0);
        console.log(`  ${name.padEnd(18)} ${perCall.toFixed(3)} calls per admitted call, usec_per_call ${median(usec).toFixed(2)} (rounds ${usec.map((u) => u.toFixed(2)).join(', ')})`);
      }
    }
    for (const [i, build] of BUILDS.entries()) await monitored(redisServer.url, build, gateways[i]!, keys[i]!);
  } finally {
    for (const g of gateways) await g.stop();
    await upstream.stop();
    await redis.quit();
    await redisServer.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
