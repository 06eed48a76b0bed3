import type { Store } from '../core/store';
import type { StripeEvent } from '../objects/stripe-event';
import { wantsEvent } from '../objects/webhook-endpoint';
import type { Settings } from '../stripe-local-options';
import { signatureHeader } from './signature-header';

/** Sends events to webhook endpoints, as Stripe does, and says when nothing is left to send. */
export interface WebhookDeliveries {
  /** Queues the event for every enabled endpoint that wants its type. */
  enqueue(event: StripeEvent): void;
  /** Resolves once every queued delivery has succeeded or used up its attempts. */
  idle(): Promise<void>;
  /** Stops: waiting retries are dropped and requests under way aborted. */
  close(): void;
}

/**
 * Deliveries run in the background: to each endpoint one first attempt at a time, in the order
 * the events happened; a failed attempt (no 2xx, an error, a timeout) is retried after
 * `webhookRetryMs`, doubling, up to `webhookMaxAttempts` attempts in all. Stripe promises no
 * order, and neither does a retry here.
 */
export function createWebhookDeliveries(store: Store, settings: Settings): WebhookDeliveries {
  let pending = 0;
  let closed = false;
  let waiters: (() => void)[] = [];
  const chains = new Map<string, Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  const aborter = new AbortController();

  const finish = () => {
    pending -= 1;
    if (pending > 0) return;
    const resolved = waiters;
    waiters = [];
    for (const resolve of resolved) resolve();
  };

  const attempt = async (event: StripeEvent, endpointId: string, number: number): Promise<void> => {
    const endpoint = store.webhookEndpoints.get(endpointId);
    const secret = store.webhookSecrets.get(endpointId);
    if (closed || !endpoint || !secret || endpoint.status !== 'enabled') return finish();
    const payload = JSON.stringify(event, null, 2);
    const timestamp = Math.floor(settings.clock() / 1000);
    let outcome: string;
    try {
      const response = await settings.fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'Stripe-Signature': signatureHeader(payload, secret, timestamp),
        },
        body: payload,
        signal: AbortSignal.any([aborter.signal, AbortSignal.timeout(settings.webhookTimeoutMs)]),
        redirect: 'manual',
      });
      const text = await response.text().catch(() => '');
      outcome = response.ok ? 'ok' : `HTTP ${response.status}${text ? `: ${text.replace(/\s+/g, ' ').slice(0, 400)}` : ''}`;
    } catch (error) {
      outcome = (error as Error).message;
    }
    if (outcome === 'ok') {
      event.pending_webhooks = Math.max(0, event.pending_webhooks - 1);
      return finish();
    }
    if (closed || number >= settings.webhookMaxAttempts) {
      if (!closed) settings.log(`stripe-local: gave up delivering ${event.id} (${event.type}) to ${endpoint.url} after ${number} attempts: ${outcome}`);
      return finish();
    }
    const delay = settings.webhookRetryMs * 2 ** (number - 1);
    // Each failure is said as it happens: a settle() that waits on retries then names its cause.
    settings.log(`stripe-local: delivering ${event.id} (${event.type}) to ${endpoint.url} failed, attempt ${number} of ${settings.webhookMaxAttempts}, the next in ${delay} ms: ${outcome}`);
    const timer = setTimeout(() => {
      timers.delete(timer);
      void attempt(event, endpointId, number + 1);
    }, delay);
    timer.unref();
    timers.add(timer);
  };

  return {
    enqueue(event) {
      if (closed) return;
      for (const endpoint of store.webhookEndpoints.all().reverse()) {
        if (!wantsEvent(endpoint, event.type)) continue;
        pending += 1;
        const previous = chains.get(endpoint.id) ?? Promise.resolve();
        chains.set(endpoint.id, previous.then(() => attempt(event, endpoint.id, 1)));
      }
    },
    idle() {
      return pending === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
    },
    close() {
      closed = true;
      aborter.abort();
      for (const timer of timers) {
        clearTimeout(timer);
        finish();
      }
      timers.clear();
    },
  };
}
