import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { LOCAL_COINS } from '../test/support/local-indexer';
import { freePorts, waitForOk } from '@tollgate/envelope/test/processes';

// Benchmark (not a test): GET /v1/price with 12 tokens against the local indexer, each in its own
// process. Latency is measured with sequential keep-alive requests timed in microseconds (one at a
// time, so call coalescing never helps); throughput with autocannon over rotating token sets.

const root = join(__dirname, '..');
const LATENCY_REQUESTS = Number(process.env.BENCH_LATENCY_REQUESTS ?? 3000);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const TARGET_ADDED_P50_MS = 2;

function start(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--conditions=development', '--import', 'tsx', ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function timeOne(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    http
      .get(url, { agent }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`${url} answered ${res.statusCode}`));
          else resolve(Number(process.hrtime.bigint() - started) / 1e6);
        });
      })
      .on('error', reject);
  });
}

async function latency(url: string): Promise<{ p50: number; p99: number; mean: number }> {
  for (let i = 0; i < 200; i += 1) await timeOne(url);
  const samples: number[] = [];
  for (let i = 0; i < LATENCY_REQUESTS; i += 1) samples.push(await timeOne(url));
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  return { p50: at(0.5), p99: at(0.99), mean: samples.reduce((a, b) => a + b, 0) / samples.length };
}

function throughput(base: string, paths: string[]): Promise<autocannon.Result> {
  let next = 0;
  return autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: DURATION_S,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length]! }) }],
  });
}

const ms = (n: number) => n.toFixed(3).padStart(9);

async function main(): Promise<void> {
  const ids = LOCAL_COINS.map((c) => c.id);
  // Rotating sets of 12, so that concurrent requests are mostly different calls upstream.
  const sets = Array.from({ length: ids.length }, (_, i) => Array.from({ length: 12 }, (_, j) => ids[(i + j) % ids.length]!));
  const [indexerPort, servicePort] = (await freePorts(2)) as [number, number];
  const indexer = start(['bench/local-indexer-server.ts', String(indexerPort)], {});
  const service = start(['src/main.ts'], { PORT: String(servicePort), TOKEN_UPSTREAM_URL: `http://127.0.0.1:${indexerPort}`, LOG_LEVEL: 'info' });
  try {
    const indexerBase = `http://127.0.0.1:${indexerPort}`;
    const serviceBase = `http://127.0.0.1:${servicePort}`;
    await waitForOk(`${indexerBase}/chains`);
    await waitForOk(`${serviceBase}/readyz`);
    const upstreamPath = `/prices/current/${sets[0]!.join(',')}`;
    const servicePath = `/v1/price?tokens=${sets[0]!.join(',')}`;

    const direct = await latency(indexerBase + upstreamPath);
    const through = await latency(serviceBase + servicePath);
    const load = await throughput(serviceBase, sets.map((s) => `/v1/price?tokens=${s.join(',')}`));
    const added = through.p50 - direct.p50;

    console.log(`token /v1/price bench: 12 tokens, local indexer, ${LATENCY_REQUESTS} sequential requests for latency`);
    console.log(`machine: ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    console.log(`                              p50 ms    p99 ms   mean ms`);
    console.log(`indexer alone             ${ms(direct.p50)} ${ms(direct.p99)} ${ms(direct.mean)}`);
    console.log(`service (via indexer)     ${ms(through.p50)} ${ms(through.p99)} ${ms(through.mean)}`);
    console.log(`added by the service      ${ms(added)} ${ms(through.p99 - direct.p99)} ${ms(through.mean - direct.mean)}`);
    console.log(
      `throughput: ${load.requests.average.toFixed(0)} req/s over ${DURATION_S} s, ${CONNECTIONS} connections ` +
        `(p50 ${load.latency.p50} ms, p99 ${load.latency.p99} ms, non-2xx ${load.non2xx}, errors ${load.errors})`,
    );
    console.log(`added p50 ${added.toFixed(3)} ms vs target <= ${TARGET_ADDED_P50_MS} ms: ${added <= TARGET_ADDED_P50_MS ? 'MET' : 'NOT MET'}`);
  } finally {
    agent.destroy();
    service.kill('SIGTERM');
    indexer.kill('SIGTERM');
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
