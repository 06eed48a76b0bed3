import { createRequire } from 'node:module';
import type { Writable } from 'node:stream';
import type Redis from 'ioredis';
import type { Cluster } from 'ioredis';
import type * as IoredisModule from 'ioredis';
import type { Logger } from '@tollgate/envelope';
import type { ClusterNode } from '../../config';

// Loaded when a client is made, not with this module: a gateway on its embedded store (and every
// CLI command) does not load ioredis's 39 modules.
export const loadIoredis = (): typeof IoredisModule => createRequire(__filename)('ioredis') as typeof IoredisModule;

/**
 * The client the Redis stores take: one Redis or a Redis Cluster. Both have the same commands,
 * `defineCommand` (EVALSHA, with EVAL after a NOSCRIPT), pipelines and `status`; what differs
 * (the nodes to ask one by one, the sockets, pub/sub) goes through the helpers below.
 */
export type RedisClient = Redis | Cluster;

/** Options of {@link createRedisClient}. */
export interface RedisClientOptions {
  logger: Logger;
}

/** Where the Redis store is: a URL, or a cluster's seed nodes (config.ts allows one or the other). */
export interface RedisTarget {
  redisUrl?: string;
  clusterNodes?: readonly ClusterNode[];
}

export function isCluster(client: RedisClient): client is Cluster {
  return (client as Cluster).isCluster === true;
}

/** The connections to ask when every master must answer (persistence, readiness). */
export function mastersOf(client: RedisClient): Redis[] {
  return isCluster(client) ? client.nodes('master') : [client];
}

/** The sockets a write coalescer corks: the client's, or each master's. */
export function streamsOf(client: RedisClient): (Writable | undefined)[] {
  return isCluster(client) ? client.nodes('master').map((node) => node.stream) : [client.stream];
}

/** A client for `target`: the cluster's when seed nodes are given, else the URL's. */
export function createStoreClient(target: RedisTarget, options: RedisClientOptions): RedisClient {
  if (target.clusterNodes?.length) return createClusterClient(target.clusterNodes, options);
  if (!target.redisUrl) throw new Error('neither REDIS_URL nor REDIS_CLUSTER_NODES is set');
  return createRedisClient(target.redisUrl, options);
}

/**
 * An ioredis client built to fail fast: no offline queue (a call made while disconnected fails at
 * once instead of waiting), a per-command timeout, and reconnection forever with a short backoff,
 * so the gateway answers 503 while Redis is away and recovers by itself when it is back.
 */
export function createRedisClient(url: string, options: RedisClientOptions): Redis {
  const redis = new (loadIoredis().default)(url, {
    enableOfflineQueue: false,
    connectTimeout: 2_000,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
    // A master demoted to a replica keeps its connections and answers every write READONLY; the
    // name the gateway connects to has moved to the promoted replica (docs/operating.md: high
    // availability without Sentinel), so reconnect. The refused command is not resent: it did not run, and its
    // caller has its 503.
    reconnectOnError: (err) => err.message.startsWith('READONLY'),
    lazyConnect: false,
    // No auto-pipelining: it saves a write syscall per call under load, but its per-turn pipelines
    // kept every admission's command alive across young-generation GCs (the bench measured about
    // 400 KB promoted per scavenge with it, 17 KB without), so the old generation filled with dead
    // commands and full GCs came every second or two. One EVALSHA per call either way.
    enableAutoPipelining: false,
  });
  logOutages(redis, options.logger, 'redis');
  return redis;
}

/**
 * An ioredis Cluster client on the given seed nodes, failing fast as {@link createRedisClient}
 * does: no offline queue while the cluster is not connected, the store guard's deadline on every
 * command. What the cluster itself redirects is followed inside ioredis and not seen here:
 * MOVED (a slot moved: the slot map is refreshed), ASK (a slot being migrated), TRYAGAIN (a
 * script's keys half migrated: retried after 50 ms) and CLUSTERDOWN. Each of those answers says
 * the command did not run, so sending it again is safe; 64 redirections bound one command (about
 * 20 TRYAGAIN rounds, a second or more).
 *
 * A connection closed under a command is NOT retried (`retryDelayOnFailover: 0`): the command
 * may have run on the master that died, and ioredis would send it again to the promoted replica
 * seconds later, after the store guard had answered the caller 503 and queued the refund, so the
 * refund could run first and the charge land after it (the failover test saw 45 of 150 calls
 * charged and never admitted that way). Failing it at once is what the guard does anyway; its
 * undo finds the charge if the replica got it. The next calls go to the slot's new master, learnt
 * from a MOVED or from the slot map refreshed every 5 s.
 */
export function createClusterClient(nodes: readonly ClusterNode[], options: RedisClientOptions): Cluster {
  const cluster = new (loadIoredis().Cluster)(
    nodes.map((n) => ({ host: n.host, port: n.port })),
    {
      // Every command on the slot's master: a replica's counts lag, and admission writes anyway.
      scaleReads: 'master',
      enableOfflineQueue: false,
      maxRedirections: 64,
      retryDelayOnFailover: 0,
      retryDelayOnClusterDown: 100,
      retryDelayOnTryAgain: 50,
      retryDelayOnMoved: 0,
      slotsRefreshTimeout: 1_000,
      // A failover seen by no command yet (an idle gateway) is still learnt within 5 s.
      slotsRefreshInterval: 5_000,
      clusterRetryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
      enableAutoPipelining: false,
      redisOptions: { connectTimeout: 2_000, maxRetriesPerRequest: 0, enableAutoPipelining: false },
    },
  );
  logOutages(cluster, options.logger, 'redis-cluster');
  // A master is connected as soon as it is known (a replica promoted), not on its first command:
  // without an offline queue, commands sent while its connection is still opening would fail.
  // (Not while the cluster itself connects: its ready check must find the nodes unopened or open.)
  cluster.on('refresh', () => {
    if (cluster.status !== 'ready') return;
    for (const node of cluster.nodes('master')) if (node.status === 'wait') node.connect().catch(() => undefined);
  });
  return cluster;
}

/**
 * Resolves true once the client can serve, false after `waitMs`: one Redis when connected; a
 * cluster when it has its slot map and a connection open to every master (PING waits in the
 * node's own queue while its connection opens), so the first calls find no connection opening.
 */
export async function whenReady(client: RedisClient, waitMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), waitMs)));
  const ready = (async (): Promise<true> => {
    if (client.status !== 'ready') await new Promise<void>((resolve) => client.once('ready', () => resolve()));
    if (isCluster(client)) await Promise.all(client.nodes('master').map((node) => node.ping().catch(() => undefined)));
    return true;
  })();
  try {
    return await Promise.race([ready, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Logs the first error of each outage and the recovery once (errors repeat on every retry). */
function logOutages(client: RedisClient, logger: Logger, store: string): void {
  let healthy = true;
  client.on('ready', () => {
    if (!healthy) logger.info({ store }, 'quota store reachable again');
    healthy = true;
  });
  client.on('error', (err: Error) => {
    if (healthy) logger.warn({ store, err: err.message }, 'quota store unreachable; answering 503 (or failing open) until it is back');
    healthy = false;
  });
  client.on('close', () => {
    if (healthy) logger.warn({ store }, 'quota store connection closed');
    healthy = false;
  });
}
