import type Redis from 'ioredis';
import type { Logger } from '@tollgate/envelope';
import { isCluster, mastersOf } from './redis-client';
import type { RedisClient } from './redis-client';

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
