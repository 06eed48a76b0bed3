import request from 'supertest';
import { validateResponse } from '@tollgate/envelope';
import { ROUTES } from '../../src/app';
import { HEALTHZ_ROUTE, READYZ_ROUTE } from '../../src/routes/health-docs';
import { META_ROUTE } from '../../src/routes/meta-route';
import { createTestApp } from '../support/burger-app';
import type { TestApp } from '../support/burger-app';
import { startCsvUpstream } from '../support/csv-upstream';
import type { CsvUpstream } from '../support/csv-upstream';
import { fixtureText } from '../support/fixtures';

const SECRET = 'let-me-in';
let upstream: CsvUpstream;
let t: TestApp;

beforeAll(async () => {
  upstream = await startCsvUpstream(fixtureText('small-index.csv'));
  t = createTestApp({ dataUrl: upstream.url, proxySecret: SECRET });
});
afterAll(() => upstream.close());

const get = (path: string) => request(t.app).get(path).set('x-tollgate-proxy-secret', SECRET);

describe('readiness and liveness', () => {
  it('when nothing is loaded yet, then /healthz is alive, /readyz 503 NOT_READY, and a probe starts the load', async () => {
    const alive = await request(t.app).get('/healthz');
    expect(alive.status).toBe(200);
    expect(validateResponse(HEALTHZ_ROUTE, alive.status, alive.body)).toEqual([]);

    const notReady = await request(t.app).get('/readyz');
    expect(notReady.status).toBe(503);
    expect(notReady.body.error.code).toBe('NOT_READY');
    expect(validateResponse(READYZ_ROUTE, notReady.status, notReady.body)).toEqual([]);

    await t.store.settled();
    const ready = await request(t.app).get('/readyz');
    expect(ready.status).toBe(200);
    expect(validateResponse(READYZ_ROUTE, ready.status, ready.body)).toEqual([]);
    expect(ready.body.data).toMatchObject({ status: 'ready', latest_release: '2026-01-01', countries: 11, rows: 32, upstream_status: 'ok' });
  });
});

describe('GET /v1/meta', () => {
  it('when called, then every spec field is there and endpoints list every route', async () => {
    const res = await get('/v1/meta');
    expect(res.status).toBe(200);
    expect(validateResponse(META_ROUTE, res.status, res.body)).toEqual([]);
    expect(res.body.message).toBe('Meta');
    const data = res.body.data;
    expect(data).toMatchObject({ service: 'burger', countries: 11, latest_release: '2026-01-01', upstream_status: 'ok' });
    expect(data.source).toMatch(/Economist/);
    expect(data.description).toMatch(/Big Mac/);
    expect(data.note).toMatch(/positive means the currency is over-valued, negative under-valued/);
    expect(data.note).toMatch(/usd, eur, gbp, jpy, cny/);
    expect(data.note).toMatch(/name, an ISO3 code or a currency code/);
    expect(Object.keys(data.endpoints).sort()).toEqual(
      [...ROUTES.map((r) => `GET ${r.path}`), 'GET /v1/openapi.json'].sort(),
    );
  });

  it('when given any parameter, then 400 says it takes none', async () => {
    const res = await get('/v1/meta?verbose=1');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("unknown parameter 'verbose'; this endpoint takes no parameters");
  });
});

describe('GET /v1/openapi.json', () => {
  it('when fetched, then it is an OpenAPI 3.1 document with every route and its parameters', async () => {
    const res = await get('/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths).sort()).toEqual(ROUTES.map((r) => r.path).sort());
    const params = res.body.paths['/v1/index'].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(['base', 'sort', 'order']);
    expect(res.body.paths['/v1/country'].get.responses['404']).toBeDefined();
  });
});

describe('proxy secret, request id and unknown routes', () => {
  it.each([
    ['without the secret', undefined],
    ['with a wrong secret', 'guess'],
  ])('when a /v1 call comes %s, then 403 FORBIDDEN', async (_case, secret) => {
    const req = request(t.app).get('/v1/index');
    const res = await (secret ? req.set('x-tollgate-proxy-secret', secret) : req);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
  });

  it('when health is probed without the secret, then it still answers', async () => {
    expect((await request(t.app).get('/healthz')).status).toBe(200);
  });

  it('when the caller sends x-request-id, then the same id comes back in header and meta', async () => {
    const res = await get('/v1/index').set('x-request-id', 'req-123');
    expect(res.headers['x-request-id']).toBe('req-123');
    expect(res.body.meta.request_id).toBe('req-123');
  });

  it('when the route does not exist, then 404 NOT_FOUND in the envelope', async () => {
    const res = await get('/v1/nope');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: 'error', success: false, error: { code: 'NOT_FOUND' } });
  });
});
