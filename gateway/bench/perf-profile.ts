import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { BENCH_PATH, isHelperServer, keysFor } from './bench-setup';
import { runBench, withBenchServers } from './bench-servers';
import { startChild } from './child-server';
import { START_FLAGS, buildGateway } from './gateway-build';
import { rotate } from './measure';

/**
 * Where a server's CPU time goes, sampled by Linux `perf` on the CPU clock: unlike `cpu-profile.ts`
 * (V8's profiler samples wall time, so a process descheduled inside a socket write has that time
 * counted as the write's), a sample is taken only while the process runs. The server runs with
 * `--perf-basic-prof` (V8 names its compiled code for perf), is loaded by 64 connections and
 * sampled for PERF_SECONDS (8) after a 3 s warm-up; the report is the CPU time per call by where
 * the code lives (the kernel, the node binary: V8's builtins and runtime, libuv, llhttp; code V8
 * compiled from JavaScript; libc) and the PERF_TOP (25) symbols with the most.
 *
 *   [PERF_BUILD=dist/main.js|bench/bare-undici-proxy.ts|bench/baseline.ts|...] [PERF_SECONDS=8] [PERF_TOP=25]
 *   flock /tmp/tollgate-heavy.lock node ../scripts/with-node.mjs 24 node --conditions=development --import tsx bench/perf-profile.ts
 *
 * Needs Debian's `linux-perf` and `kernel.perf_event_paranoid` at 2 or less (a process's own
 * samples; the default).
 */
const BUILD = process.env.PERF_BUILD ?? 'dist/main.js';
const SECONDS = Number(process.env.PERF_SECONDS ?? 8);
const TOP = Number(process.env.PERF_TOP ?? 25);

/** `perf report` by one sort key: each line's share (0–1) and name, and the CPU-clock time sampled in all (ns). */
function report(data: string, sort: string): { lines: { share: number; name: string }[]; sampledNs: number } {
  const text = execFileSync('perf', ['report', '-i', data, '--no-children', '--sort', sort, '--stdio'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
  return {
    lines: [...text.matchAll(/^\s+([\d.]+)%\s+(.+?)\s*$/gm)].map((m) => ({ share: Number(m[1]) / 100, name: m[2] as string })),
    sampledNs: Number(/Event count \(approx\.\): (\d+)/.exec(text)?.[1] ?? Number.NaN),
  };
}

async function main(): Promise<void> {
  if (!isHelperServer(BUILD)) buildGateway();
  await withBenchServers(async ({ dir, env }) => {
    const flags = [...(isHelperServer(BUILD) ? [] : START_FLAGS), '--perf-basic-prof'];
    const server = await startChild(BUILD, { ...env, UPSTREAM_URL: env.TOKEN_URL ?? '' }, flags);
    try {
      const nextKey = rotate(await keysFor(BUILD, server, 200));
      const load = (seconds: number) =>
        autocannon({ url: server.url + BENCH_PATH, connections: 64, duration: seconds, requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'x-tollgate-key': nextKey() } }) }] });
      await load(3);
      const data = path.join(dir, 'perf.data');
      const perf = spawn('perf', ['record', '-F', '1999', '-p', String(server.pid), '-o', data, '--', 'sleep', String(SECONDS)], { stdio: 'ignore' });
      const closed = new Promise<number | null>((resolve) => perf.once('close', resolve));
      const result = await load(SECONDS);
      if ((await closed) !== 0) throw new Error('perf record failed: is linux-perf installed, and kernel.perf_event_paranoid at 2 or less?');
      const byDso = report(data, 'dso');
      const perCallUs = byDso.sampledNs / 1000 / result.requests.total;
      const where = (name: string): string => (name.startsWith('[JIT]') ? 'compiled JavaScript' : name.startsWith('[kernel') ? 'kernel' : name);
      const byPlace = new Map<string, number>();
      for (const { share, name } of byDso.lines) byPlace.set(where(name), (byPlace.get(where(name)) ?? 0) + share);
      console.log(`${BUILD} on Node ${process.version}: ${result.requests.total} calls in ${SECONDS} s (${result['2xx']} 2xx), ${perCallUs.toFixed(1)} µs of CPU a call sampled`);
      console.table([...byPlace].map(([place, share]) => ({ where: place, share: `${(share * 100).toFixed(1)}%`, 'µs a call': (share * perCallUs).toFixed(1) })));
      console.table(report(data, 'sym').lines.slice(0, TOP).map(({ share, name }) => ({ symbol: name.slice(0, 110), share: `${(share * 100).toFixed(2)}%`, 'µs a call': (share * perCallUs).toFixed(2) })));
    } finally {
      await server.stop();
    }
  });
}

runBench(main);
