import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BENCH_PATH, createBenchKeys } from './bench-setup';
import { runBench, withBenchServers } from './bench-servers';
import { startChild } from './child-server';
import { median, rotate, sendCalls } from './measure';

/**
 * What the young-generation collector does per call at saturation, read from V8's own trace
 * (`--trace-gc-nvp`): how much of what a scavenge finds alive it keeps, how much it promotes, how
 * long it pauses the gateway. A call lives a few ms, so a healthy proxy promotes almost nothing
 * (the bare proxy: about 1 KB a scavenge, under 1 ms); what a scavenge promotes is kept until a
 * full collection, so promotion is memory, pauses and GC-thread CPU at once. Counts, not clocks:
 * they hold on a busy machine.
 *
 *   [GC_BUILDS=old-dist/main.js,dist/main.js] [GC_ROUNDS=2] [GC_CALLS=40000]
 *   node --conditions=development --import tsx bench/gc-per-call.ts
 *
 * Builds are measured in turn, GC_ROUNDS times each; a build is a gateway `main.js` (copy one
 * aside under gateway/ to compare: `cp -r dist old-dist`), or `bench/bare-proxy.ts`.
 */
const BUILDS = (process.env.GC_BUILDS ?? 'bench/bare-proxy.ts,dist/main.js').split(',').filter(Boolean);
const ROUNDS = Number(process.env.GC_ROUNDS ?? 2);
const CALLS = Number(process.env.GC_CALLS ?? 40_000);
const WARMUP = 10_000;
const CONNECTIONS = 64;

interface Scavenges {
  count: number;
  pauseMs: number;
  survivedKb: number;
  promotedKb: number;
  promotionRate: number;
  allocatedKbPerCall: number;
  fullGcs: number;
}

/** The scavenges (and full collections) of `lines`, one `--trace-gc-nvp` entry each. */
function readTrace(lines: string[], calls: number): Scavenges {
  const field = (line: string, name: string): number => Number(new RegExp(`\\b${name}=([\\d.]+)`).exec(line)?.[1] ?? 0);
  const scavenges = lines.filter((l) => / gc=s /.test(l));
  const sum = (name: string) => scavenges.reduce((s, l) => s + field(l, name), 0);
  return {
    count: scavenges.length,
    pauseMs: sum('pause') / scavenges.length,
    survivedKb: sum('new_space_survived') / 1024 / scavenges.length,
    promotedKb: sum('promoted') / 1024 / scavenges.length,
    promotionRate: median(scavenges.map((l) => field(l, 'promotion_rate'))),
    allocatedKbPerCall: sum('allocated') / 1024 / calls,
    fullGcs: lines.filter((l) => / gc=(mc|ms) /.test(l)).length,
  };
}

async function measureBuild(build: string, env: Record<string, string>, dir: string): Promise<Scavenges> {
  const trace = path.join(dir, 'gc.log');
  // V8 prints its trace on stdout, which the child's stdio leaves out: the shell sends it to a file.
  const server = await startChild(build, env, ['--trace-gc-nvp'], { wrapper: ['sh', '-c', `exec "$0" "$@" > ${trace}`] });
  try {
    const bare = build.endsWith('bare-proxy.ts');
    const keys = bare ? () => 'none' : rotate(await createBenchKeys(server, 200));
    const url = server.url + BENCH_PATH;
    await sendCalls(url, keys, WARMUP, CONNECTIONS);
    const gcLines = () => readFileSync(trace, 'utf8').split('\n').filter((l) => / gc=/.test(l));
    const before = gcLines().length;
    const ok = await sendCalls(url, keys, CALLS, CONNECTIONS);
    if (ok !== CALLS) throw new Error(`${build}: ${CALLS - ok} of ${CALLS} calls were not answered 2xx`);
    return readTrace(gcLines().slice(before), CALLS);
  } finally {
    await server.stop();
  }
}

runBench(async () => {
  await withBenchServers(async ({ env, upstream }) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tollgate-gc-'));
    const rows: Record<string, string | number>[] = [];
    try {
      for (let round = 1; round <= ROUNDS; round++) {
        for (const build of BUILDS) {
          const s = await measureBuild(build, { ...env, UPSTREAM_URL: upstream.url, LOG_LEVEL: 'info' }, dir);
          rows.push({
            round,
            build,
            scavenges: s.count,
            'mean pause ms': s.pauseMs.toFixed(2),
            'survived KB a scavenge': Math.round(s.survivedKb),
            'promoted KB a scavenge': Math.round(s.promotedKb),
            'promotion rate %': s.promotionRate,
            'allocated KB a call': s.allocatedKbPerCall.toFixed(1),
            'full GCs': s.fullGcs,
          });
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    console.log(`\nYoung-generation collections over ${CALLS} calls at saturation (${CONNECTIONS} connections, after ${WARMUP} of warm-up), from --trace-gc-nvp:`);
    console.table(rows);
  });
});
