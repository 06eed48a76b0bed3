import { createLogger, serve } from '@tollgate/envelope';
import { loadConfig } from './config.js';
import { createResponseCache } from './data/response-cache.js';
import { createSpanMemory } from './data/span-memory.js';
import { createViemChainRpc } from './data/viem-chain-rpc.js';
import { createApp } from './app.js';
import { checkOverriddenChainIds } from './check-chain-ids.js';
import { CHAINS, rpcEnvName } from './domain/chains.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    process.stderr.write(`logs: ${(err as Error).message}\n`);
    process.exit(1);
  }
  const logger = createLogger({ service: 'logs', level: config.logLevel });
  const rpcs = Object.fromEntries(
    CHAINS.map((c) => [c.slug, createViemChainRpc({ url: config.rpcUrls[c.slug] as string, name: c.name, timeoutMs: config.rpcTimeoutMs })]),
  );
  const mismatch = await checkOverriddenChainIds(config.overridden, rpcs, logger);
  if (mismatch) {
    process.stderr.write(`logs: ${mismatch}\n`);
    process.exit(1);
  }
  for (const chain of CHAINS) {
    logger.info({ chain: chain.slug, rpc: config.rpcUrls[chain.slug], overridden: config.overridden.includes(chain.slug) || undefined, variable: rpcEnvName(chain) }, 'chain RPC');
  }
  const app = createApp({
    logger,
    rpcs,
    spans: createSpanMemory(),
    cache: createResponseCache({ ttlMs: config.cacheTtlMs, maxEntries: 1000, clock: Date.now }),
    proxySecret: config.proxySecret,
    maxBlockRange: config.maxBlockRange,
    maxRpcCalls: config.maxRpcCalls,
    cacheTtlMs: config.cacheTtlMs,
  });
  await serve({ app, port: config.port, logger });
}

main().catch((err: unknown) => {
  // Startup failures (the port taken, say) end the process with one line rather than a stack.
  process.stderr.write(`logs: ${(err as Error).message}\n`);
  process.exit(1);
});
