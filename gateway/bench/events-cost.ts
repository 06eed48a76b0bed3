import { loadavg } from 'node:os';
import Redis from 'ioredis';
import { redisKeys } from '../src/data/redis/redis-keys';
import { createBenchKeys } from './bench-setup';
import { runBench, withBenchServers } from './bench-servers';
import type { ChildServer } from './child-server';
import { GATEWAY_SOURCE, buildGateway, startBenchGateway } from './gateway-build';
import { BENCH_LOAD, byName, measure, median, rotate } from './measure';
import type { Row } from './measure';

/**
 * What issue 23's events cost the API path: three gateways on one Redis and one upstream, measured
 * side by side in rounds (the order turned each round, so the machine's drift falls on each alike):
 *
 * - `events off`: QUOTA_ALERTS=false, no usage stream (the API path as before issue 23);
 * - `alerts on`: the default (the quota observer on every admitted call; the bench's quota is never
 *   near 80%, as most accounts' calls are not);
 * - `alerts and stream on`: USAGE_EVENTS=redis on the store's Redis (USAGE_STREAM_MAXLEN=100000,
 *   so the stream does not grow Redis by hundreds of MB during the run).
 *
 * Each ratio (req/s, and CPU per call of the gateway and Redis together) is taken within a round;
 * the median of the rounds is reported.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const KEYS = 200;
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
export const OFF = 'events off';
export const ALERTS = 'alerts on';
export const STREAM = 'alerts and stream on';

/** What {@link eventsCost} measured. */
export interface EventsCost {
  rounds: Row[][];
  /** alerts on / events off, req/s, per round. */
  alerts: number[];
  /** alerts and stream on / alerts on, req/s, per round. */
  stream: number[];
  /** The same, as CPU per call (gateway + Redis) off / on. */
  alertsCpu: number[];
  streamCpu: number[];
  streamEntries: number;
}

export async function eventsCost(roundCount: number): Promise<EventsCost> {
  const rounds: Row[][] = [];
  let streamEntries = 0;
  await withBenchServers(async ({ redis: redisServer, env: benchEnv }) => {
    const redis = new Redis(redisServer.url);
    const servers: ChildServer[] = [];
    try {
      const start = async (extra: Record<string, string>): Promise<ChildServer> => {
        const server = await startBenchGateway({ ...benchEnv, LOG_LEVEL, ...extra });
        servers.push(server);
        return server;
      };
      const targets: [string, ChildServer][] = [
        [OFF, await start({ QUOTA_ALERTS: 'false' })],
        [ALERTS, await start({})],
        [STREAM, await start({ USAGE_EVENTS: 'redis', USAGE_STREAM_MAXLEN: '100000' })],
      ];
      const keys = new Map<string, () => string>();
      for (const [name, server] of targets) keys.set(name, rotate(await createBenchKeys(server, KEYS)));
      for (let round = 0; round < roundCount; round++) {
        console.error(`events round ${round + 1} of ${roundCount}`);
        const order = [...targets.slice(round % 3), ...targets.slice(0, round % 3)];
        const rows: Row[] = [];
        for (const [name, server] of order) rows.push(await measure(name, server, BENCH_LOAD, keys.get(name)!, redis));
        rounds.push(rows);
      }
      streamEntries = await redis.xlen(redisKeys.usageStream(0));
    } finally {
      for (const server of servers) await server.stop();
      await redis.quit();
    }
  });
  const rps = (a: string, b: string) => rounds.map((r) => byName(r, a).rps / byName(r, b).rps);
  const cpu = (row: Row) => row.cpuUs + (row.redisCpuUs ?? 0);
  const cpuRatio = (on: string, off: string) => rounds.map((r) => cpu(byName(r, off)) / cpu(byName(r, on)));
  return { rounds, alerts: rps(ALERTS, OFF), stream: rps(STREAM, ALERTS), alertsCpu: cpuRatio(ALERTS, OFF), streamCpu: cpuRatio(STREAM, ALERTS), streamEntries };
}

/** Prints the rows and the ratios. */
export function reportEventsCost(run: EventsCost): void {
  const each = (xs: number[]) => xs.map((x) => x.toFixed(3)).join(', ');
  console.log(`\nTollgate events cost — ${new Date().toISOString()}, gateway from ${GATEWAY_SOURCE}, ${BENCH_LOAD.connections} connections, ${BENCH_LOAD.seconds} s each, ${run.rounds.length} rounds, LOG_LEVEL=${LOG_LEVEL}`);
  console.table(run.rounds.flat().map((r) => ({ target: r.name, 'req/s': Math.round(r.rps), 'p99 ms': r.p99, 'non-2xx': r.non2xx, 'gateway CPU µs/call': r.cpuUs.toFixed(0), 'Redis CPU µs/call': (r.redisCpuUs ?? 0).toFixed(0), 'Redis cmds/call': (r.commands ?? 0).toFixed(2), 'peak RSS MB': r.rssMb.toFixed(0) })));
  console.log(`alerts on / off, req/s: ${median(run.alerts).toFixed(3)} (rounds: ${each(run.alerts)}); by CPU per call: ${median(run.alertsCpu).toFixed(3)} (${each(run.alertsCpu)})  (target ≥ 0.95)`);
  console.log(`stream on / off, req/s: ${median(run.stream).toFixed(3)} (rounds: ${each(run.stream)}); by CPU per call: ${median(run.streamCpu).toFixed(3)} (${each(run.streamCpu)})  (target ≥ 0.95)`);
  console.log(`stream entries in Redis at the end: ${run.streamEntries} (MAXLEN ~ 100000)`);
}

if (require.main === module) {
  runBench(async () => {
    buildGateway();
    console.error(`load average ${loadavg()[0]?.toFixed(2)}`);
    reportEventsCost(await eventsCost(ROUNDS));
  });
}
