import type Redis from 'ioredis';
import type { RequestListener } from 'node:http';
import type { Express } from 'express';
import { createLogger } from '@tollgate/envelope';
import { createApp, createEventsFor, createGatewayListener } from '../../src/app';
import type { Events } from '../../src/events/create-events';
import { createLogMailer, createSmtpMailer } from '../../src/mail/mailer';
import { loadConfig } from '../../src/config';
import type { GatewayConfig } from '../../src/config';
import { createMemoryStores } from '../../src/data/memory/memory-stores';
import { createRedisStores } from '../../src/data/redis/redis-stores';
import { openSqliteStores } from '../../src/data/sqlite/sqlite-stores';
import type { SqliteStores } from '../../src/data/sqlite/sqlite-stores';
import { createRedisClient } from '../../src/data/redis/redis-client';
import { closeRedis } from '../../src/data/redis/close-redis';
import { createUsageRecorder } from '../../src/data/usage-recorder';
import type { UsageRecorder } from '../../src/data/usage-recorder';
import { createServiceDocuments } from '../../src/data/service-documents';
import type { Stores } from '../../src/data/stores';
import type { AdminToken } from '../../src/data/admin-token';
import type { PlanTable } from '../../src/domain/plans';
import { createBackgroundLoops } from '../../src/data/background-loop';
import { createMetrics, loopObserver } from '../../src/http/metrics';
import type { GatewayMetrics } from '../../src/http/metrics';
import { manualClock } from '../data/store-contract';
import type { ManualClock } from '../data/store-contract';
import { createLiveCatalogue } from '../../src/data/live-catalogue';

/** Plans small enough to reach their limits in a test. */
export const TEST_PLANS: PlanTable = {
  token: {
    playground_per_day: 10,
    plans: {
      free: { monthly_quota: 5, rate_per_second: 100, price: 0, currency: 'EUR' },
      slow: { monthly_quota: 1000, rate_per_second: 2, price: 0, currency: 'EUR' },
      pro: { monthly_quota: 1000, rate_per_second: 100, price: 2500, currency: 'EUR' },
    },
  },
  burger: { playground_per_day: 0, plans: { free: { monthly_quota: 100, rate_per_second: 50, price: 0, currency: 'USD' } } },
};

export const ADMIN_TOKEN = 'admin-token-for-tests-0123456789';
export const PROXY_SECRET = 'proxy-secret-for-tests';

/** A gateway app on a manual clock with memory or Redis stores, plus what tests inspect. */
export interface GatewayFixture {
  /** The Express app, or the fast-path listener main.ts serves. */
  app: Express | RequestListener;
  clock: ManualClock;
  stores: Stores;
  config: GatewayConfig;
  metrics: GatewayMetrics;
  /** The usage history's recorder: tests flush it rather than wait for its timer. */
  recorder: UsageRecorder;
  /** The events room: tests run its queue, alerts and sweeps rather than wait for their timers. */
  events: Events;
  close(): Promise<void>;
}

/**
 * Builds the app the way main.ts does, from an environment, with the test plan table: on Redis
 * with `redisUrl`, on the embedded SQLite store in the file `sqlitePath`, else in memory.
 */
export async function buildGateway(options: { upstream: string; redisUrl?: string; sqlitePath?: string; fastPath?: boolean; env?: Record<string, string>; plans?: PlanTable; start?: number; keepRedis?: boolean; adminToken?: AdminToken }): Promise<GatewayFixture> {
  const config = loadConfig(
    // A Redis timeout well above this VM's stalls under a full test run (a 250 ms one failed a
    // dashboard test once at load 6); the store-down tests set the production default themselves.
    { ADMIN_TOKEN, PROXY_SECRET, PLANS_FILE: 'test-plans.json', BURGER_URL: options.upstream, TOKEN_URL: options.upstream, LOG_LEVEL: 'silent', REDIS_TIMEOUT_MS: '2000', ...options.env },
    () => JSON.stringify(options.plans ?? TEST_PLANS),
  );
  const clock = manualClock(options.start ?? Date.parse('2026-03-31T23:59:50.000Z'));
  const logger = createLogger({ service: 'gateway-test', level: 'silent' });
  const metrics = createMetrics();
  const loops = createBackgroundLoops({ clock: clock.now, logger, observer: loopObserver(metrics) });
  let redis: Redis | undefined;
  let sqlite: SqliteStores | undefined;
  let stores: Stores;
  if (options.redisUrl) {
    redis = createRedisClient(options.redisUrl, { logger });
    await new Promise((resolve) => redis!.once('ready', resolve));
    if (!options.keepRedis) await redis.flushall();
    stores = createRedisStores(redis, { clock: clock.now, timeoutMs: config.redisTimeoutMs, logger, onLatency: (operation, s) => metrics.storeLatency.observe({ operation }, s) });
  } else if (options.sqlitePath) {
    sqlite = openSqliteStores({ path: options.sqlitePath, clock: clock.now, loops });
    stores = sqlite.stores;
  } else {
    stores = createMemoryStores({ clock: clock.now });
  }
  const catalogue = createLiveCatalogue(config.catalogue, logger);
  const documents = createServiceDocuments({ catalogue: () => catalogue.current(), proxySecret: config.proxySecret, clock: clock.now });
  // A long interval: the tests flush when they read the history.
  const recorder = createUsageRecorder({ store: stores.accountStore, clock: clock.now, intervalMs: 3_600_000, loops });
  const mailer = config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.mailFrom) : createLogMailer(logger, config.mailFrom);
  const events = createEventsFor({ config, stores, clock: clock.now, logger, metrics, loops, catalogue }, mailer);
  const deps = { config, stores, clock: clock.now, logger, metrics, documents, recorder, mailer, events, loops, catalogue, adminToken: options.adminToken };
  const app = options.fastPath ? createGatewayListener(deps).listener : createApp(deps);
  // Once: a test that rebuilds its gateway closes the one its afterEach has closed already.
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closed ??= (async () => {
      await events.stop().catch(() => undefined);
      mailer.close();
      await recorder.stop().catch(() => undefined);
      if (redis) await closeRedis(redis);
      sqlite?.close();
    })());
  return { app, clock, stores, config, metrics, recorder, events, close };
}
