import { createLogger, createRequestLogger, serve, summarizeError } from '@tollgate/envelope';
import { createApp } from './app';
import { loadConfig } from './config';
import { createChainList } from './data/chain-list';
import { createHttpPriceIndexer } from './data/http-price-indexer';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger({ service: 'token', level: config.LOG_LEVEL });
  const clock = Date.now;
  const indexer = createHttpPriceIndexer({ baseUrl: config.TOKEN_UPSTREAM_URL, timeoutMs: config.TOKEN_UPSTREAM_TIMEOUT_MS, clock });
  const chainList = createChainList({
    indexer,
    clock,
    onRefreshError: (err) => logger.warn({ cause: summarizeError(err) }, 'chain list refresh failed; keeping the old list'),
  });
  // Warm the chain list so the first call does not wait for it; failure here is not fatal.
  chainList.get().then(
    (chains) => logger.info({ chains: chains.size, upstream: config.TOKEN_UPSTREAM_URL }, 'chain list loaded'),
    (err: unknown) => logger.warn({ cause: summarizeError(err) }, 'chain list not loaded yet; /readyz will retry'),
  );
  const app = createApp({ indexer, chainList, clock, logger, proxySecret: config.PROXY_SECRET, requestLogger: createRequestLogger(logger) });
  await serve({ app, port: config.PORT, logger, onClose: () => indexer.close() });
}

main().catch((err: unknown) => {
  // One line, named like burger's and logs', so it reads clearly among the stack's other processes.
  process.stderr.write(`token: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
