import type Redis from 'ioredis';
import type { Logger } from '@tollgate/envelope';
import { redisKeys } from './redis-keys';

/**
 * Deadlines in Redis's own clock. The scripts compare a deadline with Redis `TIME`, and a gateway
 * host's clock may be ahead or behind: the offset is sampled now and every `intervalMs`, taken at
 * its low bound (the reply's arrival, not its sending), so a deadline can only come early.
 */
export function createRedisClock(redis: Redis, wallClock: () => number, intervalMs = 10_000): { deadline(budgetMs: number): number } {
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
 * `max`) and sent again when the connection is back.
 */
export function createUndoQueue(redis: Redis, logger: Logger | undefined, max = 10_000): { add(undo: () => Promise<unknown>): void } {
  const waiting: (() => Promise<unknown>)[] = [];
  const send = (undo: () => Promise<unknown>): void => {
    undo().catch(() => {
      if (waiting.length < max) waiting.push(undo);
      else logger?.error({ store: 'redis' }, 'undo queue full: a call the client was told failed may stay charged');
    });
  };
  redis.on('ready', () => {
    for (const undo of waiting.splice(0)) send(undo);
  });
  return { add: send };
}

/**
 * Listens for revoked key ids on a connection of its own (a subscribed connection can do nothing
 * else). Revocations sent while it was not subscribed are lost, so each time the subscription is
 * (re)made, `listening(true)` is called: a cache of keys drops everything it learnt before.
 */
export function subscribeRevocations(redis: Redis, revoked: (keyId: string) => void, listening: (heard: boolean) => void, logger: Logger | undefined): void {
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

/** How Redis keeps its data across a restart, as far as `CONFIG GET` tells. */
export type Persistence = 'aof' | 'rdb' | 'aof+rdb' | 'none' | 'unknown';

/** `appendonly` and `save` as `CONFIG GET` gives them, read as a {@link Persistence}. */
export function persistenceOf(appendonly: string | undefined, save: string | undefined): Persistence {
  if (appendonly === undefined || save === undefined) return 'unknown';
  const aof = appendonly === 'yes';
  const rdb = save.trim() !== '';
  return aof && rdb ? 'aof+rdb' : aof ? 'aof' : rdb ? 'rdb' : 'none';
}

/**
 * Reads Redis's persistence settings on every connection and warns loudly when it keeps nothing:
 * accounts, keys and subscriptions live in Redis without a TTL, so a Redis that persists nothing
 * loses them all on a restart. `CONFIG` may be renamed or refused (managed Redis): then 'unknown'.
 */
export function watchPersistence(redis: Redis, logger: Logger | undefined): () => Persistence {
  let current: Persistence = 'unknown';
  const read = (): void => {
    Promise.all([redis.config('GET', 'appendonly'), redis.config('GET', 'save')]).then(
      ([aof, save]) => {
        current = persistenceOf((aof as string[])[1], (save as string[])[1]);
        if (current === 'none') {
          logger?.warn(
            { store: 'redis', persistence: current },
            'REDIS PERSISTS NOTHING (appendonly no, save ""): every key, subscription and quota counter is lost if Redis restarts. Turn on AOF (appendonly yes) for the system of record.',
          );
        }
      },
      () => {
        current = 'unknown';
      },
    );
  };
  redis.on('ready', read);
  if (redis.status === 'ready') read();
  return () => current;
}
