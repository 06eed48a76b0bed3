import Redis from 'ioredis';
import type { Cluster } from 'ioredis';
import type { Logger } from '@tollgate/envelope';
import { isCluster, mastersOf } from './redis-client';
import type { RedisClient } from './redis-client';
import { redisKeys } from './redis-keys';

/**
 * Deadlines in Redis's own clock. The scripts compare a deadline with Redis `TIME`, and a gateway
 * host's clock may be ahead or behind: the offset is sampled now and every `intervalMs`, taken at
 * its low bound (the reply's arrival, not its sending), so a deadline can only come early.
 */
export function createRedisClock(redis: RedisClient, wallClock: () => number, intervalMs = 10_000): { deadline(budgetMs: number): number } {
  let offset = 0;
  const sample = (): void => {
    if (redis.status !== 'ready') return;
    redis.time().then(
      ([seconds, micros]) => {
        offset = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) - wallClock();
      },
      () => undefined,
    );
  };
  redis.on('ready', sample);
  sample();
  setInterval(sample, intervalMs).unref();
  return { deadline: (budgetMs) => wallClock() + offset + budgetMs };
}

/**
 * Commands that undo what a command the caller was told failed may still do (refund a charge,
 * delete a record). Each is idempotent, so it is sent at once and, if it cannot be, kept (at most
 * `max`) and sent again when the connection is back, and every `retryMs` while any wait: a
 * cluster stays 'ready' through a master's failover, so no event says its slots are back.
 */
export function createUndoQueue(redis: RedisClient, logger: Logger | undefined, max = 10_000, retryMs = 1_000): { add(undo: () => Promise<unknown>): void } {
  const waiting: (() => Promise<unknown>)[] = [];
  let timer: NodeJS.Timeout | undefined;
  const retry = (): void => {
    timer = undefined;
    for (const undo of waiting.splice(0)) send(undo);
  };
  const send = (undo: () => Promise<unknown>): void => {
    undo().catch(() => {
      if (waiting.length < max) waiting.push(undo);
      else logger?.error({ store: 'redis' }, 'undo queue full: a call the client was told failed may stay charged');
      timer ??= setTimeout(retry, retryMs).unref();
    });
  };
  redis.on('ready', retry);
  return { add: send };
}

/**
 * Listens for revoked key ids on a connection of its own (a subscribed connection can do nothing
 * else). Revocations sent while it was not subscribed are lost, so each time the subscription is
 * (re)made, `listening(true)` is called: a cache of keys drops everything it learnt before.
 */
export function subscribeRevocations(redis: RedisClient, revoked: (keyId: string) => void, listening: (heard: boolean) => void, logger: Logger | undefined): void {
  if (isCluster(redis)) subscribeOnCluster(redis, revoked, listening, logger);
  else subscribeOnRedis(redis, revoked, listening, logger);
}

function subscribeOnRedis(redis: Redis, revoked: (keyId: string) => void, listening: (heard: boolean) => void, logger: Logger | undefined): void {
  const subscriber = redis.duplicate({ lazyConnect: false });
  // Subscribed on every connection, the first included (Redis may be down when the gateway starts).
  subscriber.on('ready', () => {
    subscriber.subscribe(redisKeys.revocations()).then(
      () => listening(true),
      (err: Error) => {
        logger?.warn({ err: err.message }, 'cannot listen for revocations; failing open forgets every key until it can');
        listening(false);
      },
    );
  });
  subscriber.on('error', () => undefined);
  subscriber.on('message', (_channel: string, keyId: string) => revoked(keyId));
  redis.once('end', () => subscriber.disconnect());
}

/**
 * In a cluster a PUBLISH reaches every node, replicas included, so one subscription on any node
 * hears them all. The connection is the gateway's own, not ioredis's cluster subscriber, which
 * moves to another node silently when its node dies: here each new subscription says so
 * (`listening(true)`, and the fail-open cache forgets everything), since the revocations sent
 * while it moved are lost. A replica is preferred: a master's failure (when failing open matters)
 * then leaves the subscription, and so the cache, alone; its replica is promoted in place.
 */
