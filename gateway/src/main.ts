import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { createBatchedDestination, createLogger, createTimedServer, serve } from '@tollgate/envelope';
import type { Logger } from '@tollgate/envelope';
import { createBillingFor, createCatalogueReloaderFor, createEventsFor, createGatewayListener, createMetricsApp, createWorkerApp } from './app';
import type { Billing } from './billing/create-billing';
import { loadConfig } from './config';
import type { GatewayConfig } from './config';
import { openAdminToken } from './data/admin-token';
import { openStores } from './data/open-stores';
import { closeRedis } from './data/redis/close-redis';
import { createServiceDocuments } from './data/service-documents';
import { createLiveCatalogue } from './data/live-catalogue';
import type { AuditSource } from './data/audited-account-store';
import { createUsageRecorder } from './data/usage-recorder';
import { createBackgroundLoops } from './data/background-loop';
import { createLogMailer, createSmtpMailer } from './mail/mailer';
import { createMetrics, createStoreLatencyRecorder, loopObserver } from './http/metrics';
import { createDocsRoutes } from './docs/docs-routes';
import { gatewayRouteDocs } from './gateway-route-docs';

/** A reload asked for by a signal: the operator of this host. */
const SIGNAL_SOURCE: AuditSource = { actor: { type: 'operator', id: 'signal:SIGHUP', via: 'signal' }, from: null };

async function main(): Promise<void> {
  let config: GatewayConfig;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    process.stderr.write(`gateway: ${(err as Error).message}\n`);
    process.exit(1);
  }
  // Batches of 16,000 characters (the envelope's default is 4 KB; sonic-boom writes at most 16 KB
  // at once and wants less held): at thousands of calls a second, an access line a call made a
  // thread-pool write every few milliseconds (bench/README.md).
  const logger = createLogger({ service: 'gateway', level: config.logLevel, destination: createBatchedDestination({ minLength: 16_000, flushMs: 250 }) });
  const adminToken = openAdminToken(config);
  if (adminToken.source === 'file') logger.info({ admin_token_file: adminToken.file }, `admin token ${adminToken.made ? 'made and kept' : 'read from'} ${adminToken.file} (mode 0600; tollgate admin-token rotate replaces it)`);
  const clock = (): number => Date.now();
  const metrics = createMetrics({ processMetrics: true });
  // Every background loop runs here: a failure is logged and counted, and the loop goes on.
  const loops = createBackgroundLoops({ clock, logger, observer: loopObserver(metrics) });
  // A rejection nothing handled is a defect of one part: said and counted, never the whole API's end.
  process.on('unhandledRejection', (reason: unknown) => {
    metrics.unhandledRejections.inc();
    logger.error({ err: reason instanceof Error ? (reason.stack ?? reason.message) : String(reason) }, 'a promise rejection nothing handled; the gateway goes on');
  });
  const { stores: opened, redis, close: closeStore } = await openStores({
    loops,
    redisUrl: config.redisUrl,
    redisClusterNodes: config.redisClusterNodes,
    storePath: config.storePath,
    redisTimeoutMs: config.redisTimeoutMs,
    clock,
    logger,
    onLatency: createStoreLatencyRecorder(metrics),
    apis: Object.keys(config.catalogue.apis),
    secretsKeys: config.secretsKeys,
  });
  const catalogue = createLiveCatalogue(config.catalogue, logger);
  logger.info(
    { role: config.role, store: opened.kind, catalogue: config.catalogue.source, catalogue_digest: config.catalogue.digest, apis: Object.keys(config.catalogue.apis), admin_api: adminToken.source !== 'none', admin_token: adminToken.source, quota_fail_mode: config.quotaFailMode },
    'gateway configured',
  );
  if (!config.proxySecret) logger.warn({}, 'PROXY_SECRET is not set: services that require one will answer 403');
  for (const warning of config.warnings) logger.warn({}, warning);
  const serveCalls = config.role !== 'worker';
  const runFleetJobs = config.role !== 'api';
  const documents = createServiceDocuments({ catalogue: () => catalogue.current(), proxySecret: config.proxySecret, clock });
  // Asked now so unknown routes are refused from the first call; a service still starting is asked again later.
  if (serveCalls) void documents.all();
  const docs = createDocsRoutes({ documents, keyHeader: config.keyHeader, gatewayRoutes: gatewayRouteDocs(), ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}) });
  if (config.role === 'api') logger.info({ role: 'api' }, 'GATEWAY_ROLE=api: webhook deliveries, the hourly notices and billing’s reconciliation run in the GATEWAY_ROLE=worker processes; run at least one beside these');
  if (config.role === 'worker') logger.info({ role: 'worker' }, 'GATEWAY_ROLE=worker: this process serves no calls (only /healthz, /readyz and /metrics) and runs the fleet’s background loops');
  const recorder = serveCalls ? createUsageRecorder({ store: opened.accountStore, clock, logger, loops }) : undefined;
  const mailer = config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.mailFrom) : createLogMailer(logger, config.mailFrom);
  if (config.smtpUrl) logger.info({ mail: mailer.describe, mail_from: config.mailFrom }, `portal mail (sign-in codes) goes through ${mailer.describe}`);
  else logger.warn({ mail: 'log' }, 'SMTP_URL is not set: each portal mail (sign-in codes) is written to this log instead of being sent; set SMTP_URL (smtp:// or smtps://) to send it');
  if (config.smtpUrl && !config.publicUrl) logger.warn({}, 'PUBLIC_URL is not set: a sign-in mail links to the portal only when the request reached this gateway by its own address or a loopback name, else it gives the code alone; set PUBLIC_URL to the portal’s origin');
  const events = createEventsFor({ config, stores: opened, clock, logger, metrics, loops, catalogue }, mailer);
  // Every room gets the stores the events room watches, so a subscription changed anywhere is told.
  const { stores } = events;
  const billing = createBillingFor({ config, stores, clock, logger, loops, catalogue }, mailer, events);
  const reloadCatalogue = createCatalogueReloaderFor({ config, stores, clock, logger, catalogue }, billing);
  // SIGHUP reloads the catalogue file (as POST /admin/v1/catalogue/reload does); a bad file is logged and changes nothing.
  process.on('SIGHUP', () => void reloadCatalogue(SIGNAL_SOURCE).catch(() => undefined));
  startBilling(billing, config, logger, runFleetJobs);
  events.start({ api: serveCalls, fleet: runFleetJobs });
  const { app, listener } = recorder
    ? createGatewayListener({ config, stores, clock, logger, metrics, documents, recorder, routers: [docs], mailer, billing, events, adminToken, loops, catalogue, reloadCatalogue })
    : { app: createWorkerApp({ config, stores, logger, metrics, loops, adminToken, clock }), listener: undefined };
  const metricsServer = config.metricsPort === undefined ? undefined : await listenMetrics(createMetricsApp({ metrics, logger }), config.metricsPort, logger);
  await serve({
    app,
    listener,
    port: config.port,
    logger,
    onClose: async () => {
      metricsServer?.close();
      await billing.stop();
      await events.stop();
      await recorder?.stop();
      mailer.close();
      // After the recorder's last write: every count and history day reaches the file.
      closeStore?.();
      if (redis) await closeRedis(redis);
      logger.flush();
    },
  });
}

