import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { createLogger, createTimedServer, serve } from '@tollgate/envelope';
import type { Logger } from '@tollgate/envelope';
import { createGatewayListener, createMetricsApp } from './app';
import { loadConfig } from './config';
import type { GatewayConfig } from './config';
import { openAdminToken } from './data/admin-token';
import { openStores } from './data/open-stores';
import { createServiceDocuments } from './data/service-documents';
import { createUsageRecorder } from './data/usage-recorder';
import { createLogMailer, createSmtpMailer } from './mail/mailer';
import { createMetrics, createStoreLatencyRecorder } from './http/metrics';
import { createDocsRoutes } from './docs/docs-routes';
import { gatewayRouteDocs } from './gateway-route-docs';

async function main(): Promise<void> {
  let config: GatewayConfig;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    process.stderr.write(`gateway: ${(err as Error).message}\n`);
    process.exit(1);
  }
  const logger = createLogger({ service: 'gateway', level: config.logLevel });
  const adminToken = openAdminToken(config);
  if (adminToken.source === 'file') logger.info({ admin_token_file: adminToken.file }, `admin token ${adminToken.made ? 'made and kept' : 'read from'} ${adminToken.file} (mode 0600; tollgate admin-token rotate replaces it)`);
  const clock = (): number => Date.now();
  const metrics = createMetrics({ processMetrics: true });
  const { stores, redis, close: closeStore } = await openStores({
    redisUrl: config.redisUrl,
    redisClusterNodes: config.redisClusterNodes,
    storePath: config.storePath,
    redisTimeoutMs: config.redisTimeoutMs,
    clock,
    logger,
    onLatency: createStoreLatencyRecorder(metrics),
    apis: Object.keys(config.plans),
  });
  logger.info(
    { store: stores.kind, plans: config.plansSource, apis: Object.keys(config.plans), admin_api: adminToken.source !== 'none', admin_token: adminToken.source, quota_fail_mode: config.quotaFailMode },
    'gateway configured',
  );
  if (!config.proxySecret) logger.warn({}, 'PROXY_SECRET is not set: services that require one will answer 403');
  const documents = createServiceDocuments({ upstreams: config.upstreams, proxySecret: config.proxySecret, clock });
  // Asked now so unknown routes are refused from the first call; a service still starting is asked again later.
  void documents.all();
  const docs = createDocsRoutes({ documents, keyHeader: config.keyHeader, gatewayRoutes: gatewayRouteDocs() });
  const recorder = createUsageRecorder({ store: stores.accountStore, clock, logger });
  const mailer = config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.mailFrom) : createLogMailer(logger, config.mailFrom);
  if (config.smtpUrl) logger.info({ mail: mailer.describe, mail_from: config.mailFrom }, `portal mail (sign-in codes) goes through ${mailer.describe}`);
  else logger.warn({ mail: 'log' }, 'SMTP_URL is not set: each portal mail (sign-in codes) is written to this log instead of being sent; set SMTP_URL (smtp:// or smtps://) to send it');
  if (config.smtpUrl && !config.publicUrl) logger.warn({}, 'PUBLIC_URL is not set: a sign-in mail links to the portal only when the request reached this gateway by its own address or a loopback name, else it gives the code alone; set PUBLIC_URL to the portal’s origin');
  const { app, listener } = createGatewayListener({ config, stores, clock, logger, metrics, documents, recorder, routers: [docs], mailer, adminToken });
  const metricsServer = config.metricsPort === undefined ? undefined : await listenMetrics(createMetricsApp({ metrics, logger }), config.metricsPort, logger);
  await serve({
    app,
    listener,
    port: config.port,
    logger,
    onClose: async () => {
      metricsServer?.close();
      await recorder.stop();
      mailer.close();
      // After the recorder's last write: every count and history day reaches the file.
      closeStore?.();
      await redis?.quit().catch(() => redis.disconnect());
      logger.flush();
    },
  });
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
