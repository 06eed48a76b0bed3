import { hostname } from 'node:os';
import type { Request, Router } from 'express';
import type { Logger } from '@tollgate/envelope';
import type { EventsConfig } from '../config';
import type { PaymentNotice } from '../domain/event-types';
import type { PlanTable } from '../domain/plans';
import type { QuotaObserver, UsageSink } from '../domain/usage-event';
import type { Account } from '../data/account-store';
import type { BackgroundLoops } from '../data/background-loop';
import { auditedEventStore } from '../data/audited-event-store';
import type { AuditDeps, AuditSource } from '../data/audited-account-store';
import type { EventStore } from '../data/event-store';
import { createStoreClient } from '../data/redis/redis-client';
import { createRedisUsageStream } from '../data/redis/redis-usage-stream';
import type { Stores } from '../data/stores';
import { createActionLimiter } from '../http/account-limits';
import type { GatewayMetrics } from '../http/metrics';
import type { Mailer } from '../mail/mailer';
import { createAccountSweeps, observeSubscriptions, revokedKeyNotice } from './account-notices';
import { createDeliveryWorker } from './delivery-worker';
import type { DeliveryWorker } from './delivery-worker';
import { createEventBus } from './event-bus';
import type { AccountEvent } from './event-bus';
import { createEventRoutes } from './event-routes';
import { createQuotaAlerts } from './quota-alerts';
import { createHttpBatchWriter } from './usage-sinks';
import { createUsageStream } from './usage-stream';
import type { UsageStream } from './usage-stream';
import { sendWebhook } from './webhook-sender';

/** What the events room is built from. */
export interface EventsDeps {
  config: EventsConfig;
  plans: PlanTable;
  stores: Stores;
  mailer: Mailer;
  clock: () => number;
  /** The time webhook signatures carry (the receiver's clock judges it); Date.now unless set. */
  wallClock?: () => number;
  logger: Logger;
  metrics: GatewayMetrics;
  /** Origin of the portal links in mail (`PUBLIC_URL`); relative links without it. */
  publicUrl?: string;
  /** Where the room's loops run (logged, counted, each one's last success in `/readyz`). */
  loops: BackgroundLoops;
  /** The audit log: changes to endpoints and event settings, the customer's and the worker's, are recorded there. */
  audit?: AuditDeps;
}

/** Who an event-route change is made by: the customer's key, or the customer signed in to the portal. */
export type EventCaller = { account: Account; key?: { id: string } };

/** The events room as the composition wires it. */
export interface Events {
  /** The stores the other rooms get: subscription changes are told from them. */
  stores: Stores;
  /** The API path's hooks: the usage stream's buffer (when on) and each API's quota observer (when alerts are on). */
  usage?: UsageSink;
  observerFor(api: string): QuotaObserver | undefined;
  /** `/dashboard/v1/events/*` and `/dashboard/v1/webhooks/*` (mount at `/dashboard/v1`); each change recorded as `sourceOf` says. */
  routes(authenticate: (req: Request) => Promise<EventCaller>, sourceOf: (req: Request, caller: EventCaller) => AuditSource): Router;
  /** What billing calls on a failed, recovered or ended payment. */
  billingNotice(notice: PaymentNotice): void;
  publish(event: AccountEvent): Promise<void>;
  /** For tests and the CLI: run the queue, the alerts and the sweeps once now. */
  worker: DeliveryWorker;
  flushAlerts(): Promise<void>;
  runSweeps(): Promise<void>;
  usageStream?: UsageStream;
  /**
   * Starts the room's loops: those the API path feeds (the alerts' claims, the accounts' own
   * thresholds), those of the whole fleet (the webhook queue, the hourly notices), or both.
   */
  start(jobs?: { api: boolean; fleet: boolean }): void;
  stop(): Promise<void>;
}

/** The delivery worker's changes to endpoints (turning a failing one off), as the audit log names them. */
const WEBHOOKS_SOURCE: AuditSource = { actor: { type: 'system', id: 'webhooks', via: 'webhooks' }, from: null };

