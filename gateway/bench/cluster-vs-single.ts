import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Redis from 'ioredis';
import { startRedisCluster } from '../test/support/redis-cluster';
import { startRedisServer } from '../test/support/redis-server';
import { BENCH_ADMIN_TOKEN, BENCH_PATH, BENCH_PROXY_SECRET, createBenchKeys, writeBenchPlans } from './bench-setup';
import { processCpuSeconds, startChild } from './child-server';
import type { ChildServer } from './child-server';
import { GATEWAY_SOURCE, buildGateway, startBenchGateway } from './gateway-build';
import { BENCH_LOAD, alternatingRounds, byName, measure, median, rotate } from './measure';
import type { Row } from './measure';

/**
 * Gateway requests/s on one Redis and on a Redis Cluster of three masters (a replica each), side
 * by side in one run: one gateway on each, both running from the start, measured in alternating
 * rounds (single first in odd rounds, cluster first in even ones) so the machine's drift falls on
 * both; the ratio is taken within each round. Then, per store, a fixed number of calls at a fixed
 * rate after `CONFIG RESETSTAT` on every master, and `INFO commandstats` summed over the masters:
 * Redis commands per admitted call (those sent, and those run inside scripts), and redis-server
 * CPU per call summed over every node (replicas included: they apply every write too).
 *
 *   flock /tmp/tollgate-heavy.lock node --conditions=development --import tsx bench/cluster-vs-single.ts
 *
 * Every Redis runs with AOF (appendfsync everysec), as the cluster's nodes do.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const COUNT_CALLS = Number(process.env.BENCH_COUNT_CALLS ?? 10_000);
const COUNT_RATE = Number(process.env.BENCH_COUNT_RATE ?? 1_000);
const KEYS = 200;
const SINGLE = 'gateway, one Redis';
const CLUSTER = 'gateway, Redis Cluster (3 masters)';

interface Counted {
  ok: number;
  sent: number;
  inScripts: number;
  byCommand: Record<string, number>;
  /** redis-server CPU per call: the masters', and every node's (replicas apply each write too). */
  mastersCpuUs: number;
  redisCpuUs: number;
}

async function commandCalls(node: Redis): Promise<Record<string, number>> {
  const info = await node.info('commandstats');
  return Object.fromEntries([...info.matchAll(/cmdstat_([a-z|_]+):calls=(\d+)/g)].map((m) => [m[1]!, Number(m[2])]));
}

// Commands a script runs inside it: every other one in the stats was sent by a client.
const SCRIPTED = new Set(['time', 'hget', 'hmget', 'zremrangebyscore', 'zcount', 'zrangebyscore', 'get', 'zadd', 'expire', 'incr', 'set', 'hincrby', 'exists', 'hset', 'zrem', 'decr']);
// The bench's own commands, and the cluster's among its nodes (replicas' acks, slot map reads).
const OURS = new Set(['info', 'config|resetstat', 'cluster|nodes', 'cluster|info', 'ping', 'wait', 'replconf']);

/**
 * Exactly `COUNT_CALLS` calls at `COUNT_RATE` a second after RESETSTAT on `masters`, then 1.5 s
 * for the once-a-second history flush to land: commands per admitted call, summed over masters.
 */
async function countCommands(gateway: ChildServer, nextKey: () => string, masters: Redis[], replicaPids: number[]): Promise<Counted> {
  const pids = [...(await Promise.all(masters.map(pidOf))), ...replicaPids];
  await Promise.all(masters.map((m) => m.config('RESETSTAT')));
  const cpuBefore = pids.map(processCpuSeconds);
  const result = await autocannon({
    url: gateway.url + BENCH_PATH,
    connections: 16,
    amount: COUNT_CALLS,
    overallRate: COUNT_RATE,
    requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'x-tollgate-key': nextKey() } }) }],
  });
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const byCommand: Record<string, number> = {};
  for (const stats of await Promise.all(masters.map(commandCalls))) for (const [name, calls] of Object.entries(stats)) if (!OURS.has(name)) byCommand[name] = (byCommand[name] ?? 0) + calls;
  const ok = result['2xx'];
  const sum = (filter: (name: string) => boolean) => Object.entries(byCommand).reduce((s, [name, calls]) => (filter(name) ? s + calls : s), 0) / ok;
  const cpu = pids.map((pid, i) => processCpuSeconds(pid) - cpuBefore[i]!);
  const perCall = (seconds: number) => (seconds * 1e6) / COUNT_CALLS;
  return {
    ok,
    sent: sum((n) => !SCRIPTED.has(n)),
    inScripts: sum((n) => SCRIPTED.has(n)),
    byCommand: Object.fromEntries(Object.entries(byCommand).map(([n, c]) => [n, c / ok])),
    mastersCpuUs: perCall(cpu.slice(0, masters.length).reduce((a, b) => a + b, 0)),
    redisCpuUs: perCall(cpu.reduce((a, b) => a + b, 0)),
  };
}

const pidOf = async (node: Redis): Promise<number> => Number(/process_id:(\d+)/.exec(await node.info('server'))?.[1]);

/** What {@link clusterVsSingle} measured: the rounds, cluster over one Redis req/s in each, and (when asked) the commands per call. */
export interface ClusterVsSingle {
  rounds: Row[][];
  ratios: number[];
  counted: Record<string, Counted>;
}

