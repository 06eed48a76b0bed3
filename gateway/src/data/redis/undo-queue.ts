import type { Logger } from '@tollgate/envelope';
import type { RedisClient } from './redis-client';

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
