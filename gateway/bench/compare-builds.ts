import autocannon from 'autocannon';
import { BENCH_PATH, createBenchKeys } from './bench-setup';
import { runBench, withBenchServers } from './bench-servers';
import type { BenchServers } from './bench-servers';
import { startChild } from './child-server';
import type { ChildServer } from './child-server';
import { envOf, median } from './measure';
import { pacedLoad } from './paced-load';

/**
 * Compares the CPU per call of two gateway builds loaded at the same time, for judging a change:
 * on a shared VM the machine's speed drifts by ±20% within a minute, so runs one after the other
 * cannot tell a 5% change, while two processes measured over the same seconds drift together
 * (the same build on both sides reads within 1–3%).
 *
 *   COMPARE=old/dist/main.js,dist/main.js [COMPARE_MODE=saturate|paced] [COMPARE_RATE=1000]
 *   [COMPARE_ROUNDS=3] [COMPARE_SECONDS=6] [COMPARE_FLAGS_1=... COMPARE_FLAGS_2=...]
 *   [COMPARE_ENV_1='NAME=value ...' COMPARE_ENV_2=...]
 *   node --conditions=development --import tsx bench/compare-builds.ts
 *
 * COMPARE_FLAGS_1/2 are node flags for each side, so one build can also be compared with itself
 * under different V8 settings; COMPARE_ENV_1/2 add environment variables to each side's, so it can
 * be compared with itself under different settings (LOG_LEVEL=warn prices the access lines).
 *
 * Copy a build aside first (`cp -r dist old-dist`): a copy under gateway/ resolves the same
 * node_modules. `saturate` gives each build 32 autocannon connections; `paced` sends each
 * COMPARE_RATE calls a second, which is how the gateway runs below its peak.
 */
const BUILDS = (process.env.COMPARE ?? '').split(',').filter(Boolean);
const MODE = process.env.COMPARE_MODE === 'paced' ? 'paced' : 'saturate';
const RATE = Number(process.env.COMPARE_RATE ?? 1000);
const ROUNDS = Number(process.env.COMPARE_ROUNDS ?? 3);
const SECONDS = Number(process.env.COMPARE_SECONDS ?? 6);
const KEYS = 200;

/** Loads one gateway for `seconds`; resolves with the number of calls sent and their p99 (ms). */
async function loadOne(gateway: ChildServer, keys: string[], seconds: number): Promise<{ sent: number; p99: number }> {
  if (MODE === 'paced') return pacedLoad({ url: gateway.url + BENCH_PATH, ratePerSecond: RATE, seconds, warmupSeconds: 0, keys });
  let next = 0;
  const header = (): Record<string, string> => ({ 'x-tollgate-key': keys[next++ % keys.length] as string });
  const result = await autocannon({
    url: gateway.url + BENCH_PATH,
    connections: 32,
    duration: seconds,
    requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, ...header() } }) }],
  });
  return { sent: result.requests.total, p99: result.latency.p99 };
}

async function main(): Promise<void> {
  if (BUILDS.length !== 2) throw new Error('COMPARE must name two builds, e.g. COMPARE=old-dist/main.js,dist/main.js');
  await withBenchServers(compare);
}

async function compare({ env }: BenchServers): Promise<void> {
  const gateways: ChildServer[] = [];
  let sampler: NodeJS.Timeout | undefined;
  try {
    const words = (name: string): string[] => (process.env[name] ?? '').split(' ').filter(Boolean);
    for (const [i, build] of BUILDS.entries()) {
      gateways.push(await startChild(build, { ...env, ...envOf(words(`COMPARE_ENV_${i + 1}`)) }, words(`COMPARE_FLAGS_${i + 1}`)));
    }
    const keys = await Promise.all(gateways.map((g) => createBenchKeys(g, KEYS)));
    await Promise.all(gateways.map((g, i) => loadOne(g, keys[i] as string[], 2)));
    const ratios: number[] = [];
    const rpsRatios: number[] = [];
    // Peak RSS under the load, sampled as the bench's own table does (V8 flags such as the young
    // generation's size trade it against CPU, so a comparison of flags reads both).
    const peakRss = gateways.map(() => 0);
    // A gateway that died leaves no /proc entry: its load then fails and says so, not this sampler.
    const rssOf = (g: ChildServer): number => {
      try {
        return g.rssMb();
      } catch {
        return 0;
      }
    };
    sampler = setInterval(() => gateways.forEach((g, i) => (peakRss[i] = Math.max(peakRss[i] as number, rssOf(g)))), 100);
    for (let round = 1; round <= ROUNDS; round++) {
      const before = gateways.map((g) => g.cpuSeconds());
      const runs = await Promise.all(gateways.map((g, i) => loadOne(g, keys[i] as string[], SECONDS)));
      const perCall = gateways.map((g, i) => ((g.cpuSeconds() - (before[i] as number)) * 1e6) / (runs[i]?.sent as number));
      ratios.push((perCall[1] as number) / (perCall[0] as number));
      rpsRatios.push((runs[1]?.sent as number) / (runs[0]?.sent as number));
      const side = (b: string, i: number) => `${b} ${((runs[i]?.sent as number) / SECONDS).toFixed(0)} req/s, ${(perCall[i] as number).toFixed(0)} µs/call, p99 ${runs[i]?.p99.toFixed(1)} ms`;
      console.log(`round ${round}: ${BUILDS.map(side).join('; ')}; CPU second / first ${(ratios.at(-1) as number).toFixed(3)}; req/s second / first ${(rpsRatios.at(-1) as number).toFixed(3)}`);
    }
    console.log(`${MODE}${MODE === 'paced' ? ` at ${RATE}/s each` : ''}: CPU per call, second / first, median of ${ROUNDS}: ${median(ratios).toFixed(3)} (rounds ${ratios.map((r) => r.toFixed(3)).join(', ')})`);
    if (MODE === 'saturate') console.log(`saturate: req/s, second / first, median of ${ROUNDS}: ${median(rpsRatios).toFixed(3)} (rounds ${rpsRatios.map((r) => r.toFixed(3)).join(', ')})`);
    console.log(`peak RSS under load, MB: ${BUILDS.map((b, i) => `${b} ${(peakRss[i] as number).toFixed(0)}`).join('; ')}`);
  } finally {
    clearInterval(sampler);
    for (const g of gateways) await g.stop();
  }
}

runBench(main);
