import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Cluster } from 'ioredis';
import Stripe from 'stripe';
import { createLogger, validateResponse } from '@tollgate/envelope';
import type { RouteDoc } from '@tollgate/envelope';
import { BILLING_ADMIN_ROUTES } from '../../../src/billing/billing-admin-routes';
import { BILLING_ROUTES } from '../../../src/billing/billing-routes';
import { createStripeLocal } from '@tollgate/stripe-local';
import type { StripeLocal, StripeLocalOptions } from '@tollgate/stripe-local';
import { createBillingFor, createEventsFor, createGatewayListener } from '../../../src/app';
import type { Events } from '../../../src/events/create-events';
import type { Billing } from '../../../src/billing/create-billing';
import { createStripeProvider } from '../../../src/billing/stripe/stripe-provider';
import { loadConfig } from '../../../src/config';
import type { GatewayConfig } from '../../../src/config';
import { openStores } from '../../../src/data/open-stores';
import type { Stores } from '../../../src/data/stores';
import { sha256 } from '../../../src/data/session-store';
import { createServiceDocuments } from '../../../src/data/service-documents';
import { createUsageRecorder } from '../../../src/data/usage-recorder';
import { createBackgroundLoops } from '../../../src/data/background-loop';
import { createMetrics, loopObserver } from '../../../src/http/metrics';
import { createSmtpMailer } from '../../../src/mail/mailer';
import { startEchoUpstream } from '../../support/echo-upstream';
import type { EchoUpstream } from '../../support/echo-upstream';
import { startSmtpInbox } from '../../support/smtp-inbox';
import { useStarted } from '../../support/use-started';
import type { SmtpInbox } from '../../support/smtp-inbox';
import { createLiveCatalogue } from '../../../src/data/live-catalogue';
import { closeRedis } from '../../../src/data/redis/close-redis';

export const ADMIN_TOKEN = 'billing-admin-token-0123456789';
/** The signing secret of a gateway started with `webhooks: 'manual'`. */
export const MANUAL_WEBHOOK_SECRET = 'whsec_tollgate_manual_secret';
const PROXY_SECRET = 'billing-proxy-secret-0123456789';
const DAY = 86_400;

/** A parsed JSON answer, as the tests read into it. */
type Json = ReturnType<typeof JSON.parse>;

/** A signed-in portal session: its cookie and CSRF token. */
export interface PortalSession {
  cookie: string;
  csrf: string;
}

/** Where a billing gateway keeps its state: the engines billing must work on. */
export type Engine = { kind: 'memory' } | { kind: 'sqlite' } | { kind: 'redis'; url: string } | { kind: 'cluster'; seeds: string };

/** A gateway serving on a real port with billing on, stripe-local beside it, a real SMTP inbox and an echo service. */
export interface BillingGateway {
  url: string;
  config: GatewayConfig;
  stores: Stores;
  billing: Billing;
  /** The events room, wired to billing as main.ts wires it (its worker is run by the tests). */
  events: Events;
  local: StripeLocal;
  /** The real SDK, pointed at stripe-local (as an operator's own scripts would be at Stripe). */
  stripe: Stripe;
  webhookSecret: string;
  mail: SmtpInbox;
  upstream: EchoUpstream;
  /** A verified account with one key, and a portal session of it (what moves money needs the person). */
  account(email: string): Promise<{ id: string; key: string; session: PortalSession }>;
  /** A portal session of the account, made as a sign-in makes one (sign-in.test.ts covers that path). */
  sessionOf(accountId: string): Promise<PortalSession>;
  /** A JSON call with a key (the admin token on admin routes) or a portal session, its status and envelope. */
  json(method: string, route: string, key: string | PortalSession | null, body?: unknown): Promise<{ status: number; body: Json }>;
  /** A proxied call's status and envelope. */
  call(key: string, route: string): Promise<{ status: number; body: Json; headers: Headers }>;
  /** Pays a checkout as its hosted page does, then waits for the webhooks. */
  pay(url: string, card?: string): Promise<void>;
  /** The test clock the account's customer in `currency` lives on. */
  clockOf(accountId: string, currency: string): Promise<string>;
  /** Advances a test clock by days and waits for renewals, retries and their webhooks. */
  advanceDays(clockId: string, days: number): Promise<void>;
  /** Posts an event to the gateway's webhook as Stripe does, signed with `secret` (the gateway's by default) at `timestamp` (now). */
  deliver(event: unknown, options?: { secret?: string; timestamp?: number; signature?: string | null }): Promise<{ status: number; body: Json }>;
  close(): Promise<void>;
}

