import { createServer } from 'node:http';
import type { RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { finishAdvance } from './billing/advance-clock';
import { completeCheckout, expireCheckoutSession } from './billing/complete-checkout';
import type { CheckoutForm } from './billing/complete-checkout';
import { processDue } from './billing/process-due';
import { AUTOMATIC } from './core/context';
import type { Context } from './core/context';
import { createEventRecorder } from './core/create-event-recorder';
import { present } from './core/present';
import type { Json } from './core/present';
import { loadState, saveState } from './core/state-file';
import { createStore } from './core/store';
import { createRequestListener } from './http/create-request-listener';
import { IdempotencyStore } from './http/idempotency-store';
import type { TestClock } from './objects/test-clock';
import { apiRoutes } from './routes/api-routes';
import { resolveOptions } from './stripe-local-options';
import type { StripeLocalOptions } from './stripe-local-options';
import { createWebhookDeliveries } from './webhooks/create-webhook-deliveries';

/** A running (or ready to run) stripe-local server, with the helpers tests need. */
export interface StripeLocal {
  /** Listens on 127.0.0.1 (port 0: any free port); resolves with the base URL. */
  listen(port?: number, host?: string): Promise<string>;
  /** Stops listening, drops waiting webhook retries, and waits for advancing clocks. */
  close(): Promise<void>;
  /** The base URL: what the SDK's `host`/`port` and the hosted pages' links point at. */
  readonly url: string;
  /** The request listener, to serve from a server of your own. */
  readonly listener: RequestListener;
  /** Resolves when no webhook delivery is pending (each has succeeded or used its attempts). */
  deliveriesIdle(): Promise<void>;
  /** Resolves when no test clock is advancing. */
  clocksIdle(): Promise<void>;
  /** Both: clocks have finished and every webhook they caused has been delivered. */
  settle(): Promise<void>;
  /** Runs what the wall clock has made due (renewals, retries, expiries); requests do this too. */
  tick(): void;
  /** Pays a Checkout Session as its hosted page does, without HTML: for tests. */
  completeCheckout(sessionId: string, form: CheckoutForm): Record<string, Json>;
  /** The port the state file says was last listened on (null without one): listen there again, and links already handed out still work. */
  readonly savedPort: number | null;
  /** A webhook endpoint's signing secret, which the API shows only once: for the demo, which syncs again on every start. */
  webhookSecretOf(endpointId: string): string | undefined;
}

/** Builds a stripe-local server: empty in memory (or as its state file left it), nothing started until `listen`. */
export function createStripeLocal(options: StripeLocalOptions = {}): StripeLocal {
  const settings = resolveOptions(options);
  const store = createStore();
  const savedPort = settings.stateFile ? (loadState(store, settings.stateFile)?.port ?? null) : null;
  let listeningPort: number | null = savedPort;
  const persist = () => {
    if (!settings.stateFile) return;
    try {
      saveState(store, settings.stateFile, listeningPort);
    } catch (error) {
      settings.log(`stripe-local: the state could not be written to ${settings.stateFile}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const deliveries = createWebhookDeliveries(store, settings);
  let baseUrl: string | null = null;
  const ctx: Context = {
    store,
    settings,
    now: () => Math.floor(settings.clock() / 1000),
    baseUrl: () => settings.publicUrl ?? baseUrl ?? 'http://127.0.0.1',
    emit: createEventRecorder(store, (event) => deliveries.enqueue(event)),
    snapshot: (object) => present(store, object),
  };
  const advancing = new Set<Promise<void>>();
  // The advance request is answered first; the clock's customers catch up after testClockDelayMs.
  const finish = (clock: TestClock) => {
    const run = new Promise<void>((resolve) =>
      setTimeout(() => {
        try {
          finishAdvance(ctx, clock, { at: ctx.now(), request: AUTOMATIC });
        } catch (error) {
          clock.status = 'internal_failure';
          settings.log(`stripe-local: advancing ${clock.id} failed: ${error instanceof Error ? error.stack : String(error)}`);
        }
        persist();
        resolve();
      }, settings.testClockDelayMs),
    );
    advancing.add(run);
    void run.then(() => advancing.delete(run));
  };
  const tick = () => {
    const now = ctx.now();
    processDue(ctx, null, now);
    for (const session of store.checkoutSessions.all()) {
      if (session.status === 'open' && session.expires_at <= now) expireCheckoutSession(ctx, session, { at: session.expires_at, request: AUTOMATIC });
    }
  };
  // Every change comes from a request, a tick or an advancing clock: the state is written after each.
  const listener = createRequestListener(ctx, { ctx, routes: apiRoutes(ctx, finish), idempotency: new IdempotencyStore(), catchUp: tick }, persist);
  const server: Server = createServer(listener);
  const clocksIdle = async () => {
    while (advancing.size > 0) await Promise.all([...advancing]);
  };

  return {
    listener,
    get url() {
      if (!baseUrl) throw new Error('stripe-local is not listening; call listen() first');
      return baseUrl;
    },
    listen(port = 0, host = '127.0.0.1') {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const address = server.address() as AddressInfo;
          const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
          baseUrl = `http://${shownHost}:${address.port}`;
          listeningPort = address.port;
          persist();
          resolve(baseUrl);
        });
      });
    },
    async close() {
      deliveries.close();
      await clocksIdle();
      persist();
      if (!server.listening) return;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
    deliveriesIdle: () => deliveries.idle(),
    clocksIdle,
    async settle() {
      do {
        await clocksIdle();
        await deliveries.idle();
      } while (advancing.size > 0);
    },
    tick() {
      tick();
      persist();
    },
    completeCheckout(sessionId, form) {
      const session = present(store, completeCheckout(ctx, store.checkoutSessions.require(sessionId), form));
      persist();
      return session;
    },
    savedPort,
    webhookSecretOf: (endpointId) => store.webhookSecrets.get(endpointId),
  };
}
