/** Builds the logs app for tests and benches: ethereum on a local node, the other chains on a dead port. */
import { createLogger } from '@tollgate/envelope';
import type { Express } from 'express';
import { createApp } from '../../src/app.js';
import type { ChainRpc } from '../../src/data/chain-rpc.js';
import { createResponseCache } from '../../src/data/response-cache.js';
import { createSpanMemory, type SpanMemory } from '../../src/data/span-memory.js';
import { createViemChainRpc } from '../../src/data/viem-chain-rpc.js';
import { CHAINS } from '../../src/domain/chains.js';

/** Options of {@link buildLogsApp}. */
export interface LogsAppOptions {
  /** RPC URL per chain slug; chains not given point at a closed port (unreachable). */
  rpcUrls: Record<string, string>;
  maxBlockRange?: number;
  maxRpcCalls?: number;
  cacheTtlMs?: number;
  rpcTimeoutMs?: number;
  clock?: () => number;
}

/** The app and the parts a test may inspect. */
export interface LogsApp {
  app: Express;
  spans: SpanMemory;
  rpcs: Record<string, ChainRpc>;
}

/** A closed loopback port: connecting fails at once. */
export const DEAD_RPC = 'http://127.0.0.1:9';

/** Builds `createApp` with real viem RPC clients and a silent logger. */
export function buildLogsApp(options: LogsAppOptions): LogsApp {
  const rpcs = Object.fromEntries(
    CHAINS.map((c) => [c.slug, createViemChainRpc({ url: options.rpcUrls[c.slug] ?? DEAD_RPC, name: c.name, timeoutMs: options.rpcTimeoutMs ?? 5000 })]),
  );
  const spans = createSpanMemory();
  const cacheTtlMs = options.cacheTtlMs ?? 30_000;
  const app = createApp({
    // A no-op destination: no stdout stream is opened, so nothing keeps the process alive.
    logger: createLogger({ service: 'logs', level: 'silent', destination: { write: () => undefined } }),
    rpcs,
    spans,
    cache: createResponseCache({ ttlMs: cacheTtlMs, maxEntries: 100, clock: options.clock ?? Date.now }),
    maxBlockRange: options.maxBlockRange ?? 100_000,
    maxRpcCalls: options.maxRpcCalls ?? 50,
    cacheTtlMs,
  });
  return { app, spans, rpcs };
}