/** Options of {@link startBillingGateway}. */
export interface BillingGatewayOptions {
  engine?: Engine;
  /** The gateway's wall clock starts here (it then runs): new customers' test clocks start here too. */
  start?: number;
  env?: Record<string, string>;
  /**
   * `delivered` (default): the catalogue sync makes the endpoint and stripe-local sends every event;
   * `manual`: the gateway has {@link MANUAL_WEBHOOK_SECRET} but no endpoint exists (tests post events
   * themselves); `none`: no secret and no endpoint (reconciliation is the only way in).
   */
  webhooks?: 'delivered' | 'manual' | 'none';
  stripeLocal?: StripeLocalOptions;
}

/** Starts stripe-local, syncs the catalogue against the gateway's address, then starts the gateway on it. */
export async function startBillingGateway(options: BillingGatewayOptions = {}): Promise<BillingGateway> {
  const engine = options.engine ?? { kind: 'memory' };
  const local = createStripeLocal({ webhookRetryMs: 20, webhookMaxAttempts: 4, ...options.stripeLocal });
  const stripeUrl = await local.listen(0);
  const { hostname, port: stripePort } = new URL(stripeUrl);
  const stripe = new Stripe('sk_test_tollgate_tests', { host: hostname, port: Number(stripePort), protocol: 'http', maxNetworkRetries: 0 });
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const [mail, upstream] = await Promise.all([startSmtpInbox(), startEchoUpstream()]);
  const dir = mkdtempSync(path.join(tmpdir(), 'tollgate-billing-'));
  const baseEnv: Record<string, string> = {
    ADMIN_TOKEN,
    PROXY_SECRET,
    LOG_LEVEL: 'silent',
    BURGER_URL: upstream.url,
    TOKEN_URL: upstream.url,
    LOGS_URL: upstream.url,
    PUBLIC_URL: url,
    STRIPE_SECRET_KEY: 'sk_test_tollgate_tests',
    STRIPE_API_BASE: stripeUrl,
    STRIPE_TEST_CLOCKS: 'true',
    SUPPORT_EMAIL: 'billing@tollgate.test',
    REDIS_TIMEOUT_MS: '2000',
    ...options.env,
  };
  const t0 = Date.now();
  const start = options.start ?? t0;
  const clock = (): number => start + (Date.now() - t0);
  const webhooks = options.webhooks ?? 'delivered';
  const unsigned = loadConfig(baseEnv);
  const synced = await createStripeProvider(unsigned.billing!, unsigned.catalogue.apis, clock).syncCatalogue(unsigned.catalogue.apis, `${url}/billing/webhook`);
  if (webhooks !== 'delivered') await stripe.webhookEndpoints.del(synced.webhook.id);
  const webhookSecret = webhooks === 'delivered' ? (synced.webhook.secret ?? '') : webhooks === 'manual' ? MANUAL_WEBHOOK_SECRET : '';
  const config = loadConfig({ ...baseEnv, ...(webhookSecret ? { STRIPE_WEBHOOK_SECRET: webhookSecret } : {}) });
  const logger = createLogger({ service: 'billing-test', level: 'silent' });
  const opened = await openStores({
    storePath: engine.kind === 'sqlite' ? path.join(dir, 'tollgate.db') : ':memory:',
    redisUrl: engine.kind === 'redis' ? engine.url : undefined,
    redisClusterNodes: engine.kind === 'cluster' ? engine.seeds.split(',').map((s) => ({ host: '127.0.0.1', port: Number(s.split(':')[1]) })) : undefined,
    redisTimeoutMs: config.redisTimeoutMs,
    clock,
    logger,
  });
  // The adoption walk of the last test's accounts ends before the store is emptied, not after.
  await opened.adopted;
  if (opened.redis) await (engine.kind === 'cluster' ? Promise.all((opened.redis as Cluster).nodes('master').map((m) => m.flushall())) : opened.redis.flushall());
  const mailer = createSmtpMailer(mail.url, 'Tollgate <billing@tollgate.test>');
  const metrics = createMetrics();
  const loops = createBackgroundLoops({ clock, logger, observer: loopObserver(metrics) });
  const catalogue = createLiveCatalogue(config.catalogue, logger);
  const events = createEventsFor({ config, stores: opened.stores, clock, logger, metrics, loops, catalogue }, mailer);
  const { stores } = events;
  const billing = createBillingFor({ config, stores, clock, logger, loops, catalogue }, mailer, events);
  const recorder = createUsageRecorder({ store: stores.accountStore, clock, intervalMs: 3_600_000 });
  const documents = createServiceDocuments({ catalogue: () => catalogue.current(), proxySecret: config.proxySecret, clock });
  const { listener } = createGatewayListener({ config, stores, clock, logger, metrics, documents, recorder, mailer, billing, events, loops, catalogue });
  server.on('request', listener);

  // Every billing answer is checked against its route's documented schema (contract tests).
  const documented: RouteDoc[] = [...Object.values(BILLING_ROUTES), ...Object.values(BILLING_ADMIN_ROUTES)];
  const routeOf = (method: string, route: string): RouteDoc | undefined =>
    documented.find((r) => r.method === method.toLowerCase() && new RegExp(`^${r.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(route.split('?')[0]!));
  const json: BillingGateway['json'] = async (method, route, key, body) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (typeof key === 'object' && key !== null) Object.assign(headers, { cookie: `tg_session=${key.cookie}`, 'x-csrf-token': key.csrf });
    else if (key === ADMIN_TOKEN) headers.authorization = `Bearer ${ADMIN_TOKEN}`;
    else if (key) headers['x-tollgate-key'] = key;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(url + route, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const answer = { status: res.status, body: (await res.json()) as Json };
    const doc = routeOf(method, route);
    if (doc) {
      const problems = validateResponse(doc, answer.status, answer.body);
      if (problems.length) throw new Error(`${method} ${route} answered ${answer.status} against its documented schema: ${problems.join('; ')}`);
    }
    return answer;
  };
  // The store's session under the cookie's hash, as a sign-in makes it.
  const sessionOf = async (accountId: string): Promise<PortalSession> => {
    const session = { cookie: randomBytes(32).toString('base64url'), csrf: randomBytes(32).toString('base64url') };
    const nowMs = clock();
    await stores.sessionStore.putSession(sha256(session.cookie), { account_id: accountId, csrf_token: session.csrf, created_at: new Date(nowMs).toISOString(), expires_at: new Date(nowMs + 86_400_000).toISOString() });
    return session;
  };
  return {
    url,
    config,
    stores,
    billing,
    events,
    local,
    stripe,
    webhookSecret,
    mail,
    upstream,
    async account(email) {
      const account = await stores.accountStore.createAccount({ email, name: email.split('@')[0] });
      const key = await stores.accountStore.createKey(account.id, { name: 'test' });
      return { id: account.id, key: key!.key, session: await sessionOf(account.id) };
    },
    sessionOf,
    json,
    async call(key, route) {
      const res = await fetch(url + route, { headers: { 'x-tollgate-key': key } });
      return { status: res.status, body: await res.json(), headers: res.headers };
    },
    async pay(checkoutUrl, card = '4242 4242 4242 4242') {
      local.completeCheckout(checkoutUrl.split('/').at(-1)!, { number: card, expiry: '12/34', cvc: '123' });
      await local.settle();
    },
    async clockOf(accountId, currency) {
      const customerId = (await stores.billingStore.getBilling(accountId))?.customers[currency];
      const customer = (await stripe.customers.retrieve(customerId!)) as Stripe.Customer;
      return customer.test_clock as string;
    },
    async advanceDays(clockId, days) {
      const { frozen_time } = await stripe.testHelpers.testClocks.retrieve(clockId);
      await stripe.testHelpers.testClocks.advance(clockId, { frozen_time: frozen_time + Math.round(days * DAY) });
      await local.settle();
    },
    async deliver(event, deliverOptions = {}) {
      const payload = JSON.stringify(event, null, 2);
      const signature =
        deliverOptions.signature === undefined
          ? stripe.webhooks.generateTestHeaderString({ payload, secret: deliverOptions.secret ?? webhookSecret, ...(deliverOptions.timestamp === undefined ? {} : { timestamp: deliverOptions.timestamp }) })
          : deliverOptions.signature;
      const res = await fetch(`${url}/billing/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'stripe-signature': signature }) }, body: payload });
      return { status: res.status, body: await res.json() };
    },
    async close() {
      await billing.stop();
      await events.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await recorder.stop().catch(() => undefined);
      mailer.close();
      opened.close?.();
      if (opened.redis) await closeRedis(opened.redis);
      await Promise.all([local.close(), mail.close(), upstream.close()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One billing gateway for a describe block (or a file), started before its tests and closed after them (see useStarted). */
export function useBillingGateway(options: BillingGatewayOptions = {}): BillingGateway {
  return useStarted(() => startBillingGateway(options));
}

/** Mid-month, so a first billing period runs to the first of the next month and is charged in proportion. */
export const MID_MARCH = Date.parse('2026-03-16T12:00:00.000Z');
