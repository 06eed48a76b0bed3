import type { Logger } from '@tollgate/envelope';
import { MEMORY_STORE_PATH } from '../config';
import type { ClusterNode, SecretsKeys } from '../config';
import { createMemoryStores } from './memory/memory-stores';
import type { Stores } from './stores';
import type { BackgroundLoops } from './background-loop';
import { createStoreClient, whenReady } from './redis/redis-client';
import type { RedisClient } from './redis/redis-client';
import { indexKeyExpiries, indexKeyPrefixes, indexKeyStarts } from './redis/key-indexes';
import { redisKeys } from './redis/redis-keys';
import { adoptAtStart } from './team-adoption';
import { migrateLegacyKeys } from './redis/legacy-migration';
import { createRedisStores } from './redis/redis-stores';
import { openSqliteStores } from './sqlite/sqlite-stores';
import { resealSecrets, withSealedSecrets as sealed } from './sealed-event-store';
import { SecretsKeyError, createSecretBox } from './secret-box';
import type { SecretBox } from './secret-box';

/** Options of {@link openStores}. */
export interface OpenStoresOptions {
  redisUrl?: string;
  /** A Redis Cluster's seed nodes, in place of `redisUrl`. */
  redisClusterNodes?: readonly ClusterNode[];
  /** The embedded store's file when there is no Redis; `:memory:` for the plain in-memory store. */
  storePath: string;
  redisTimeoutMs: number;
  clock: () => number;
  logger: Logger;
  onLatency?: (operation: string, seconds: number) => void;
  /** Every API name (for moving keys made before accounts). */
  apis?: readonly string[];
  /** Where the embedded store's timed write runs. */
  loops?: BackgroundLoops;
  /** The keys webhook signing secrets are sealed with (`SECRETS_KEY`); none: kept plain. */
  secretsKeys?: SecretsKeys;
}

/** The stores, the Redis client under them (if any), and what a graceful stop must call. */
export interface OpenedStores {
  stores: Stores;
  redis?: RedisClient;
  /** Writes what is pending and closes the embedded store's file. */
  close?: () => void;
  /**
   * The adoption walk (team-adoption.ts), under way after the stores are answered: a store of many
   * accounts written before teams would otherwise keep the gateway from listening for as long as it
   * takes (10,000 accounts on SQLite: over 20 s). Nothing waits for it: sign-in and a session's
   * first request adopt their account themselves. Settles when done; never rejects.
   */
  adopted?: Promise<void>;
}

/**
 * Redis stores when a URL or a cluster's seed nodes are given (waiting up to `waitMs` for the first connection; the gateway
 * answers 503 until Redis is there), else the embedded SQLite store at `storePath` (throwing
 * {@link StoreInUseError} when another process holds it), or the plain in-memory one, said loudly.
 */
export async function openStores(options: OpenStoresOptions, waitMs = 3_000): Promise<OpenedStores> {
  const { clock, logger } = options;
  const box = createSecretBox(options.secretsKeys ?? { previous: [] });
  const onRedis = Boolean(options.redisUrl || options.redisClusterNodes?.length);
  if (!onRedis && options.storePath === MEMORY_STORE_PATH) {
    logger.warn(
      { store: 'memory' },
      'STORE_PATH=:memory: and no REDIS_URL: using the IN-MEMORY store. Keys and quotas live in this process only, are lost on restart, and are NOT shared: run exactly one gateway process like this.',
    );
    return { stores: sealed(createMemoryStores({ clock }), box) };
  }
  if (!onRedis) {
    const opened = openSqliteStores({
      path: options.storePath,
      clock,
      ...(options.loops ? { loops: options.loops } : {}),
    });
    logger.info(
      { store: 'sqlite', store_path: options.storePath },
      `REDIS_URL is not set: keeping accounts, keys and quotas in the embedded SQLite file ${options.storePath} (STORE_PATH moves it, mode 0600). One gateway process per file; a crash (kill -9) can lose the last second of call counts, never an account or key answered as created.`,
    );
    try {
      await resealAtStart(opened.stores, box, logger);
    } catch (err) {
      opened.close();
      throw err;
    }
    return { stores: sealed(opened.stores, box), close: opened.close, adopted: adoptAtStart(opened.stores, logger) };
  }
  const redis = createStoreClient({ redisUrl: options.redisUrl, clusterNodes: options.redisClusterNodes }, { logger });
  const ready = await whenReady(redis, waitMs);
  if (!ready) logger.warn({ store: 'redis' }, `${options.redisUrl ? 'Redis' : 'the Redis Cluster'} is not reachable yet; answering 503 until it is`);
  const stores = createRedisStores(redis, { clock, onLatency: options.onLatency, timeoutMs: options.redisTimeoutMs, logger, apis: options.apis });
  if (ready) {
    await migrateAtStart(redis, clock(), options.apis ?? [], logger);
    await indexAtStart(redis, logger);
    try {
      await resealAtStart(stores, box, logger);
    } catch (err) {
      if (err instanceof SecretsKeyError) {
        redis.disconnect();
        throw err;
      }
      // A store that stopped answering is not the keys' fault: the secrets are sealed at the next start.
      logger.warn({ err: (err as Error).message }, 'webhook signing secrets not checked at start; each still opens as it is kept, and they are sealed at the next start');
    }
  }
  const adopted = ready ? adoptAtStart(stores, logger, { done: async () => Boolean(await redis.get(redisKeys.teamsAdopted())), mark: async () => void (await redis.set(redisKeys.teamsAdopted(), '1')) }) : undefined;
  return { stores: sealed(stores, box), redis, ...(adopted ? { adopted } : {}) };
}

