import http from 'node:http';
import https from 'node:https';
import axios from 'axios';
import type { ValidateFunction } from 'ajv';
import { AppError } from '@tollgate/envelope';
import { UPSTREAM_CHUNK_SIZE, chunk } from '../domain/chunk';
import type { CoinMap } from '../domain/upstream-types';
import { createCoalescer } from './coalesce';
import type { ChartQuery, PriceIndexer } from './price-indexer';
import { errorForFailure, errorForStatus } from './upstream-error';
import { validateChains, validatePoints, validatePrices, validateSeries } from './upstream-schemas';

/** Options of {@link createHttpPriceIndexer}. */
export interface HttpPriceIndexerOptions {
  baseUrl: string;
  timeoutMs: number;
  clock?: () => number;
}

/** A {@link PriceIndexer} over HTTP, and the function that frees its kept-alive sockets. */
export type HttpPriceIndexer = PriceIndexer & { close(): void };

// Ids go in the path; ':' stays readable, everything else that could break a path is escaped.
function coinPath(keys: readonly string[]): string {
  return keys.map((k) => encodeURIComponent(k).replace(/%3A/gi, ':')).join(',');
}

/**
 * The DefiLlama coins API through axios with kept-alive sockets: ids are split into calls of at
 * most 100, identical in-flight calls are shared, and every failure becomes an AppError.
 */
export function createHttpPriceIndexer(options: HttpPriceIndexerOptions): HttpPriceIndexer {
  const clock = options.clock ?? Date.now;
  const httpAgent = new http.Agent({ keepAlive: true });
  const httpsAgent = new https.Agent({ keepAlive: true });
  const client = axios.create({
    baseURL: options.baseUrl.replace(/\/+$/, ''),
    timeout: options.timeoutMs,
    httpAgent,
    httpsAgent,
    responseType: 'text',
    // The raw text is parsed here so that garbage is told apart from a network failure.
    transformResponse: [(data: unknown) => data],
    validateStatus: () => true,
    headers: { accept: 'application/json' },
  });
  const coalesce = createCoalescer<unknown>();

  async function fetchJson<T>(url: string, validate: ValidateFunction<T>): Promise<T> {
    const body = await coalesce(url, async () => {
      let response;
      try {
        // axios's timeout only bounds socket idleness; the signal bounds the whole answer, body included.
        response = await client.get<string>(url, { signal: AbortSignal.timeout(options.timeoutMs) });
      } catch (cause) {
        throw errorForFailure(cause, options.timeoutMs);
      }
      const text = typeof response.data === 'string' ? response.data : '';
      if (response.status !== 200) throw errorForStatus(response.status, text, response.headers['retry-after'], clock());
      try {
        return JSON.parse(text) as unknown;
      } catch (cause) {
        throw new AppError('UPSTREAM_UNAVAILABLE', 'the price indexer answered with invalid JSON', { cause });
      }
    });
    if (!validate(body)) {
      const first = validate.errors?.[0];
      const where = first ? `: ${first.instancePath || '/'} ${first.message ?? ''}`.trimEnd() : '';
      throw new AppError('UPSTREAM_UNAVAILABLE', `the price indexer answered in an unexpected shape${where}`);
    }
    return body;
  }

  async function perChunk<T>(keys: readonly string[], urlOf: (piece: string[]) => string, validate: ValidateFunction<{ coins: CoinMap<T> }>) {
    const answers = await Promise.all(chunk(keys, UPSTREAM_CHUNK_SIZE).map((piece) => fetchJson(urlOf(piece), validate)));
    return Object.assign({}, ...answers.map((a) => a.coins)) as CoinMap<T>;
  }

  return {
    chains: () => fetchJson('/chains', validateChains),
    current: (keys) => perChunk(keys, (piece) => `/prices/current/${coinPath(piece)}`, validatePrices),
    historical: (timestamp, keys) => perChunk(keys, (piece) => `/prices/historical/${timestamp}/${coinPath(piece)}`, validatePrices),
    chart: (keys, query: ChartQuery) => {
      const params = new URLSearchParams({ span: String(query.span), period: query.period });
      if (query.start !== undefined) params.set('start', String(query.start));
      if (query.end !== undefined) params.set('end', String(query.end));
      return perChunk(keys, (piece) => `/chart/${coinPath(piece)}?${params}`, validateSeries);
    },
    points: (keys, timestamps, searchWidth) =>
      perChunk(
        keys,
        (piece) => {
          const coins = Object.fromEntries(piece.map((k) => [k, timestamps]));
          return `/batchHistorical?${new URLSearchParams({ coins: JSON.stringify(coins), searchWidth })}`;
        },
        validatePoints,
      ),
    close: () => {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}
