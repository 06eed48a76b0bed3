import { execFileSync } from 'node:child_process';
import Redis from 'ioredis';
import type { Logger } from '@tollgate/envelope';
import { createBackgroundLoops } from '../src/data/background-loop';
import { createRedisUsageStream } from '../src/data/redis/redis-usage-stream';
import { createUsageStream } from '../src/events/usage-stream';
import { runBench, withBenchServers } from './bench-servers';

/**
 * What the usage stream's loop costs per event, apart from the API path: calls pushed into the
 * ring as the API path pushes them, then flushed to a Redis Stream on a redis-server of its own;
 * CPU of this process (all its threads: the event writing, the client, GC) and of Redis, per event.
 * The loop runs on the gateway's event loop, so its CPU is the stream's share of a call's.
 *
 *   [USAGE_BATCH=500] [USAGE_EVENTS_TOTAL=100000] [USAGE_STREAM_SHARDS=1]
 *   flock /tmp/tollgate-heavy.lock node --conditions=development --import tsx bench/usage-stream-cost.ts
 *
 * Instructions instead of time (repeatable on a loaded machine): run it under callgrind with
 * counting off and USAGE_CALLGRIND=1, which switches counting on for the measured events only,
 *   USAGE_CALLGRIND=1 valgrind --tool=callgrind --instr-atstart=no --separate-threads=yes \
 *     --callgrind-out-file=/tmp/usage.out node --conditions=development --import tsx bench/usage-stream-cost.ts
 * and divide the main thread's `totals:` (and all threads') by USAGE_EVENTS_TOTAL.
 */
const BATCH = Number(process.env.USAGE_BATCH ?? 500);
const TOTAL = Number(process.env.USAGE_EVENTS_TOTAL ?? 100_000);
const SHARDS = Number(process.env.USAGE_STREAM_SHARDS ?? 1);
const ACCOUNTS = 50;
const CALLGRIND = process.env.USAGE_CALLGRIND === '1';
const counting = (on: boolean): void => {
  if (CALLGRIND) execFileSync('callgrind_control', [`--instr=${on ? 'on' : 'off'}`, String(process.pid)], { stdio: 'ignore' });
};
const quiet = { warn() {}, info() {}, error() {}, debug() {} } as unknown as Logger;

async function main(): Promise<void> {
  await withBenchServers(async ({ redis: server }) => {
    const admin = new Redis(server.url);
    const stream = createUsageStream({ writer: createRedisUsageStream(new Redis(server.url), { shards: SHARDS, maxLen: 100_000 }), source: 'urn:tollgate:gateway:bench:1', capacity: BATCH * 2, batch: BATCH, flushMs: 3_600_000, logger: quiet, loops: createBackgroundLoops({ clock: Date.now, logger: quiet }) });
    const redisCpuUs = async (): Promise<number> => {
      const info = await admin.info('cpu');
      return (Number(/used_cpu_user:([\d.]+)/.exec(info)?.[1]) + Number(/used_cpu_sys:([\d.]+)/.exec(info)?.[1])) * 1e6;
    };
    const run = async (events: number): Promise<void> => {
      for (let sent = 0; sent < events; sent += BATCH) {
        for (let i = 0; i < BATCH; i++) {
          const n = sent + i;
          stream.sink.push(`req_${n}`, `acc_${n % ACCOUNTS}`, `key_${n % ACCOUNTS}`, 'token', 'free', 'GET', '/v1/price/{token}', 200, 'admitted', 3.14159, 5.4321, 123, Date.now());
        }
        await stream.flush();
      }
    };
    try {
      // V8 optimises the loop first.
      await run(Math.min(TOTAL, 20_000));
      const redis0 = await redisCpuUs();
      const own = process.cpuUsage();
      counting(true);
      await run(TOTAL);
      counting(false);
      const ownUs = process.cpuUsage(own);
      const redisUs = (await redisCpuUs()) - redis0;
      console.log(
        `usage stream loop, ${TOTAL} events in batches of ${BATCH}, ${SHARDS} shard(s): ${((ownUs.user + ownUs.system) / TOTAL).toFixed(2)} µs of this process's CPU an event (pushing them included), ${(redisUs / TOTAL).toFixed(2)} µs of Redis's`,
      );
    } finally {
      await stream.stop();
      await admin.quit();
    }
  });
}

runBench(main);