/** See the top of this file; `count`: also count commands per call. The gateway must be built (gateway-build.ts). */
export async function clusterVsSingle(roundCount: number, count: boolean): Promise<ClusterVsSingle> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tollgate-cluster-bench-'));
  const [single, cluster] = await Promise.all([startRedisServer({ aofDir: dir }), startRedisCluster()]);
  const upstream = await startChild('bench/upstream.ts', {});
  const env = { TOKEN_URL: upstream.url, PLANS_FILE: writeBenchPlans(dir), ADMIN_TOKEN: BENCH_ADMIN_TOKEN, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info', PROXY_SECRET: BENCH_PROXY_SECRET };
  const servers: ChildServer[] = [];
  let rounds: Row[][] = [];
  const counted: Record<string, Counted> = {};
  try {
    const onSingle = await startBenchGateway({ ...env, REDIS_URL: single.url });
    servers.push(onSingle);
    const onCluster = await startBenchGateway({ ...env, REDIS_CLUSTER_NODES: cluster.seeds });
    servers.push(onCluster);
    const singleKeys = rotate(await createBenchKeys(onSingle, KEYS));
    const clusterKeys = rotate(await createBenchKeys(onCluster, KEYS));
    rounds = await alternatingRounds(
      roundCount,
      () => measure(SINGLE, onSingle, BENCH_LOAD, singleKeys),
      () => measure(CLUSTER, onCluster, BENCH_LOAD, clusterKeys),
    );
    if (!count) return { rounds, ratios: rounds.map((rows) => byName(rows, CLUSTER).rps / byName(rows, SINGLE).rps), counted };
    const singleNode = new Redis(single.url);
    const nodes = await cluster.describe();
    const masters = nodes.filter((n) => n.role === 'master').map((n) => cluster.node(n.port));
    counted[SINGLE] = await countCommands(onSingle, singleKeys, [singleNode], []);
    singleNode.disconnect();
    counted[CLUSTER] = await countCommands(onCluster, clusterKeys, masters, await Promise.all(nodes.filter((n) => n.role === 'replica').map((n) => pidOf(cluster.node(n.port)))));
  } finally {
    for (const server of servers) await server.stop();
    await upstream.stop();
    await Promise.all([single.stop(), cluster.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
  return { rounds, ratios: rounds.map((rows) => byName(rows, CLUSTER).rps / byName(rows, SINGLE).rps), counted };
}

async function main(): Promise<void> {
  buildGateway();
  const load1 = loadavg()[0]?.toFixed(2);
  console.error(`load average ${load1}; ${BENCH_LOAD.connections} connections, ${BENCH_LOAD.seconds} s per target after ${BENCH_LOAD.warmupSeconds} s warm-up, ${ROUNDS} rounds`);
  const { rounds, counted } = await clusterVsSingle(ROUNDS, true);
  report(rounds, counted, load1);
}

function report(rounds: Row[][], counted: Record<string, Counted>, load1: string | undefined): void {
  console.log(`\nTollgate cluster bench — ${new Date().toISOString()}, load average at start ${load1}, ${BENCH_LOAD.connections} connections, ${BENCH_LOAD.seconds} s each, gateway from ${GATEWAY_SOURCE}, ${KEYS} keys rotated, ${rounds.length} alternating rounds`);
  console.table(
    rounds.flatMap((rows, i) =>
      [SINGLE, CLUSTER].map((name) => {
        const r = byName(rows, name);
        return { round: i + 1, target: name, 'req/s': Math.round(r.rps), 'p50 ms': r.p50, 'p99 ms': r.p99, 'non-2xx': r.non2xx, 'gateway CPU µs/call': r.cpuUs.toFixed(0) };
      }),
    ),
  );
  const ratios = rounds.map((rows) => byName(rows, CLUSTER).rps / byName(rows, SINGLE).rps);
  const rps = (name: string) => Math.round(median(rounds.map((rows) => byName(rows, name).rps)));
  const cpu = (name: string) => Math.round(median(rounds.map((rows) => byName(rows, name).cpuUs)));
  console.log(`median req/s: one Redis ${rps(SINGLE)}, cluster ${rps(CLUSTER)}; cluster / one Redis ${median(ratios).toFixed(2)} (rounds: ${ratios.map((x) => x.toFixed(2)).join(', ')})`);
  console.log(`median gateway CPU per call: one Redis ${cpu(SINGLE)} µs, cluster ${cpu(CLUSTER)} µs`);
  console.log(`\nRedis commands per admitted call (${COUNT_CALLS} calls at ${COUNT_RATE}/s, INFO commandstats summed over masters):`);
  for (const [name, c] of Object.entries(counted)) {
    const detail = Object.entries(c.byCommand)
      .sort((a, b) => b[1] - a[1])
      .map(([n, v]) => `${n} ${v.toFixed(3)}`)
      .join(', ');
    console.log(`  ${name}: ${c.ok}/${COUNT_CALLS} admitted; sent ${c.sent.toFixed(3)}, run inside scripts ${c.inScripts.toFixed(2)}; redis-server CPU per call ${c.mastersCpuUs.toFixed(0)} µs on the masters, ${c.redisCpuUs.toFixed(0)} µs with the replicas\n    ${detail}`);
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