function subscribeOnCluster(cluster: Cluster, revoked: (keyId: string) => void, listening: (heard: boolean) => void, logger: Logger | undefined): void {
  let subscriber: Redis | undefined;
  let ended = false;
  let attempt = 0;
  const connect = async (): Promise<void> => {
    if (ended) return;
    const masters = cluster.nodes('master');
    // CLUSTER SLOTS: per slot range, its master then its replicas, as [host, port, id].
    const slots = (await cluster.cluster('SLOTS').catch(() => [])) as [number, number, ...[string, number][]][];
    const replicas = slots.flatMap(([, , , ...copies]) => copies.map(([host, port]) => ({ host, port })));
    const candidates = [...replicas, ...masters.map((m) => ({ host: m.options.host, port: m.options.port }))];
    const target = candidates[attempt++ % Math.max(1, candidates.length)];
    if (!target) {
      setTimeout(() => void connect(), 200).unref();
      return;
    }
    const { username, password, tls } = masters[0]?.options ?? {};
    const current = new Redis({ host: target.host, port: target.port, username, password, tls, lazyConnect: false, retryStrategy: null, connectTimeout: 2_000, maxRetriesPerRequest: 0 });
    subscriber = current;
    current.on('error', () => undefined);
    current.on('message', (_channel: string, keyId: string) => revoked(keyId));
    current.once('ready', () => {
      current.subscribe(redisKeys.revocations()).then(
        () => listening(true),
        (err: Error) => {
          logger?.warn({ err: err.message }, 'cannot listen for revocations; failing open forgets every key until it can');
          listening(false);
          current.disconnect();
        },
      );
    });
    // No reconnection on this connection: the next attempt picks a node the cluster knows now.
    current.once('end', () => {
      if (subscriber === current && !ended) setTimeout(() => void connect(), 100).unref();
    });
  };
  // Once: from then on the subscription finds its own next node when it loses one.
  if (cluster.status === 'ready') void connect();
  else cluster.once('ready', () => void connect());
  cluster.once('end', () => {
    ended = true;
    subscriber?.disconnect();
  });
}

/** How Redis keeps its data across a restart, as far as `CONFIG GET` tells. */
export type Persistence = 'aof' | 'rdb' | 'aof+rdb' | 'none' | 'unknown';

/** `appendonly` and `save` as `CONFIG GET` gives them, read as a {@link Persistence}. */
export function persistenceOf(appendonly: string | undefined, save: string | undefined): Persistence {
  if (appendonly === undefined || save === undefined) return 'unknown';
  const aof = appendonly === 'yes';
  const rdb = save.trim() !== '';
  return aof && rdb ? 'aof+rdb' : aof ? 'aof' : rdb ? 'rdb' : 'none';
}

// Weakest first: a cluster persists as well as its weakest master.
const STRENGTH: Persistence[] = ['none', 'unknown', 'rdb', 'aof', 'aof+rdb'];

/** What several masters' settings add up to: the weakest of them. */
export function weakestPersistence(each: readonly Persistence[]): Persistence {
  return each.reduce<Persistence>((weakest, p) => (STRENGTH.indexOf(p) < STRENGTH.indexOf(weakest) ? p : weakest), each.length ? 'aof+rdb' : 'unknown');
}

/** One node's persistence; 'unknown' when `CONFIG` is refused or renamed (managed Redis). */
function readPersistence(node: Redis): Promise<Persistence> {
  return Promise.all([node.config('GET', 'appendonly'), node.config('GET', 'save')]).then(
    ([aof, save]) => persistenceOf((aof as string[])[1], (save as string[])[1]),
    () => 'unknown' as const,
  );
}

/**
 * Reads Redis's persistence settings on every connection (in a cluster: on every master, again
 * when a node joins the client's map, e.g. a replica promoted) and warns loudly when it keeps
 * nothing: accounts, keys and subscriptions live in Redis without a TTL, so a Redis that persists
 * nothing loses them all on a restart. `CONFIG` may be renamed or refused (managed Redis): then 'unknown'.
 */
export function watchPersistence(redis: RedisClient, logger: Logger | undefined): () => Persistence {
  let current: Persistence = 'unknown';
  let scheduled = false;
  const read = (): void => {
    scheduled = false;
    Promise.all(mastersOf(redis).map(readPersistence)).then((each) => {
      current = weakestPersistence(each);
      if (current === 'none') {
        logger?.warn(
          { store: 'redis', persistence: current },
          `${each.length > 1 ? 'A REDIS CLUSTER MASTER' : 'REDIS'} PERSISTS NOTHING (appendonly no, save ""): every key, subscription and quota counter is lost if Redis restarts. Turn on AOF (appendonly yes) for the system of record.`,
        );
      }
    });
  };
  // Nodes join a cluster client one by one: read once they have. One Redis is read at once.
  const schedule = (): void => {
    if (!isCluster(redis)) return read();
    if (scheduled) return;
    scheduled = true;
    setTimeout(read, 200).unref();
  };
  redis.on('ready', schedule);
  if (isCluster(redis)) {
    redis.on('+node', schedule);
    // A promoted replica was already in the client's map (as a replica): no '+node' says it is a
    // master now, but the slot map refreshed after a failover shows a different set of masters.
    let masters = '';
    redis.on('refresh', () => {
      const now = redis.nodes('master').map((n) => `${n.options.host}:${n.options.port}`).sort().join(',');
      if (now !== masters) schedule();
      masters = now;
    });
  }
  if (redis.status === 'ready') schedule();
  return () => current;
}
