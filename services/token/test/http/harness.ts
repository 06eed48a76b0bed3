import { createLogger, validateResponse } from '@tollgate/envelope';
import type { RouteDoc } from '@tollgate/envelope';
import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../../src/app';
import { createChainList } from '../../src/data/chain-list';
import { createHttpPriceIndexer } from '../../src/data/http-price-indexer';
import type { PriceIndexer } from '../../src/data/price-indexer';
import { startLocalIndexer } from '../support/local-indexer';
import type { LocalIndexer, LocalIndexerOptions } from '../support/local-indexer';

/** 2026-01-01T00:10:00Z: the fixed "now" of the service and the local indexer. */
export const NOW_MS = 1_767_226_200_000;
export const NOW_S = NOW_MS / 1000;

/** Well-known ids from the local indexer's table. */
export const IDS = {
  usdc: 'ethereum:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
  usdcChecksummed: 'ethereum:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  weth: 'ethereum:0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
  husd: 'ethereum:0xdf574c24545e5ffecb9a659c229253d4111d87e1',
  brett: 'base:0x532f27101965dd16442e59d40670faf5ebb142e4',
  arb: 'arbitrum:0x912ce59144191c1204e64559fe8253a0e49e6548',
  sol: 'solana:So11111111111111111111111111111111111111112',
  eth: 'coingecko:ethereum',
  btc: 'coingecko:bitcoin',
  unknown: 'base:0x000000000000000000000000000000000000beef',
};

/** `n` distinct well-formed ethereum ids the indexer does not know. */
export function manyIds(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `ethereum:0x${(i + 1).toString(16).padStart(40, '0')}`);
}

/** The app wired to a local indexer, as main.ts wires it to the real one. */
export interface Harness {
  app: Express;
  local: LocalIndexer;
  /** The indexer client the app uses (wrap it through `wrap` to observe calls). */
  indexer: PriceIndexer;
  close(): Promise<void>;
}

/** Options of {@link startHarness}. */
export interface HarnessOptions {
  /**
   * The indexer client's timeout: 8 s by default, far above what a served call takes, so a test
   * process stalled on a busy machine (CI has stalled 1.7 s) does not turn it into a 504; the cases
   * that wait out a slow indexer give a short one.
   */
  timeoutMs?: number;
  proxySecret?: string;
  indexerOptions?: LocalIndexerOptions;
  /** Decorates the indexer client before the app gets it. */
  wrap?: (indexer: PriceIndexer) => PriceIndexer;
  /** Points the client somewhere else (e.g. a closed port). */
  baseUrl?: string;
}

/** Starts a local indexer and builds the app against it, with the clock fixed at {@link NOW_MS}. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const clock = () => NOW_MS;
  const local = await startLocalIndexer({ now: clock, ...options.indexerOptions });
  const client = createHttpPriceIndexer({ baseUrl: options.baseUrl ?? local.url, timeoutMs: options.timeoutMs ?? 8_000, clock });
  const indexer = options.wrap ? options.wrap(client) : client;
  const chainList = createChainList({ indexer, clock });
  const logger = createLogger({ service: 'token', level: 'silent' });
  const app = createApp({ indexer, chainList, clock, logger, proxySecret: options.proxySecret });
  return {
    app,
    local,
    indexer,
    close: async () => {
      client.close();
      await local.close();
    },
  };
}

/** GETs a route with `query` (as `plan` when given) and checks the answer against the route's documented schema. */
export async function getChecked(app: Express, route: RouteDoc, query: Record<string, string>, plan?: string): Promise<request.Response> {
  const req = request(app).get(route.path).query(query);
  const res = await (plan === undefined ? req : req.set('x-tollgate-subscription', plan));
  expect(validateResponse(route, res.status, res.body)).toEqual([]);
  return res;
}
