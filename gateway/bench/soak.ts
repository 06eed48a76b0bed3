import { mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startRedisServer } from '../test/support/redis-server';
import { BENCH_ADMIN_TOKEN, BENCH_PATH, BENCH_PROXY_SECRET, createBenchKeys, writeBenchPlans } from './bench-setup';
import { startChild } from './child-server';
import { startBenchGateway } from './gateway-build';
import { paced } from './measure';

/**
 * The gateway (Redis store) under a steady load for SOAK_MINUTES (10) at SOAK_RATE calls a second
 * (half of the peak the caller measured), paced in its own process one minute at a time, sampled
 * after each minute: its RSS, its open sockets (from /proc) and its timers and sockets as Node
 * counts them (`nodejs_active_resources` of /metrics: the ones that hold the process, so the
 * gateway's own unref'd timers are not among them), and where its memory is: V8's heap (total and
 * used) and the memory outside it that V8 is told of (buffers), from the default metrics. The
 * first minute is the warm-up; growth is measured from its end to the last sample.
 */
export interface Soak {
  rate: number;
  minutes: number;
  samples: { minute: number; rssMb: number; heapTotalMb: number; heapUsedMb: number; externalMb: number; sockets: number; timeouts: number; tcp: number; ok: number; sent: number }[];
  /** RSS at the last sample over RSS after the warm-up minute, minus one. */
  rssGrowth: number;
}

const openSockets = (pid: number): number => readdirSync(`/proc/${pid}/fd`).filter((fd) => {
  try {
    return readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:');
  } catch {
    return false;
  }
}).length;

/** Node's own count of a resource type, read from the gateway's metrics. */
function resource(metrics: string, type: string): number {
  return Number(new RegExp(`^nodejs_active_resources\\{type="${type}"\\} (\\d+)`, 'm').exec(metrics)?.[1] ?? 0);
}

/** A gauge of the default metrics, in MB. */
const megabytes = (metrics: string, name: string): number => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(metrics)?.[1] ?? 0) / 1_048_576;

/** See {@link Soak}. */
export async function soak(rate: number, minutes: number): Promise<Soak> {
  const redis = await startRedisServer();
  const upstream = await startChild('bench/upstream.ts', {});
  const dir = mkdtempSync(path.join(tmpdir(), 'tollgate-soak-'));
  const gateway = await startBenchGateway({ TOKEN_URL: upstream.url, PLANS_FILE: writeBenchPlans(dir), ADMIN_TOKEN: BENCH_ADMIN_TOKEN, PROXY_SECRET: BENCH_PROXY_SECRET, REDIS_URL: redis.url, LOG_LEVEL: 'info' });
  try {
    const keysFile = path.join(dir, 'keys.txt');
    writeFileSync(keysFile, (await createBenchKeys(gateway, 200)).join('\n'));
    const samples: Soak['samples'] = [];
    for (let minute = 1; minute <= minutes; minute++) {
      const run = (await paced({ targets: [{ url: gateway.url + BENCH_PATH, keysFile }], rate, seconds: 60, warmupSeconds: 0 })).results[0]!;
      const metrics = await (await fetch(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` } })).text();
      const heap = { heapTotalMb: megabytes(metrics, 'nodejs_heap_size_total_bytes'), heapUsedMb: megabytes(metrics, 'nodejs_heap_size_used_bytes'), externalMb: megabytes(metrics, 'nodejs_external_memory_bytes') };
      samples.push({ minute, rssMb: gateway.rssMb(), ...heap, sockets: openSockets(gateway.pid), timeouts: resource(metrics, 'Timeout'), tcp: resource(metrics, 'TCPSocketWrap'), ok: run.ok, sent: run.sent });
      console.error(`  soak minute ${minute}: RSS ${gateway.rssMb().toFixed(0)} MB (V8 heap ${heap.heapTotalMb.toFixed(0)}, used ${heap.heapUsedMb.toFixed(0)}, external ${heap.externalMb.toFixed(0)}), ${samples.at(-1)!.sockets} sockets, ${samples.at(-1)!.timeouts} timers, ${run.ok}/${run.sent} calls 200`);
    }
    const warm = samples[0]!.rssMb;
    return { rate, minutes, samples, rssGrowth: samples.at(-1)!.rssMb / warm - 1 };
  } finally {
    await gateway.stop();
    await upstream.stop();
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The lines {@link soak} prints on its own. */
export function reportSoak(result: Soak): void {
  console.log(`soak: ${result.minutes} min at ${result.rate} calls/s (Redis store); per minute: RSS MB ${result.samples.map((s) => s.rssMb.toFixed(0)).join(', ')}`);
  console.log(`  V8 heap MB ${result.samples.map((s) => s.heapTotalMb.toFixed(0)).join(', ')}; used ${result.samples.map((s) => s.heapUsedMb.toFixed(0)).join(', ')}; external ${result.samples.map((s) => s.externalMb.toFixed(0)).join(', ')}`);
  console.log(`  open sockets ${result.samples.map((s) => s.sockets).join(', ')}; timers ${result.samples.map((s) => s.timeouts).join(', ')}; calls 200 ${result.samples.map((s) => `${s.ok}/${s.sent}`).join(', ')}`);
  console.log(`  RSS growth after the first minute: ${(result.rssGrowth * 100).toFixed(1)}%  (target < 10%)`);
}

if (require.main === module) {
  soak(Number(process.env.SOAK_RATE ?? 2_000), Number(process.env.SOAK_MINUTES ?? 10))
    .then(reportSoak)
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}
