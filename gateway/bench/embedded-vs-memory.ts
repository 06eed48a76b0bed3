import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { BENCH_ADMIN_TOKEN, BENCH_PROXY_SECRET, createBenchKeys, writeBenchPlans } from './bench-setup';
import { startChild } from './child-server';
import type { ChildServer } from './child-server';
import { GATEWAY_SOURCE, buildGateway, startBenchGateway } from './gateway-build';
import { BENCH_LOAD, alternatingRounds, byName, measure, median, rotate } from './measure';
import type { Row } from './measure';

/**
 * The embedded SQLite store against the plain in-memory one (`STORE_PATH=:memory:`): gateway
 * requests/s side by side in one run. Both gateways run from the start; each round measures both,
 * in alternating order (memory first in odd rounds, SQLite first in even ones), so the machine's
 * drift falls on both alike; the ratio is taken within each round and its median reported.
 * BENCH_MODE=dist (default) runs the compiled gateway with its `start` flags, BENCH_MODE=dev src/.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const KEYS = 200;
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const SQLITE_FIRST = process.env.BENCH_SQLITE_FIRST === '1';
const MEMORY = 'gateway, in-memory store';
const SQLITE = 'gateway, SQLite store';

/** What {@link embeddedVsMemory} measured: the rounds, and SQLite over in-memory req/s in each. */
export interface EmbeddedVsMemory {
  rounds: Row[][];
  ratios: number[];
  fileMb: number;
}

/** See the top of this file; the gateway must be built (gateway-build.ts). */
export async function embeddedVsMemory(roundCount: number): Promise<EmbeddedVsMemory> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tollgate-embedded-bench-'));
  const storeFile = path.join(dir, 'data', 'tollgate.db');
  const upstream = await startChild('bench/upstream.ts', {});
  const env = { TOKEN_URL: upstream.url, PLANS_FILE: writeBenchPlans(dir), ADMIN_TOKEN: BENCH_ADMIN_TOKEN, LOG_LEVEL, PROXY_SECRET: BENCH_PROXY_SECRET };
  const servers: ChildServer[] = [];
  let rounds: Row[][] = [];
  let fileMb = 0;
  try {
    // BENCH_SQLITE_FIRST=1 starts the SQLite gateway first, to see that the start order does not decide the result.
    const start = (storePath: string) => startBenchGateway({ ...env, STORE_PATH: storePath }).then((server) => (servers.push(server), server));
    let memory: ChildServer;
    let sqlite: ChildServer;
    if (SQLITE_FIRST) {
      sqlite = await start(storeFile);
      memory = await start(':memory:');
    } else {
      memory = await start(':memory:');
      sqlite = await start(storeFile);
    }
    const memoryKeys = rotate(await createBenchKeys(memory, KEYS));
    const sqliteKeys = rotate(await createBenchKeys(sqlite, KEYS));
    rounds = await alternatingRounds(
      roundCount,
      () => measure(MEMORY, memory, BENCH_LOAD, memoryKeys),
      () => measure(SQLITE, sqlite, BENCH_LOAD, sqliteKeys),
    );
    await sqlite.stop();
    servers.splice(servers.indexOf(sqlite), 1);
    fileMb = statSync(storeFile).size / 1e6;
  } finally {
    for (const server of servers) await server.stop();
    await upstream.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return { rounds, ratios: rounds.map((rows) => byName(rows, SQLITE).rps / byName(rows, MEMORY).rps), fileMb };
}

async function main(): Promise<void> {
  buildGateway();
  const load1 = loadavg()[0]?.toFixed(2);
  console.error(`load average ${load1}; ${BENCH_LOAD.connections} connections, ${BENCH_LOAD.seconds} s per target after ${BENCH_LOAD.warmupSeconds} s warm-up, ${ROUNDS} rounds`);
  const { rounds, fileMb } = await embeddedVsMemory(ROUNDS);
  report(rounds, load1, fileMb);
}

function report(rounds: Row[][], load1: string | undefined, fileMb: number): void {
  console.log(`\nTollgate embedded store bench — ${new Date().toISOString()}, load average at start ${load1}, ${BENCH_LOAD.connections} connections, ${BENCH_LOAD.seconds} s each, gateway from ${GATEWAY_SOURCE}, LOG_LEVEL=${LOG_LEVEL}, ${KEYS} keys rotated, ${rounds.length} alternating rounds`);
  console.table(
    rounds.flatMap((rows, i) =>
      [MEMORY, SQLITE].map((name) => {
        const r = byName(rows, name);
        return { round: i + 1, target: name, 'req/s': Math.round(r.rps), 'p50 ms': r.p50, 'p99 ms': r.p99, 'non-2xx': r.non2xx, 'server CPU µs/call': r.cpuUs.toFixed(0), 'peak RSS MB': r.rssMb.toFixed(0) };
      }),
    ),
  );
  const ratios = rounds.map((rows) => byName(rows, SQLITE).rps / byName(rows, MEMORY).rps);
  const rps = (name: string) => Math.round(median(rounds.map((rows) => byName(rows, name).rps)));
  console.log(`median req/s: in-memory ${rps(MEMORY)}, SQLite ${rps(SQLITE)}`);
  console.log(`SQLite / in-memory, req/s: ${median(ratios).toFixed(2)} (rounds: ${ratios.map((x) => x.toFixed(2)).join(', ')})  (target ≥ 0.90)`);
  console.log(`store file after the run and a graceful stop: ${fileMb.toFixed(2)} MB`);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
