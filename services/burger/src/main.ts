import { createLogger, serve } from '@tollgate/envelope';
import { createApp } from './app';
import { loadConfig } from './config';
import type { Config } from './config';
import { createDatasetSource } from './data/create-dataset-source';
import { createDatasetStore } from './data/dataset-store';
import { describeSource } from './domain/source';

function configOrExit(): Readonly<Config> {
  try {
    return loadConfig(process.env);
  } catch (err) {
    process.stderr.write(`burger: ${(err as Error).message}\n`);
    process.exit(1);
  }
}

async function main(): Promise<void> {
  const config = configOrExit();
  const logger = createLogger({ service: 'burger', level: config.logLevel });
  const source = createDatasetSource(config.dataUrl, config.upstreamTimeoutMs);
  const store = createDatasetStore({ source, clock: Date.now, logger, ttlMs: config.refreshMs, retryMs: config.retryMs });
  logger.info({ source: source.location, ...(config.sourceLabel ? { label: config.sourceLabel } : {}), refresh_s: config.refreshMs / 1000 }, 'loading the Big Mac dataset');
  // The first load runs beside listening: /healthz answers at once, /readyz once the copy is in.
  void store.refresh();
  const app = createApp({ store, logger, proxySecret: config.proxySecret, source: describeSource(config.sourceLabel) });
  await serve({ app, port: config.port, logger, onClose: () => store.settled() });
}

main().catch((err: unknown) => {
  // Startup failures (the port taken, say) end the process with one line rather than a stack.
  process.stderr.write(`burger: ${(err as Error).message}\n`);
  process.exit(1);
});
