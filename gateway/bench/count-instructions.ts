import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { BENCH_PATH, isHelperServer, keysFor } from './bench-setup';
import { runBench, withBenchServers } from './bench-servers';
import type { BenchServers } from './bench-servers';
import { startChild } from './child-server';
import { envOf, rotate, sendCalls } from './measure';

/**
 * Instructions per proxied call of a gateway build, counted by valgrind's callgrind: a count, not
 * a time, so the main thread's repeats within about 2% whatever else the machine does, where CPU
 * time per call drifts by ±20% here and two builds loaded side by side differ by up to 10% a round.
 * Needs Debian's `valgrind`.
 *
 *   [COUNT_BUILD=dist/main.js] [COUNT_WARMUP=4000] [COUNT_CALLS=2000] [COUNT_STORE=redis|memory] [COUNT_RATE=0] [COUNT_KEEP=dir]
 *   [COUNT_ENV=NAME=value,NAME=value] (more of the gateway's environment: USAGE_EVENTS=redis, QUOTA_ALERTS=false)
 *   node --conditions=development --import tsx bench/count-instructions.ts
 *
 * The gateway runs under callgrind with counting off; after COUNT_WARMUP calls (so V8 has
 * optimised the path), counting is switched on for exactly COUNT_CALLS calls, four at a time, and
 * off again. It prints the main thread's count (JavaScript, the event loop and scavenges), which
 * repeats closely, and all threads' (with V8's background compilation and concurrent GC, which
 * vary by a few percent from run to run). A `.ts` COUNT_BUILD runs through tsx:
 * `bench/bare-proxy.ts` counts the bare proxy, `bench/bare-undici-proxy.ts` the bare proxy on
 * undici's Pool, `bench/baseline.ts` the express-rate-limit baseline.
 */
const BUILD = process.env.COUNT_BUILD ?? 'dist/main.js';
const OTHER = isHelperServer(BUILD);
const WARMUP = Number(process.env.COUNT_WARMUP ?? 4000);
const CALLS = Number(process.env.COUNT_CALLS ?? 2000);
const CONCURRENCY = 4;
// A fixed rate for the counted calls (0: as fast as callgrind lets them go). Work done once a second
// (timers, the usage history's flush) is shared by however many calls a second come: under
// callgrind on a loaded machine that varied from 29 to 64 calls/s, and the count with it, so builds
// with such work are compared at the same rate.
const RATE = Number(process.env.COUNT_RATE ?? 0);

async function main(): Promise<void> {
  await withBenchServers(count);
}

async function count({ upstream, dir, env: benchEnv }: BenchServers): Promise<void> {
  const { REDIS_URL = '', ...withoutRedis } = benchEnv;
  const env: Record<string, string> = {
    ...withoutRedis,
    UPSTREAM_URL: upstream.url,
    LOG_LEVEL: 'info',
    // Callgrind slows the gateway about 50 times: the default 80 ms would turn admissions into 503s.
    REDIS_TIMEOUT_MS: '2000',
    // The plain in-memory store, not the embedded SQLite default.
    ...(process.env.COUNT_STORE === 'memory' ? { STORE_PATH: ':memory:' } : { REDIS_URL }),
    ...envOf((process.env.COUNT_ENV ?? '').split(',')),
  };
  const out = path.join(dir, 'callgrind.out');
  const callgrind = ['valgrind', '--tool=callgrind', '--smc-check=all-non-file', '--instr-atstart=no', '--separate-threads=yes', `--callgrind-out-file=${out}`, `--log-file=${path.join(dir, 'valgrind.log')}`];
  // Under callgrind the gateway starts, and writes its counts at exit, about 50 times slower than natively.
  const child = await startChild(BUILD, env, [], { wrapper: callgrind, startTimeoutMs: 180_000, stopTimeoutMs: 60_000 });
  try {
    const { url } = child;
    const nextKey = rotate(await keysFor(BUILD, { url }, 20));
    const target = url + BENCH_PATH;
    await sendCalls(target, nextKey, WARMUP, CONCURRENCY);
    execFileSync('callgrind_control', ['--instr=on', String(child.pid)], { stdio: 'ignore' });
    const started = performance.now();
    const ok = await sendCalls(target, nextKey, CALLS, CONCURRENCY, RATE);
    const seconds = (performance.now() - started) / 1000;
    execFileSync('callgrind_control', ['--instr=off', String(child.pid)], { stdio: 'ignore' });
    await child.stop();
    const perThread = readdirSync(dir)
      .filter((f) => f.startsWith('callgrind.out'))
      .map((f) => {
        const text = readFileSync(path.join(dir, f), 'utf8');
        return { thread: Number(/^thread: (\d+)/m.exec(text)?.[1]), count: Number(/^totals: (\d+)/m.exec(text)?.[1] ?? 0) };
      });
    const perCall = (n: number) => Math.round(n / CALLS).toLocaleString('en');
    const main = perThread.find((t) => t.thread === 1)?.count ?? Number.NaN;
    const all = perThread.reduce((sum, t) => sum + t.count, 0);
    const what = OTHER ? BUILD.replace(/^.*\//, '') : `${'REDIS_URL' in env ? 'Redis' : 'memory'} store`;
    // COUNT_KEEP=<dir>: keep callgrind's files there, for callgrind_annotate.
    if (process.env.COUNT_KEEP) for (const f of readdirSync(dir)) if (f.startsWith('callgrind.out')) copyFileSync(path.join(dir, f), path.join(process.env.COUNT_KEEP, f));
    console.log(`${BUILD} on Node ${process.version} (${what}${process.env.COUNT_ENV ? `, ${process.env.COUNT_ENV}` : ''}): ${perCall(main)} instructions per call on the main thread, ${perCall(all)} in all threads (${ok}/${CALLS} calls 200, counted over ${seconds.toFixed(1)} s: ${(CALLS / seconds).toFixed(0)} calls/s under callgrind)`);
  } finally {
    await child.stop();
  }
}

runBench(main);
