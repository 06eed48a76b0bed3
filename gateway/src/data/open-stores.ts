import type Redis from 'ioredis';
import type { Logger } from '@tollgate/envelope';
import { createMemoryStores } from './memory-stores';
import type { Stores } from './quota-store';
import { createRedisClient } from './redis-client';
import { migrateLegacyKeys } from './redis-migration';
import { createRedisStores } from './redis-stores';

/** Options of {@link openStores}. */
export interface OpenStoresOptions {
  redisUrl?: string;
  redisTimeoutMs: number;
  clock: () => number;
  logger: Logger;
  onLatency?: (operation: string, seconds: number) => void;
  /** Every API name (for moving keys made before accounts). */
  apis?: readonly string[];
}

/**
 * Redis stores when a URL is given (waiting up to `waitMs` for the first connection; the gateway
 * answers 503 until Redis is there), else the in-memory ones, said loudly.
 */
export async function openStores(options: OpenStoresOptions, waitMs = 3_000): Promise<{ stores: Stores; redis?: Redis }> {
  const { redisUrl, clock, logger } = options;
  if (!redisUrl) {
    logger.warn(
      { store: 'memory' },
      'REDIS_URL is not set: using the EMBEDDED IN-MEMORY store. Keys and quotas live in this process only, are lost on restart, and are NOT shared: run exactly one gateway process like this.',
    );
    return { stores: createMemoryStores({ clock }) };
  }
  const redis = createRedisClient(redisUrl, { logger });
  const ready = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), waitMs);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  if (!ready) logger.warn({ store: 'redis' }, `Redis is not reachable yet; answering 503 until it is`);
  else await migrateAtStart(redis, clock(), options.apis ?? [], logger);
  return { stores: createRedisStores(redis, { clock, onLatency: options.onLatency, timeoutMs: options.redisTimeoutMs, logger, apis: options.apis }), redis };
}

/** Keys made before accounts become accounts of one key now; any left (Redis was down) are moved when first used. */
async function migrateAtStart(redis: Redis, nowMs: number, apis: readonly string[], logger: Logger): Promise<void> {
  try {
    const found = await migrateLegacyKeys(redis, nowMs, apis);
    if (found) logger.info({ keys: found }, 'keys made before accounts are accounts of one key now');
  } catch (err) {
    logger.warn({ err: (err as Error).message }, 'keys made before accounts not moved at start; each is moved when first used');
  }
}
