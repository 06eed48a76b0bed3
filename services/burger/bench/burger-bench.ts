/**
 * Burger benchmark (not a test): builds the service and starts it as `pnpm start` does, its V8 flags included (or as
 * `pnpm run dev` does with BENCH_MODE=dev, whose TypeScript loader adds ~40 MB RSS), on the real dataset
 * served by a local HTTP server, loads each route with autocannon and prints req/s and p50/p99
 * next to the trivial route (/healthz, the ceiling of this stack), the ratio, CSV parse time and RSS.
 *
 * Run: flock /tmp/tollgate-bench.lock pnpm --filter @tollgate/burger run bench
 * Knobs: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 20), BENCH_MODE (dist | dev).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { freePort } from '@tollgate/envelope/test/processes';
import { parseBigMacCsv } from '../src/data/parse-big-mac-csv';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const MODE = process.env.BENCH_MODE === 'dev' ? 'dev' : 'dist';
const SERVICE_DIR = join(__dirname, '..');
// The V8 flags `pnpm start` passes (the young-generation cap that keeps peak RSS under target), so the
// bench measures the process as it is deployed rather than bare `node`.
const START_FLAGS = (JSON.parse(readFileSync(join(SERVICE_DIR, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start
  .split(' ')
  .filter((arg) => arg.startsWith('--'));
const DATASET = resolve(SERVICE_DIR, 'dataset', 'big-mac-full-index.csv');

function rssKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
}

/** Resets the kernel's peak-RSS mark of a process (Linux), so each route's peak is its own. */
function resetPeak(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Without the right to reset, peaks accumulate over the run; the figures say "peak so far" then.
  }
}

function measureParse(text: string): { firstMs: number; medianMs: number } {
  const times: number[] = [];
  for (let i = 0; i < 15; i++) {
    const started = performance.now();
    parseBigMacCsv(text);
    times.push(performance.now() - started);
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { firstMs: times[0] ?? NaN, medianMs: sorted[Math.floor(sorted.length / 2)] ?? NaN };
}

async function load(url: string): Promise<{ rps: number; p50: number; p99: number; errors: number }> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION });
  const errors = result.errors + result.timeouts + result.non2xx;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors };
}

async function main(): Promise<void> {
  if (!existsSync(DATASET)) throw new Error(`real Big Mac dataset missing: expected ${DATASET}`);
  const csv = readFileSync(DATASET, 'utf8');
  const parse = measureParse(csv);

  const files = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(csv));
  await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
  const dataUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}/big-mac-full-index.csv`;

  const port = await freePort();
  if (MODE === 'dist') {
    // The service's build compiles against @tollgate/envelope's dist, so that is built first.
    for (const dir of [join(SERVICE_DIR, '..', '..', 'packages', 'envelope'), SERVICE_DIR]) {
      const build = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: dir, stdio: 'inherit' });
      if (build.status !== 0) throw new Error(`tsc -p tsconfig.build.json failed in ${dir}`);
    }
  }
  const args = [...START_FLAGS, ...(MODE === 'dist' ? ['dist/main.js'] : ['--conditions=development', '--import', 'tsx', 'src/main.ts'])];
  // Logs go to /dev/null: the service still formats every access-log line (LOG_LEVEL=info, its default),
  // but the bench does not spend CPU reading them.
  const child = spawn(process.execPath, args, {
    cwd: SERVICE_DIR,
    env: { ...process.env, PORT: String(port), BURGER_DATA_URL: dataUrl, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  let ready: { parse_ms?: number } = {};
  for (let i = 0; i < 400 && ready.parse_ms === undefined; i++) {
    const res = await fetch(`${base}/readyz`).catch(() => undefined);
    if (res?.status === 200) ready = ((await res.json()) as { data: { parse_ms: number } }).data;
    else await new Promise((r) => setTimeout(r, 50));
  }
  if (ready.parse_ms === undefined) throw new Error('the service did not become ready within 20 s');
  const rssLoaded = rssKb(child.pid ?? 0, 'VmRSS');

  const routes = [
    ['/healthz', '/healthz'],
    ['/v1/index', '/v1/index'],
    ['/v1/index?base=chf&sort=name', '/v1/index?base=chf&sort=name'],
    ['/v1/country?country=Switzerland', '/v1/country?country=Switzerland'],
    ['/v1/extremes', '/v1/extremes'],
    ['/healthz (again)', '/healthz'],
  ] as const;
  const load0 = loadavg()[0] ?? 0;
  const results: { name: string; rps: number; p50: number; p99: number; errors: number; peakMb: number }[] = [];
  const pid = child.pid ?? 0;
  for (const [name, path] of routes) {
    await load(`${base}${path}`); // warm-up, as long as the measured run
    resetPeak(pid);
    const measured = await load(`${base}${path}`);
    results.push({ name, ...measured, peakMb: rssKb(pid, 'VmHWM') / 1024 });
  }
  const load1 = loadavg()[0] ?? 0;
  const rssPeak = Math.max(...results.map((r) => r.peakMb));
  const rssAfter = rssKb(pid, 'VmRSS') / 1024;
  child.kill('SIGTERM');
  files.close();

  const trivial = results.filter((r) => r.name.startsWith('/healthz'));
  const ceiling = trivial.reduce((sum, r) => sum + r.rps, 0) / trivial.length;
  console.log(`burger bench: node ${args.join(' ')}; ${CONNECTIONS} connections, ${DURATION} s per route after an equal warm-up; LOG_LEVEL=info (every request logged)`);
  console.log(`load average (1 min, 2 shared cores) before ${load0.toFixed(2)}, after ${load1.toFixed(2)}; node ${process.version}`);
  console.log('route                                   req/s   p50 ms   p99 ms   vs /healthz   errors   peak RSS MB');
  for (const r of results) {
    const ratio = `${((r.rps / ceiling) * 100).toFixed(0)}%`;
    const cells = [r.rps.toFixed(0).padStart(6), String(r.p50).padStart(8), String(r.p99).padStart(8), ratio.padStart(13), String(r.errors).padStart(8), r.peakMb.toFixed(1).padStart(13)];
    console.log(`${r.name.padEnd(38)} ${cells.join(' ')}`);
  }
  const index = results.find((r) => r.name === '/v1/index');
  console.log(`ceiling (mean of the two /healthz runs): ${ceiling.toFixed(0)} req/s; /v1/index at ${(((index?.rps ?? 0) / ceiling) * 100).toFixed(0)}% (target >= 70%)`);
  console.log(`CSV parse (${csv.length} bytes, ${csv.trim().split('\n').length - 1} rows): in service ${ready.parse_ms} ms (cold); bench process first ${parse.firstMs.toFixed(1)} ms, median of 15 ${parse.medianMs.toFixed(1)} ms (target < 100 ms)`);
  console.log(`service RSS: ${(rssLoaded / 1024).toFixed(1)} MB after load, peak ${rssPeak.toFixed(1)} MB under load, ${rssAfter.toFixed(1)} MB at the end (target < 150 MB)`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
