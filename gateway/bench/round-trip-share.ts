import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Redis from 'ioredis';
import { createBenchKeys } from './bench-setup';
import { runBench, withBenchServers } from './bench-servers';
import { startChild } from './child-server';
import type { ChildServer } from './child-server';
import { START_FLAGS, buildGateway } from './gateway-build';
import { BENCH_LOAD, byName, interleavedRounds, machineCpuUs, measure, median, rotate } from './measure';
import type { Row } from './measure';

/**
 * What the Redis admission's round trip costs the whole machine, and how fast the gateway would be
 * without it: the built gateway (Redis store) against a copy of it whose admission batches are
 * answered at once, in the gateway, with every call admitted (`admit-batches.js` patched: the
 * batching, the per-call promises, the gate, the limit headers, the usage history and the access
 * line all still run), the bare proxy on undici and the express-rate-limit baseline, in
 * interleaved rounds on one Redis and one upstream. Each row's CPU per call is its server's,
 * Redis's, the upstream's and the load's client's (on two cores all four share them).
 *
 *   [BENCH_ROUNDS=3] flock /tmp/tollgate-heavy.lock node ../scripts/with-node.mjs 24 node --conditions=development --import tsx bench/round-trip-share.ts
 *
 * An analysis, not a build that could ship: without the round trip nothing is checked or counted.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const GATEWAY = 'gateway, Redis store';
const WITHOUT = 'the same, its admissions answered in process';
const BARE_UNDICI = 'bare proxy on undici';
const BASELINE = 'baseline';
// Beside dist/, as deep: the build finds the catalogue and its other files by relative paths.
const COPY = path.resolve(__dirname, '..', '.bench-no-round-trip');
const SEND = 'batch.command(batch.keys.length, ...batch.keys, ...batch.args)';
// The usual script's reply for an admitted call (admit-script.ts): admitted, the table's first plan, used, second count, active, key id, no end.
const ADMITTED = "Promise.resolve(batch.calls.map(() => [1, 1, 5, 1, 1, 'key_000000000000000000000000000a', 0]))";

/** A copy of dist/ whose admission batches never reach Redis. */
function buildWithoutRoundTrip(): string {
  rmSync(COPY, { recursive: true, force: true });
  cpSync(path.resolve(__dirname, '..', 'dist'), COPY, { recursive: true });
  const file = path.join(COPY, 'data', 'redis', 'admit-batches.js');
  const source = readFileSync(file, 'utf8');
  if (!source.includes(SEND)) throw new Error(`${file} no longer sends its batch as \`${SEND}\`: update this bench`);
  writeFileSync(file, source.replace(SEND, ADMITTED));
  return path.join(COPY, 'main.js');
}

async function main(): Promise<void> {
  buildGateway();
  const without = buildWithoutRoundTrip();
  try {
    await withBenchServers(async ({ env, upstream, redis: redisServer }) => {
      const redis = new Redis(redisServer.url);
      const servers: ChildServer[] = [];
      try {
        const gateway = await startChild('dist/main.js', env, START_FLAGS);
        const inProcess = await startChild(without, env, START_FLAGS);
        const bare = await startChild('bench/bare-undici-proxy.ts', { UPSTREAM_URL: upstream.url });
        const baseline = await startChild('bench/baseline.ts', { UPSTREAM_URL: upstream.url, REDIS_URL: redisServer.url });
        servers.push(gateway, inProcess, bare, baseline);
        const gatewayKeys = rotate(await createBenchKeys(gateway, 200));
        const inProcessKeys = rotate(await createBenchKeys(inProcess, 200));
        const anyKey = rotate(Array.from({ length: 200 }, (_, i) => `client-${i}`));
        console.log(`Node ${process.version}; ${BENCH_LOAD.connections} connections, ${BENCH_LOAD.seconds} s a target, ${ROUNDS} rounds`);
        report(
          await interleavedRounds(ROUNDS, [
            () => measure(GATEWAY, gateway, BENCH_LOAD, gatewayKeys, redis, upstream),
            () => measure(WITHOUT, inProcess, BENCH_LOAD, inProcessKeys, redis, upstream),
            () => measure(BARE_UNDICI, bare, BENCH_LOAD, anyKey, undefined, upstream),
            () => measure(BASELINE, baseline, BENCH_LOAD, anyKey, redis, upstream),
          ]),
        );
      } finally {
        for (const server of servers) await server.stop();
        await redis.quit();
      }
    });
  } finally {
    rmSync(COPY, { recursive: true, force: true });
  }
}

function report(rounds: Row[][]): void {
  const med = (name: string, pick: (r: Row) => number): number => median(rounds.map((round) => pick(byName(round, name))));
  console.table(
    [GATEWAY, WITHOUT, BARE_UNDICI, BASELINE].map((name) => ({
      target: name,
      'req/s': Math.round(med(name, (r) => r.rps)),
      'server µs/call': med(name, (r) => r.cpuUs).toFixed(1),
      'Redis µs/call': med(name, (r) => r.redisCpuUs ?? 0).toFixed(1),
      'upstream µs/call': med(name, (r) => r.upstreamCpuUs ?? 0).toFixed(1),
      'client µs/call': med(name, (r) => r.clientCpuUs ?? 0).toFixed(1),
      'machine µs/call': med(name, machineCpuUs).toFixed(1),
      'non-2xx': med(name, (r) => r.non2xx),
      '/ baseline, req/s': median(rounds.map((round) => byName(round, name).rps / byName(round, BASELINE).rps)).toFixed(2),
    })),
  );
  const share = median(rounds.map((round) => 1 - machineCpuUs(byName(round, WITHOUT)) / machineCpuUs(byName(round, GATEWAY))));
  console.log(`the round trip's share of the machine's CPU per gateway call: ${(share * 100).toFixed(1)}% (median of ${rounds.length} rounds, each taken within its round)`);
}

runBench(main);
