import type Redis from 'ioredis';
import type { Cluster } from 'ioredis';
import type { Logger } from '@tollgate/envelope';
import { isCluster, loadIoredis } from './redis-client';
import type { RedisClient } from './redis-client';
import { redisKeys } from './redis-keys';

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
  // The subscriber ends with the store's client. Its 'end' is not emitted when the client is
  // disconnected while reconnecting (ioredis only stops its timer), so the subscriber also stops
  // retrying once the client was closed on purpose: else it retried forever and held the process.
  const retry = redis.options.retryStrategy;
  const closed = (): boolean => redis.status === 'end' || (redis as unknown as { manuallyClosing?: boolean }).manuallyClosing === true;
  const subscriber = redis.duplicate({ lazyConnect: false, retryStrategy: (times) => (closed() ? null : retry ? retry(times) : Math.min(times * 50, 2_000)) });
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
    const current = new (loadIoredis().default)({ host: target.host, port: target.port, username, password, tls, lazyConnect: false, retryStrategy: null, connectTimeout: 2_000, maxRetriesPerRequest: 0 });
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
