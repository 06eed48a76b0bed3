/**
 * Reads the gateway's usage stream (USAGE_EVENTS=redis) with a consumer group and prints each
 * account's totals: calls by outcome, response bytes, upstream time. What an operator adapts to feed
 * a billing system or a warehouse (README.md beside this file).
 *
 *   USAGE_REDIS_URL=redis://127.0.0.1:6379 node --conditions=development --import tsx examples/usage-to-totals/usage-to-totals.ts
 *   (or USAGE_REDIS_CLUSTER_NODES=host:port,… ; USAGE_STREAM_SHARDS as the gateway has it; GROUP, CONSUMER; --once to stop when the stream is drained)
 */
import { hostname } from 'node:os';
import Redis, { Cluster } from 'ioredis';
import { CloudEvent } from 'cloudevents';
import { redisKeys } from '../../src/data/redis/redis-keys';
import type { UsageData } from '../../src/events/usage-stream';

const env = process.env;
const shards = Number(env.USAGE_STREAM_SHARDS ?? (env.USAGE_REDIS_CLUSTER_NODES ? 8 : 1));
const group = env.GROUP ?? 'usage-to-totals';
const consumer = env.CONSUMER ?? `${hostname()}-${process.pid}`;
const once = process.argv.includes('--once');
const redis = env.USAGE_REDIS_CLUSTER_NODES
  ? new Cluster(env.USAGE_REDIS_CLUSTER_NODES.split(',').map((node) => ({ host: node.slice(0, node.lastIndexOf(':')), port: Number(node.slice(node.lastIndexOf(':') + 1)) })))
  : new Redis(env.USAGE_REDIS_URL ?? 'redis://127.0.0.1:6379');

/** One account's totals. */
interface Totals {
  calls: number;
  outcomes: Record<string, number>;
  response_bytes: number;
  upstream_ms: number;
}
const totals = new Map<string, Totals>();
const seen = new Set<string>();

function add(event: CloudEvent<UsageData>): void {
  // At least once: an event the gateway sent twice (its sink failed to say it took it) counts once.
  // The id is the gateway's, one per call; never dedupe on `event.requestid`, the client's
  // x-request-id, which a client may send on every call to have them counted as one.
  const id = `${event.source} ${event.id}`;
  if (seen.has(id)) return;
  seen.add(id);
  const data = event.data!;
  let t = totals.get(event.subject ?? '');
  if (!t) totals.set(event.subject ?? '', (t = { calls: 0, outcomes: {}, response_bytes: 0, upstream_ms: 0 }));
  t.calls += 1;
  t.outcomes[data.outcome] = (t.outcomes[data.outcome] ?? 0) + 1;
  t.response_bytes += data.response_bytes;
  t.upstream_ms += data.upstream_latency_ms ?? 0;
}

type Entries = [key: string, entries: [id: string, fields: string[]][]][] | null;

/** Reads one shard's new entries for this consumer, counts them, and acknowledges them. */
async function readShard(key: string): Promise<number> {
  const answer = (await redis.xreadgroup('GROUP', group, consumer, 'COUNT', 500, 'STREAMS', key, '>')) as Entries;
  const entries = answer?.[0]?.[1] ?? [];
  for (const [, fields] of entries) {
    const json = fields[fields.indexOf('event') + 1];
    // The package checks the event against the CloudEvents 1.0 schema as it builds it.
    if (json) add(new CloudEvent<UsageData>(JSON.parse(json) as CloudEvent<UsageData>));
  }
  if (entries.length) await redis.xack(key, group, ...entries.map(([id]) => id));
  return entries.length;
}

function print(): void {
  console.log(JSON.stringify({ accounts: Object.fromEntries([...totals].sort(([a], [b]) => a.localeCompare(b))), events: seen.size }));
}

async function main(): Promise<void> {
  const keys = Array.from({ length: shards }, (_, shard) => redisKeys.usageStream(shard));
  // Each shard is its own stream (and, on a cluster, its own slot): one group on each, made once.
  for (const key of keys) await redis.xgroup('CREATE', key, group, '0', 'MKSTREAM').catch((err: Error) => (err.message.includes('BUSYGROUP') ? undefined : Promise.reject(err)));
  let stopping = false;
  process.once('SIGINT', () => (stopping = true));
  process.once('SIGTERM', () => (stopping = true));
  let lastPrint = Date.now();
  while (!stopping) {
    let read = 0;
    for (const key of keys) read += await readShard(key);
    if (read === 0) {
      if (once) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    if (Date.now() - lastPrint >= 10_000) {
      print();
      lastPrint = Date.now();
    }
  }
  print();
  redis.disconnect();
}

main().catch((err: unknown) => {
  console.error(`usage-to-totals: ${(err as Error).message}`);
  process.exit(1);
});