/**
 * Seals what is kept plain or under a previous key (each endpoint compared and written in one
 * step), says how the secrets are kept, and throws {@link SecretsKeyError} when one does not open:
 * a gateway without the key must not start and fail every delivery.
 */
async function resealAtStart(stores: Stores, box: SecretBox, logger: Logger): Promise<void> {
  const { endpoints, resealed } = await resealSecrets(stores.eventStore, box);
  const some = (n: number): string => `${n} endpoint${n === 1 ? '' : 's'}`;
  if (box.keyId) {
    const what = resealed ? `${some(resealed)} sealed now with SECRETS_KEY (key ${box.keyId}), of ${endpoints}` : `every endpoint's is sealed with SECRETS_KEY (key ${box.keyId}), ${endpoints} in all`;
    logger.info({ endpoints, resealed, secrets_key: box.keyId }, `webhook signing secrets: ${what}`);
    return;
  }
  if (resealed) logger.info({ endpoints, resealed }, `webhook signing secrets: ${some(resealed)} opened with SECRETS_KEY_PREVIOUS and kept plain now`);
  logger.warn({ endpoints }, 'SECRETS_KEY is not set: webhook signing secrets are kept in plain form in the store (a copy of it lets anyone sign as this gateway); set SECRETS_KEY (openssl rand -base64 32) and restart to seal them');
}

/** Keys made before accounts become accounts of one key now; any left (Redis was down) are moved when first used. */
async function migrateAtStart(redis: RedisClient, nowMs: number, apis: readonly string[], logger: Logger): Promise<void> {
  try {
    const found = await migrateLegacyKeys(redis, nowMs, apis);
    if (found) logger.info({ keys: found }, 'keys made before accounts are accounts of one key now');
  } catch (err) {
    logger.warn({ err: (err as Error).message }, 'keys made before accounts not moved at start; each is moved when first used');
  }
}

/**
 * Keys made before the prefix and expiry indexes are put into them now, once; until then an
 * operator's search by prefix may miss them, and so may the expiry notices.
 */
async function indexAtStart(redis: RedisClient, logger: Logger): Promise<void> {
  const indexes = [
    { name: 'prefix', build: indexKeyPrefixes, missed: 'searching by prefix may miss them until then' },
    { name: 'expiry', build: indexKeyExpiries, missed: 'their expiry notices may be missed until then' },
    { name: 'start', build: indexKeyStarts, missed: 'an operator searching by the start a list shows may miss keys stored before issue 40 until then' },
  ];
  for (const { name, build, missed } of indexes) {
    try {
      const indexed = await build(redis);
      if (indexed) logger.info({ keys: indexed }, `keys made before the ${name} index are in it now`);
    } catch (err) {
      logger.warn({ err: (err as Error).message }, `keys made before the ${name} index not indexed at start; tried again at the next start (${missed})`);
    }
  }
}
