import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenApiDocument } from '@tollgate/envelope';
import type { RouteDoc } from '@tollgate/envelope';

const data = { type: 'object' };

/** A success schema with what the real ones use (nested arrays, nullable types, enums, optional fields), for the generated types. */
const PRICE_DATA = {
  type: 'object',
  required: ['count', 'prices'],
  additionalProperties: false,
  properties: {
    count: { type: 'integer', description: 'tokens answered */ not a comment end' },
    prices: {
      type: 'array',
      items: {
        type: 'object',
        required: ['token', 'price_usd', 'decimals', 'chain'],
        additionalProperties: false,
        properties: {
          token: { type: 'string' },
          price_usd: { type: 'number' },
          decimals: { type: ['integer', 'null'] },
          chain: { type: 'string', enum: ['ethereum', 'base'] },
          'as-of': { type: 'string', format: 'date-time' },
        },
      },
    },
  },
};

/** Routes in the shape of the real services' documents (path and query parameters with schemas). */
const ROUTES: Record<string, RouteDoc[]> = {
  burger: [
    { method: 'get', path: '/v1/index', summary: 'The latest release, every country', query: { type: 'object', properties: { base: { type: 'string', enum: ['usd', 'eur', 'gbp', 'jpy', 'cny'], default: 'usd', description: 'the base currency' }, limit: { type: 'integer', minimum: 1, maximum: 100, description: 'at most this many countries' } } }, data, message: 'Index retrieved', errors: ['BAD_REQUEST'] },
    { method: 'get', path: '/v1/countries/{country}', summary: 'One country’s history', data, message: 'Country retrieved', errors: ['NOT_FOUND'] },
  ],
  token: [
    { method: 'get', path: '/v1/price/{token}', summary: 'Current USD price of a token', query: { type: 'object', properties: { search_width: { type: 'string', minLength: 2, pattern: '^\\d+[mhd]$', description: 'how far back a price may be, e.g. 4h' } } }, data: PRICE_DATA, example: { count: 1, prices: [{ token: 'ethereum:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', price_usd: 1.000092066, decimals: 6, chain: 'ethereum' }] }, message: 'Price retrieved', errors: ['BAD_REQUEST'] },
    { method: 'get', path: '/v1/meta', summary: 'What the service covers', data, message: 'Meta retrieved', errors: [] },
  ],
  logs: [
    { method: 'get', path: '/v1/logs', summary: 'Event logs of a contract', query: { type: 'object', required: ['chain', 'address'], properties: { chain: { type: 'string', description: 'a chain slug or id: ethereum, base', example: 'ethereum' }, address: { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$', description: 'the contract' }, from_block: { type: 'integer', minimum: 0 } } }, data, message: 'Logs retrieved', errors: ['BAD_REQUEST'] },
  ],
};

/** What the real logs service adds to its document: each plan's feature gates (see its info-routes.ts). */
const EXTRA: Record<string, Record<string, unknown>> = {
  logs: {
    'x-plan-features': {
      columns: { topic_filtering: 'Topic filtering (topic0–3, event)', chains: 'Chains' },
      plans: [
        { plan: 'free', topic_filtering: false, chains: ['ethereum', 'base'] },
        { plan: 'starter', topic_filtering: true, chains: ['ethereum', 'base'] },
        { plan: 'pro', topic_filtering: true, chains: ['ethereum', 'base', 'gnosis'] },
        { plan: 'business', topic_filtering: true, chains: ['ethereum', 'base', 'gnosis'] },
      ],
    },
  },
};

/** Three stand-ins for the services: each documents its routes and answers every call in the envelope, echoing it. */
export interface ApiUpstreams {
  env: Record<string, string>;
  /** Calls each service received (not counting its OpenAPI document). */
  calls: Record<string, string[]>;
  close(): Promise<void>;
}

/** Starts one echo service per API on 127.0.0.1:0. */
export async function startApiUpstreams(): Promise<ApiUpstreams> {
  const servers: Server[] = [];
  const env: Record<string, string> = {};
  const calls: Record<string, string[]> = {};
  for (const api of Object.keys(ROUTES)) {
    const doc = createOpenApiDocument({ title: api, version: '1', description: `The ${api} stand-in` }, ROUTES[api] as RouteDoc[], EXTRA[api]);
    calls[api] = [];
    const server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/v1/openapi.json') {
        res.end(JSON.stringify(doc));
        return;
      }
      calls[api]?.push(req.url ?? '');
      res.end(JSON.stringify({ data: { api, url: req.url, plan: req.headers['x-tollgate-subscription'] ?? null }, meta: { timestamp: new Date().toISOString(), request_id: req.headers['x-request-id'] ?? '' }, status: 'ok', message: 'Echoed', success: true }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    env[`${api.toUpperCase()}_URL`] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  return {
    env,
    calls,
    close: async () => {
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => { s.closeAllConnections(); s.close(() => resolve()); })));
    },
  };
}
