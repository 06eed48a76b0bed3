import type { Logger } from '@tollgate/envelope';
import { DISABLE_AFTER_MS, RETRY_DELAYS_MS } from '../domain/event-types';
import type { AccountStore } from '../data/account-store';
import type { BackgroundLoops } from '../data/background-loop';
import type { Delivery, EventStore, WebhookEndpoint } from '../data/event-store';
import type { Mailer } from '../mail/mailer';
import { endpointDisabledMail } from './event-mail';
import type { AttemptResult } from './webhook-sender';
import { signedHeaders, signingSecrets } from './webhook-signing';

/** What the worker needs. */
export interface DeliveryWorkerDeps {
  eventStore: EventStore;
  accountStore: AccountStore;
  mailer: Mailer;
  /** When attempts are due (the injected clock). */
  clock: () => number;
  /** The signature's time: the receiver compares it with its own clock. */
  wallClock: () => number;
  logger: Logger;
  portalUrl: string;
  send: (url: string, headers: Record<string, string>, payload: string) => Promise<AttemptResult>;
  /** Where its loop runs (logged, counted, its last success shown). */
  loops: BackgroundLoops;
  /** How often the queue is looked at (ms). */
  intervalMs?: number;
}

/** Takes due deliveries from the shared queue and attempts them, each on its own. */
export interface DeliveryWorker {
  /** Leases what is due now and attempts it; resolves when every attempt in flight is written. */
  runOnce(): Promise<void>;
  /** Looks at the queue soon (something was just queued here). */
  nudge(): void;
  start(): void;
  stop(): Promise<void>;
}

// A lease outlives an attempt (10 s at most) and its write: a gateway that died mid-attempt lets another take it after this.
const LEASE_MS = 60_000;
const BATCH = 100;
// Attempts in flight past which the queue is not looked at until some end.
const MAX_IN_FLIGHT = 500;
// A 429 or 503's Retry-After is followed up to this much.
const MAX_RETRY_AFTER_MS = 36_000_000;

/** When the attempt after `attempts` failed ones is due, or undefined once they are used up. */
export function nextAttemptAt(attempts: number, nowMs: number, result: AttemptResult): number | undefined {
  const delay = RETRY_DELAYS_MS[attempts - 1];
  if (delay === undefined) return undefined;
  const asked = result.retryAfterSeconds === undefined ? 0 : Math.min(result.retryAfterSeconds * 1000, MAX_RETRY_AFTER_MS);
  return nowMs + Math.max(delay, asked);
}

export function createDeliveryWorker(deps: DeliveryWorkerDeps): DeliveryWorker {
  const { eventStore, logger, clock } = deps;
  const inFlight = new Set<Promise<void>>();
  // The queue was left with deliveries due while every slot was taken: the first attempt to end looks again.
  let starved = false;

  const disable = async (endpoint: WebhookEndpoint, reason: string): Promise<void> => {
    if (!(await eventStore.putEndpoint({ ...endpoint, enabled: false, disabled_reason: reason }))) return;
    logger.warn({ account_id: endpoint.account_id, endpoint_id: endpoint.id, reason }, 'webhook endpoint disabled');
    const account = await deps.accountStore.getAccount(endpoint.account_id);
    if (account?.email) await deps.mailer.send(endpointDisabledMail(account.email, endpoint.url, reason, deps.portalUrl)).catch((err: unknown) => logger.error({ err: (err as Error).message, endpoint_id: endpoint.id }, 'endpoint-disabled mail not sent'));
  };

  /** The endpoint's state after an attempt: failing since when, or disabled. */
  const judge = async (endpoint: WebhookEndpoint, result: AttemptResult, nowMs: number): Promise<void> => {
    const ok = result.error === null;
    if (ok) {
      if (endpoint.failing_since !== null) await eventStore.putEndpoint({ ...endpoint, failing_since: null });
      return;
    }
    if (result.status === 410) return disable(endpoint, 'it answered 410 Gone');
    const since = endpoint.failing_since === null ? nowMs : Date.parse(endpoint.failing_since);
    if (nowMs - since >= DISABLE_AFTER_MS) return disable({ ...endpoint, failing_since: new Date(since).toISOString() }, 'every delivery to it failed for 3 days');
    if (endpoint.failing_since === null) await eventStore.putEndpoint({ ...endpoint, failing_since: new Date(nowMs).toISOString() });
  };

  const attempt = async (delivery: Delivery): Promise<void> => {
    const endpoint = await eventStore.getEndpoint(delivery.account_id, delivery.endpoint_id);
    const nowMs = clock();
    const base = { ...delivery, attempts: delivery.attempts + 1, last_attempt_at: new Date(nowMs).toISOString() };
    if (!endpoint || !endpoint.enabled) {
      const why = endpoint ? 'the endpoint is disabled' : 'the endpoint was deleted';
      await eventStore.saveDelivery({ ...base, attempts: delivery.attempts, state: 'failed', next_attempt_at: null, last_error: why });
      return;
    }
    const headers = signedHeaders(signingSecrets(endpoint, nowMs), delivery.message_id, deps.wallClock(), delivery.payload);
    const result = await deps.send(endpoint.url, headers, delivery.payload);
    const after = clock();
    const outcome = { last_status: result.status, last_error: result.error, last_latency_ms: result.latencyMs };
    if (result.error === null) {
      await eventStore.saveDelivery({ ...base, ...outcome, state: 'delivered', next_attempt_at: null });
    } else {
      const next = result.status === 410 ? undefined : nextAttemptAt(base.attempts, after, result);
      await eventStore.saveDelivery({ ...base, ...outcome, state: next === undefined ? 'failed' : 'pending', next_attempt_at: next === undefined ? null : new Date(next).toISOString() });
    }
    await judge(endpoint, result, after);
  };

  const track = (delivery: Delivery): void => {
    const done: Promise<void> = attempt(delivery)
      .catch((err: unknown) => logger.warn({ err: (err as Error).message, delivery_id: delivery.id }, 'webhook delivery not written; it is attempted again when its lease lapses'))
      .finally(() => {
        inFlight.delete(done);
        if (starved) {
          starved = false;
          loop.trigger();
        }
      });
    inFlight.add(done);
  };

  // One look at the queue at a time (the loop's); the attempts it starts run on their own, so a
  // slow endpoint holds only its own attempts, never the next look. It leases no more than there
  // are free slots for: a delivery leased and not attempted would wait out its lease.
  const claim = async (): Promise<void> => {
    for (;;) {
      const room = Math.min(BATCH, MAX_IN_FLIGHT - inFlight.size);
      if (room <= 0) {
        starved = true;
        return;
      }
      const due = await eventStore.claimDue(clock(), room, LEASE_MS);
      for (const delivery of due) track(delivery);
      if (due.length < room) return;
    }
  };
  const loop = deps.loops.create({ name: 'webhook_delivery', everyMs: deps.intervalMs ?? 1_000, job: claim, atStart: true, failure: 'the webhook queue was not read; it is read again after a backoff' });

  return {
    async runOnce() {
      await loop.run();
      await Promise.all([...inFlight]);
    },
    nudge: () => loop.trigger(),
    start: () => loop.start(),
    async stop() {
      await loop.stop();
      await Promise.all([...inFlight]);
    },
  };
}
