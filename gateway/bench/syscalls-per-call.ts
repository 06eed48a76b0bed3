import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BENCH_PATH, isHelperServer, keysFor } from './bench-setup';
import { runBench, withBenchServers } from './bench-servers';
import { startChild } from './child-server';
import { START_FLAGS, buildGateway } from './gateway-build';
import { rotate, sendCalls } from './measure';

/**
 * The system calls a proxied call costs each server: the built gateway (Redis store), the bare
 * node:http proxy and the express-rate-limit baseline (SYSCALLS_TARGETS), one after the other on the same upstream
 * and Redis, each traced by `strace -c -f` over SYSCALLS_CALLS (5,000) calls at 64 connections
 * after 3,000 untraced. Counts, not times: what a call asks of the kernel does not depend on what
 * else the machine does. Needs Debian's `strace`.
 *
 *   [SYSCALLS_CALLS=5000] [SYSCALLS_TARGETS=dist/main.js,bench/bare-undici-proxy.ts] flock /tmp/tollgate-heavy.lock node --conditions=development --import tsx bench/syscalls-per-call.ts
 */
const CALLS = Number(process.env.SYSCALLS_CALLS ?? 5000);
const TARGETS = (process.env.SYSCALLS_TARGETS ?? 'dist/main.js,bench/bare-proxy.ts,bench/baseline.ts').split(',');

async function main(): Promise<void> {
  buildGateway();
  await withBenchServers(async ({ dir, env }) => {
    console.log(`Node ${process.version}; ${CALLS} calls at 64 connections after 3,000 untraced; system calls per call`);
    const rows: Record<string, Record<string, string>> = {};
    for (const build of TARGETS) {
      const server = await startChild(build, { ...env, UPSTREAM_URL: env.TOKEN_URL ?? '', LOG_LEVEL: 'info' }, isHelperServer(build) ? [] : START_FLAGS);
      try {
        const nextKey = rotate(await keysFor(build, server, 200));
        await sendCalls(server.url + BENCH_PATH, nextKey, 3000, 64);
        const out = path.join(dir, `strace-${path.basename(build)}.txt`);
        const strace = spawn('strace', ['-c', '-f', '-o', out, '-p', String(server.pid)], { stdio: 'ignore' });
        await new Promise((resolve) => setTimeout(resolve, 500));
        const ok = await sendCalls(server.url + BENCH_PATH, nextKey, CALLS, 64);
        strace.kill('SIGINT');
        await new Promise((resolve) => strace.once('exit', resolve));
        if (ok !== CALLS) throw new Error(`${build}: ${ok} of ${CALLS} calls answered 2xx`);
        const counts: Record<string, string> = {};
        for (const line of readFileSync(out, 'utf8').split('\n')) {
          const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)\s*$/.exec(line);
          if (m) counts[m[2] as string] = (Number(m[1]) / CALLS).toFixed(2);
        }
        rows[build] = counts;
      } finally {
        await server.stop();
      }
    }
    const names = [...new Set(Object.values(rows).flatMap((r) => Object.keys(r)))].sort();
    console.table(Object.fromEntries(names.map((name) => [name, Object.fromEntries(TARGETS.map((t) => [t, rows[t]?.[name] ?? '-']))])));
  });
}

runBench(main);