/** Starts billing's jobs (where the fleet's run) and says at start what is missing: the webhook secret, any paid plan's price at Stripe. */
function startBilling(billing: Billing, config: GatewayConfig, logger: Logger, runJobs: boolean): void {
  if (!config.billing) {
    logger.info({ billing: 'off' }, `STRIPE_SECRET_KEY is not set: card payments are off; paid plans show their prices and people are told to ${config.supportEmail ? `write to ${config.supportEmail}` : 'ask the people who run this server (set SUPPORT_EMAIL to name an address)'}`);
    return;
  }
  logger.info({ billing: 'stripe', api_base: config.billing.apiBase ? `${config.billing.apiBase.protocol}://${config.billing.apiBase.host}:${config.billing.apiBase.port}` : 'api.stripe.com', grace_days: config.billing.graceDays, reconcile_seconds: config.billing.reconcileSeconds }, 'card payments through Stripe');
  if (!config.billing.webhookSecret) logger.warn({}, 'STRIPE_WEBHOOK_SECRET is not set: POST /billing/webhook refuses every event, and payments reach accounts only through reconciliation; run tollgate billing sync and set the secret it prints');
  if (runJobs) billing.start();
  billing.missingPrices().then(
    (missing) => {
      if (missing.length) logger.error({ missing }, `paid plans without their price at Stripe, which cannot be bought until it is made: ${missing.join(', ')}; run tollgate billing sync`);
      else logger.info({}, 'every paid plan has its price at Stripe');
    },
    (err: unknown) => logger.warn({ err: (err as Error).message }, 'the paid plans’ prices at Stripe could not be checked at start'),
  );
}

/** The metrics port's server; a port that cannot be had stops the gateway with one line. */
async function listenMetrics(app: Express, port: number, logger: Logger): Promise<Server> {
  const server = createTimedServer(app);
  await new Promise<void>((resolve) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      process.stderr.write(`gateway: METRICS_PORT ${port} cannot be used: ${err.code === 'EADDRINUSE' ? 'the port is taken' : err.message}\n`);
      process.exit(1);
    });
    server.listen(port, '0.0.0.0', resolve);
  });
  logger.info({ port: (server.address() as AddressInfo).port }, 'metrics listening');
  return server;
}

main().catch((err: unknown) => {
  // Start-up failures (the port taken, say) end the process with one line rather than a stack.
  const code = (err as NodeJS.ErrnoException).code;
  process.stderr.write(`gateway: ${code === 'EADDRINUSE' ? `port ${(err as { port?: number }).port ?? ''} is already in use; set PORT to a free one` : (err as Error).message}\n`);
  process.exit(1);
});
