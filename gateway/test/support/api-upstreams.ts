import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenApiDocument } from '@tollgate/envelope';
import type { RouteDoc } from '@tollgate/envelope';

const data = { type: 'object' };

/** Routes in the shape of the real services' documents (path and query parameters with schemas). */
const ROUTES: Record<string, RouteDoc[]> = {
  burger: [
    { method: 'get', path: '/v1/index', summary: 'The latest release, every country', query: { type: 'object', properties: { base: { type: 'string', enum: ['usd', 'eur', 'gbp', 'jpy', 'cny'], default: 'usd', description: 'the base currency' }, limit: { type: 'integer', minimum: 1, maximum: 100, description: 'at most this many countries' } } }, data, message: 'Index retrieved', errors: ['BAD_REQUEST'] },
    { method: 'get', path: '/v1/countries/{country}', summary: 'One country’s history', data, message: 'Country retrieved', errors: ['NOT_FOUND'] },
  ],
  token: [
    { method: 'get', path: '/v1/price/{token}', summary: 'Current USD price of a token', query: { type: 'object', properties: { search_width: { type: 'string', pattern: '^\\d+[mhd]$', description: 'how far back a price may be, e.g. 4h' } } }, data, message: 'Price retrieved', errors: ['BAD_REQUEST'] },
    { method: 'get', path: '/v1/meta', summary: 'What the service covers', data, message: 'Meta retrieved', errors: [] },
  ],
  logs: [
    { method: 'get', path: '/v1/logs', summary: 'Event logs of a contract', query: { type: 'object', required: ['chain', 'address'], properties: { chain: { type: 'string', description: 'a chain slug or id: ethereum, base', example: 'ethereum' }, address: { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$', description: 'the contract' }, from_block: { type: 'integer', minimum: 0 } } }, data, message: 'Logs retrieved', errors: ['BAD_REQUEST'] },
  ],
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
    const doc = createOpenApiDocument({ title: api, version: '1' }, ROUTES[api] as RouteDoc[]);
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
