import { createLogger, serve } from '@tollgate/envelope';
import { createGatewayListener } from './app';
import { loadConfig } from './config';
import type { GatewayConfig } from './config';
import { openStores } from './data/open-stores';
import { createMetrics, createStoreLatencyRecorder } from './metrics';
import { createDocsRoutes } from './routes/docs-routes';

async function main(): Promise<void> {
  let config: GatewayConfig;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    process.stderr.write(`gateway: ${(err as Error).message}\n`);
    process.exit(1);
  }
  const logger = createLogger({ service: 'gateway', level: config.logLevel });
  const clock = (): number => Date.now();
  const metrics = createMetrics({ processMetrics: true });
  const { stores, redis } = await openStores({
    redisUrl: config.redisUrl,
    redisTimeoutMs: config.redisTimeoutMs,
    clock,
    logger,
    onLatency: createStoreLatencyRecorder(metrics),
  });
  logger.info(
    { store: stores.kind, plans: config.plansSource, apis: Object.keys(config.plans), admin_api: Boolean(config.adminToken), quota_fail_mode: config.quotaFailMode },
    'gateway configured',
  );
  if (!config.proxySecret) logger.warn({}, 'PROXY_SECRET is not set: services that require one will answer 403');
  const docs = createDocsRoutes({ upstreams: config.upstreams, proxySecret: config.proxySecret, keyHeader: config.keyHeader, clock });
  const { app, listener } = createGatewayListener({ config, stores, clock, logger, metrics, routers: [docs] });
  await serve({
    app,
    listener,
    port: config.port,
    logger,
    onClose: async () => {
      await redis?.quit().catch(() => redis.disconnect());
      logger.flush();
    },
  });
}

void main();
