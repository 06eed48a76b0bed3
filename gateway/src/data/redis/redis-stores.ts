import type { Logger } from '@tollgate/envelope';
import { createLegacyKeyStore } from '../key-store';
import type { Stores } from '../stores';
import { watchPersistence } from './persistence';
import { createRedisAccountStore } from './redis-account-store';
import { createRedisBillingStore } from './redis-billing';
import type { RedisClient } from './redis-client';
import { createRedisClock } from './redis-clock';
import { createRedisEventStore } from './redis-events';
import { createRedisQuotaStore } from './redis-quota-store';
import { createRedisSessionStore } from './redis-sessions';
import { createRedisAuditLog } from './redis-audit-log';
import { createRedisTeamStore } from './redis-teams';
import { createStoreGuard } from './store-guard';
import { createUndoQueue } from './undo-queue';

/** Options of {@link createRedisStores}. */
export interface RedisStoresOptions {
  clock: () => number;
  /** Secrets and account ids (tests make them predictable). */
  generateKey?: (accountId: string) => string;
  newAccountId?: () => string;
  /** Every API name, so migrating a key made before accounts carries over its playground counters too. */
  apis?: readonly string[];
  /** How long (ms) a command may take before the caller is told the store failed. */
  timeoutMs?: number;
  /** Real time for the scripts' deadlines (the injected `clock` may be a test's frozen one). */
  wallClock?: () => number;
  /** Called with each store operation's duration in seconds (the latency histogram). */
  onLatency?: (operation: string, seconds: number) => void;
  logger?: Logger;
}

/** Key and quota stores in Redis, shared by every gateway process and the CLI. */
export function createRedisStores(redis: RedisClient, options: RedisStoresOptions): Stores {
  const { clock } = options;
  const wallClock = options.wallClock ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 1_000;
  // A client without an offline queue (the gateway's) fails a command at once while disconnected;
  // one with a queue (a test's, a script's) waits for the connection.
  const queues = redis.options.enableOfflineQueue !== false;
  // The longest a command is waited for while Redis keeps answering others; the scripts' deadline.
  const maxWaitMs = timeoutMs * 8;
  const guard = createStoreGuard({ timeoutMs, maxWaitMs, connected: () => queues || redis.status === 'ready', onLatency: options.onLatency });
  const redisTime = createRedisClock(redis, wallClock);
  // Undoing what a timed-out command may still do when it runs: sent on the same connection, so
  // Redis runs it after that command; kept and sent again after a reconnect if it cannot go now.
  const undo = createUndoQueue(redis, options.logger);

  const shared = { guard, deadline: (ms: number) => redisTime.deadline(ms), maxWaitMs, undo: (command: () => Promise<unknown>) => undo.add(command), apis: options.apis };
  const accountStore = createRedisAccountStore(redis, { ...shared, clock, newAccountId: options.newAccountId, generateKey: options.generateKey });
  const quotaStore = createRedisQuotaStore(redis, { ...shared, logger: options.logger });

  return {
    accountStore,
    keyStore: createLegacyKeyStore(accountStore),
    quotaStore,
    sessionStore: createRedisSessionStore(redis, { guard, clock }),
    billingStore: createRedisBillingStore(redis, guard, shared.undo),
    auditLog: createRedisAuditLog(redis, { guard, clock }),
    eventStore: createRedisEventStore(redis, guard),
    teamStore: createRedisTeamStore(redis, { guard, clock }),
    kind: 'redis',
    persistence: watchPersistence(redis, options.logger),
  };
}
