import request from 'supertest';
import { validateResponse } from '@tollgate/envelope';
import { healthzRoute, readyzRoute } from '../../src/routes/health-docs';
import { metaRoute } from '../../src/routes/meta-route';
import { LOCAL_CHAINS } from '../support/local-indexer';
import { IDS, startHarness } from './harness';
import type { Harness } from './harness';

describe('meta, health and the OpenAPI document', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('when /v1/meta is asked, then it lists the indexer chains sorted and the limits of the plan', async () => {
    const res = await request(h.app).get('/v1/meta').set('x-tollgate-subscription', 'starter');
    expect(validateResponse(metaRoute, res.status, res.body)).toEqual([]);
    expect(res.body.data).toEqual({
      service: 'token', plan: 'starter', batch_limit: 12,
      batch_limits: { free: 3, starter: 12, pro: 60, scale: 250 },
      max_chart_points: 500, slug_prefixes: ['coingecko'],
      chain_count: LOCAL_CHAINS.length, chains: [...LOCAL_CHAINS].sort(),
    });
  });

  it('when calls follow within the day, then the held chain list is used without asking the indexer', async () => {
    h.local.calls.length = 0;
    await request(h.app).get('/v1/meta');
    await request(h.app).get('/v1/price').query({ tokens: IDS.weth });
    expect(h.local.calls.filter((c) => c.path === '/chains')).toHaveLength(0);
  });

  it('when /healthz and /readyz are asked, then both answer in the envelope', async () => {
    const live = await request(h.app).get('/healthz');
    expect(validateResponse(healthzRoute, live.status, live.body)).toEqual([]);
    const ready = await request(h.app).get('/readyz');
    expect(validateResponse(readyzRoute, ready.status, ready.body)).toEqual([]);
    expect(ready.body.data).toEqual({ status: 'ready', chain_count: LOCAL_CHAINS.length });
  });

  it('when the OpenAPI document is asked, then it is 3.1 and documents every route with its parameters', async () => {
    const res = await request(h.app).get('/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths)).toEqual(['/v1/price', '/v1/historical', '/v1/chart', '/v1/change', '/v1/meta', '/healthz', '/readyz']);
    const chart = res.body.paths['/v1/chart'].get;
    expect(chart.parameters.map((p: { name: string }) => p.name)).toEqual(['tokens', 'span', 'period', 'start', 'end', 'min_confidence']);
    expect(Object.keys(chart.responses).sort()).toEqual(['200', '400', '403', '502', '503', '504']);
    // Customers read it in the portal: no header only the gateway and the service exchange (issue 40).
    expect(JSON.stringify(res.body)).not.toMatch(/x-tollgate/i);
  });

  it('when a path does not exist, then 404 names it', async () => {
    const res = await request(h.app).get('/v1/prices');
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('no route for GET /v1/prices');
  });
});

describe('with a proxy secret', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ proxySecret: 'proxy-secret-0123456789abcdef' });
  });
  afterAll(() => h.close());

  it('when the secret is missing, then 403; when it is right, then 200; health needs none', async () => {
    expect((await request(h.app).get('/v1/price').query({ tokens: IDS.weth })).status).toBe(403);
    const ok = await request(h.app).get('/v1/price').query({ tokens: IDS.weth }).set('x-tollgate-proxy-secret', 'proxy-secret-0123456789abcdef');
    expect(ok.status).toBe(200);
    expect((await request(h.app).get('/healthz')).status).toBe(200);
  });

  it('when a request id comes in, then the answer carries it', async () => {
    const res = await request(h.app).get('/v1/meta').set('x-tollgate-proxy-secret', 'proxy-secret-0123456789abcdef').set('x-request-id', 'req-42');
    expect(res.body.meta.request_id).toBe('req-42');
  });
});