/** Builds the events room: bus, delivery worker, quota alerts, notices, usage stream and routes. */
export function createEvents(deps: EventsDeps): Events {
  const { config, logger, clock, audit } = deps;
  const { eventStore } = deps.stores;
  const portalUrl = deps.publicUrl ?? '';
  const changedBy = (source: AuditSource): EventStore => (audit ? auditedEventStore(eventStore, audit, source) : eventStore);
  const worker = createDeliveryWorker({
    // Turning a failing endpoint off is the system's change.
    eventStore: changedBy(WEBHOOKS_SOURCE),
    accountStore: deps.stores.accountStore,
    mailer: deps.mailer,
    clock,
    wallClock: deps.wallClock ?? Date.now,
    logger,
    portalUrl,
    loops: deps.loops,
    send: (url, headers, payload) => sendWebhook(url, headers, payload, { allowPrivate: config.allowPrivate, timeoutMs: config.webhookTimeoutMs }),
  });
  const bus = createEventBus({ eventStore, accountStore: deps.stores.accountStore, teamStore: deps.stores.teamStore, mailer: deps.mailer, clock, logger, portalUrl, queued: () => worker.nudge(), maxPending: config.pendingPerAccount });
  const limit = createActionLimiter({ quotaStore: deps.stores.quotaStore, clock, limits: { webhook_send: config.sendsPerHour } });
  const publish = (event: AccountEvent): Promise<void> => bus.publish(event);
  const alerts = config.quotaAlerts ? createQuotaAlerts({ plans: deps.plans, eventStore, publish, clock, loops: deps.loops }) : undefined;
  const notices = { plans: deps.plans, accountStore: deps.stores.accountStore, eventStore, publish, clock, logger };
  const sweeps = createAccountSweeps(notices, deps.loops);
  const usageStream = config.usage ? createUsage(config.usage, deps) : undefined;
  // Heard from the moment the room exists: a revocation is told whichever gateway made it.
  deps.stores.quotaStore.onRevoked(revokedKeyNotice(notices), () => undefined);
  return {
    stores: observeSubscriptions(deps.stores, publish),
    ...(usageStream ? { usage: usageStream.sink } : {}),
    observerFor: (api) => alerts?.observerFor(api),
    routes: (authenticate, sourceOf) =>
      createEventRoutes({ plans: deps.plans, eventStore, changesBy: (req, caller) => changedBy(sourceOf(req, caller)), bus, rules: { allowPrivate: config.allowPrivate }, clock, authenticate, limit, thresholdsChanged: async () => alerts?.reload() }),
    billingNotice: (notice) => void publish({ accountId: notice.accountId, type: notice.type, data: { api: notice.api, plan: notice.plan, ...notice.data } }),
    publish,
    worker,
    flushAlerts: async () => alerts?.flush(),
    runSweeps: () => sweeps.runOnce(),
    ...(usageStream ? { usageStream } : {}),
    start(jobs = { api: true, fleet: true }) {
      if (jobs.fleet) {
        worker.start();
        sweeps.start();
      }
      if (jobs.api) alerts?.start();
      if (usageStream) logger.info({ usage_events: config.usage?.sink, buffer: config.usage?.capacity }, 'usage events stream on');
    },
    async stop() {
      await Promise.all([worker.stop(), alerts?.stop(), sweeps.stop(), usageStream?.stop()]);
    },
  };
}

/** The usage stream on the configured sink, with its counts in the metrics. */
function createUsage(usage: NonNullable<EventsConfig['usage']>, deps: EventsDeps): UsageStream {
  const writer =
    usage.sink === 'http'
      ? createHttpBatchWriter(usage.url)
      : createRedisUsageStream(createStoreClient({ redisUrl: usage.redisUrl, clusterNodes: usage.clusterNodes }, { logger: deps.logger }), { shards: usage.shards, maxLen: usage.maxLen });
  return createUsageStream({
    writer,
    source: usage.source ?? `urn:tollgate:gateway:${hostname()}:${process.pid}`,
    capacity: usage.capacity,
    logger: deps.logger,
    loops: deps.loops,
    counted: { dropped: (n) => deps.metrics.usageEventsDropped.inc(n), sent: (n) => deps.metrics.usageEventsSent.inc(n) },
  });
}
