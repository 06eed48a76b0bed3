import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Ajv from 'ajv';
import fc from 'fast-check';
import { createTimedServer, errorEnvelopeSchema } from '@tollgate/envelope';
import type { RouteDoc } from '@tollgate/envelope';
import { hostileRequestArbitrary } from '@tollgate/envelope/test/hostile-requests';
import type { HostileRequest } from '@tollgate/envelope/test/hostile-requests';
import { HOP_BY_HOP } from '../../src/api/hop-by-hop';
import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';
import { buildGateway } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';
import { rawCall } from '../support/raw-http';

jest.setTimeout(60_000);

const isErrorEnvelope = new Ajv({ strict: false, validateFormats: false }).compile(errorEnvelopeSchema());
// The routes the echo service documents, as the generator aims at them (through the gateway prefix).
const ROUTES = [
  { path: '/token/v1/prices', query: { type: 'object', properties: { coins: { type: 'string', example: 'eth' }, limit: { type: 'integer', minimum: 1, maximum: 10 } } } },
  { path: '/token/v1/chart', query: { type: 'object', properties: { period: { type: 'string', example: '1d' } } } },
] as unknown as RouteDoc[];

let upstream: EchoUpstream;
let gw: GatewayFixture;
let server: http.Server;
let base: string;

beforeAll(async () => {
  upstream = await startEchoUpstream({ routes: ['/v1/prices', '/v1/chart'] });
  gw = await buildGateway({ upstream: upstream.url, fastPath: true, env: { CORS_ORIGINS: 'https://app.example.test' } });
  server = createTimedServer(gw.app as http.RequestListener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The gateway learns the service's routes from its document before the first generated call.
  await rawCall(`${base}/token/v1/prices`);
  for (let i = 0; i < 50 && !(await upstreamDocumentKnown()); i++) await new Promise((r) => setTimeout(r, 20));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await Promise.all([gw.close(), upstream.close()]);
});

async function upstreamDocumentKnown(): Promise<boolean> {
  return (await rawCall(`${base}/token/v1/not-a-route`, { headers: { 'x-tollgate-key': 'tg_x' } })).status === 404;
}

function target(req: HostileRequest): string {
  const query = req.query.map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v.replace(/[\ud800-\udfff]/g, '\ufffd'))}`).join('&');
  return query ? `${req.path}?${query}` : req.path;
}

describe('the gateway under hostile and unusual HTTP (property-based)', () => {
  it('when any method, path, header, query or body arrives with a valid key, then no 5xx, errors in the envelope, a charge only for a 2xx, no hop-by-hop header crosses', async () => {
    const { key, record } = await gw.stores.keyStore.create({ owner: 'fuzz', subscriptions: { token: { plan: 'pro', status: 'active' } } });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const usage = async () => (await gw.stores.quotaStore.usage(record.account_id, 'token', gw.clock.now())).month;
    try {
      await fc.assert(
        fc.asyncProperty(hostileRequestArbitrary({ routes: ROUTES, values: ['eth', '1d', '5'] }), async (req) => {
          gw.clock.advance(1_000); // a fresh rolling second: no 429 from the test plan's rate
          const before = await usage();
          upstream.seen.length = 0;
          const headers: Record<string, string> = { ...req.headers, 'x-tollgate-key': key };
          const withBody = req.body !== undefined && req.method !== 'get' && req.method !== 'head';
          if (!withBody || !req.chunked) delete headers.trailer;
          if (withBody && req.chunked) headers['transfer-encoding'] = 'chunked';
          let res;
          try {
            res = await rawCall(`${base}${target(req)}`, { method: req.method.toUpperCase(), headers, body: withBody ? req.body : undefined, agent, timeoutMs: 10_000 });
          } catch (err) {
            // A request Node's client cannot send (an invalid header byte) never reached the gateway.
            if ((err as NodeJS.ErrnoException).code === 'ERR_INVALID_CHAR' || (err as NodeJS.ErrnoException).code === 'ERR_INVALID_HTTP_TOKEN') return;
            throw err;
          }
          const problems: string[] = [];
          if (res.status >= 500) problems.push(`status ${res.status}`);
          // A redirect (`/` → the portal) and the portal's own HTML 404 page are answers for browsers, not errors of the APIs.
          const forBrowsers = (res.status >= 300 && res.status < 400 && res.headers.location !== undefined) || (target(req).startsWith('/portal/') && String(res.headers['content-type']).startsWith('text/html'));
          if ((res.status < 200 || res.status >= 300) && req.method !== 'head' && res.status !== 204 && !forBrowsers && !isErrorEnvelope(res.json)) problems.push(`not the error envelope: ${res.body.slice(0, 200)}`);
          const charged = (await usage()) - before;
          // Only a call to an API is charged: `OPTIONS /` (the portal's redirect route) is answered 200 with its Allow list, free.
          const toApi = /^\/(burger|token|logs)(\/|\?|$)/.test(target(req));
          if (charged !== (toApi && res.status >= 200 && res.status < 300 && res.status !== 204 ? 1 : 0)) problems.push(`charged ${charged} for a ${res.status}`);
          for (const seen of upstream.seen) {
            const crossed = Object.keys(seen.headers).filter((h) => HOP_BY_HOP.has(h) && !(h === 'connection' && seen.headers[h] === 'keep-alive'));
            if (crossed.length) problems.push(`reached the service: ${crossed.join(', ')}`);
          }
          const back = Object.keys(res.headers).filter((h) => HOP_BY_HOP.has(h) && h !== 'connection' && h !== 'transfer-encoding' && h !== 'keep-alive');
          if (back.length) problems.push(`reached the client: ${back.join(', ')}`);
          if (problems.length) throw new Error(`${req.method.toUpperCase()} ${target(req).slice(0, 200)} → ${res.status}: ${problems.join('; ')}`);
        }),
        { numRuns: 200, seed: process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED) },
      );
    } finally {
      agent.destroy();
    }
    expect((await rawCall(`${base}/healthz`)).status).toBe(200);
  });
});
