import request from 'supertest';
import { validateResponse } from '@tollgate/envelope';
import type { RouteDoc } from '@tollgate/envelope';
import { changeRoute } from '../../src/routes/change-route';
import { chartRoute } from '../../src/routes/chart-route';
import { historicalRoute } from '../../src/routes/historical-route';
import { priceRoute } from '../../src/routes/price-route';
import { readyzRoute } from '../../src/routes/health-docs';
import { IDS, startHarness } from './harness';
import type { Harness } from './harness';

// The harness's patient client (8 s), so a test process stalled on a busy machine is not taken for a
// slow indexer; only the cases that wait out a slow one (`hasty`) give it 300 ms.
let h: Harness;
let hasty: Harness;
beforeAll(async () => {
  [h, hasty] = await Promise.all([startHarness(), startHarness({ timeoutMs: 300 })]);
  await Promise.all([request(h.app).get('/readyz'), request(hasty.app).get('/readyz')]);
});
afterAll(() => Promise.all([h.close(), hasty.close()]));
afterEach(() => {
  h.local.setFault(undefined);
  hasty.local.setFault(undefined);
});

async function price(on: Harness = h) {
  const res = await request(on.app).get('/v1/price').query({ tokens: IDS.weth });
  expect(validateResponse(priceRoute, res.status, res.body)).toEqual([]);
  return res;
}

describe('when the price indexer fails', () => {
  it.each([
    ['rate-limits with Retry-After', { status: 429, headers: { 'retry-after': '17' } }, 503, 'UPSTREAM_RATE_LIMITED', 'the price indexer is rate-limiting us; retry in 17 s'],
    ['rate-limits without Retry-After', { status: 429 }, 503, 'UPSTREAM_RATE_LIMITED', 'the price indexer is rate-limiting us; retry in 30 s'],
    ['answers 500', { status: 500 }, 502, 'UPSTREAM_UNAVAILABLE', 'the price indexer answered HTTP 500'],
    ['answers 503', { status: 503 }, 502, 'UPSTREAM_UNAVAILABLE', 'the price indexer answered HTTP 503'],
    ['answers garbage JSON', { status: 200, body: '{"coins": {"ethereum:0x' }, 502, 'UPSTREAM_UNAVAILABLE', 'the price indexer answered with invalid JSON'],
    ['answers an HTML page', { status: 200, body: '<html>Bad gateway</html>' }, 502, 'UPSTREAM_UNAVAILABLE', 'the price indexer answered with invalid JSON'],
    ['answers JSON of the wrong shape', { status: 200, body: '{"coins":{"ethereum:0x":{"price":"1"}}}' }, 502, 'UPSTREAM_UNAVAILABLE', 'the price indexer answered in an unexpected shape: /coins/ethereum:0x must have required property \'symbol\''],
    ['answers too slowly', { delayMs: 1500 }, 504, 'UPSTREAM_TIMEOUT', 'the price indexer did not answer within 300 ms'],
    ['trickles its body byte by byte', { trickleMs: 50 }, 504, 'UPSTREAM_TIMEOUT', 'the price indexer did not answer within 300 ms'],
    ['refuses with 400 {message}', { status: 400, body: '{"message":"coins are not valid"}' }, 400, 'BAD_REQUEST', 'price indexer: coins are not valid'],
    ['refuses with a double-wrapped 400', { status: 400, body: JSON.stringify({ statusCode: 400, body: JSON.stringify({ message: 'span is not an uint' }) }) }, 400, 'BAD_REQUEST', 'price indexer: span is not an uint'],
    ['refuses with a stack trace', { status: 400, body: JSON.stringify({ message: 'SyntaxError: Unexpected token\n    at JSON.parse (<anonymous>)' }) }, 400, 'BAD_REQUEST', 'price indexer: SyntaxError: Unexpected token'],
  ])('%s, then the answer is %i %s', async (_case, fault, status, code, message) => {
    const on = code === 'UPSTREAM_TIMEOUT' ? hasty : h;
    on.local.setFault(fault);
    const res = await price(on);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ success: false, status: 'error', message, error: { code } });
  });

  it('rate-limits, then Retry-After is passed on', async () => {
    h.local.setFault({ status: 429, headers: { 'retry-after': '17' } });
    const res = await price();
    expect(res.headers['retry-after']).toBe('17');
  });

  it('sends Retry-After as an HTTP date, then it is turned into seconds', async () => {
    h.local.setFault({ status: 429, headers: { 'retry-after': new Date(1_767_226_200_000 + 42_000).toUTCString() } });
    expect((await price()).headers['retry-after']).toBe('42');
  });

  it('rejects a chart call, then its message is passed on as 400', async () => {
    h.local.setFault({ status: 400, body: '{"message":"use either start or end parameter, not both"}', match: (p) => p.startsWith('/chart') });
    const res = await request(h.app).get('/v1/chart').query({ tokens: IDS.btc, span: '2' });
    expect(validateResponse(chartRoute, res.status, res.body)).toEqual([]);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('price indexer: use either start or end parameter, not both');
  });
});

describe('when the price indexer fails under each endpoint', () => {
  const endpoints: Array<[RouteDoc, Record<string, string>]> = [
    [priceRoute, { tokens: IDS.weth }],
    [historicalRoute, { tokens: IDS.weth, timestamp: '1767000000' }],
    [chartRoute, { tokens: IDS.weth, span: '3' }],
    [changeRoute, { tokens: IDS.weth }],
  ];
  it.each(endpoints.flatMap(([route, query]) => [
    [route.path, 429, 503, 'UPSTREAM_RATE_LIMITED', route, query] as const,
    [route.path, 500, 502, 'UPSTREAM_UNAVAILABLE', route, query] as const,
  ]))('%s: when the indexer answers %i, then the answer is %i %s as documented', async (path, upstream, status, code, route, query) => {
    h.local.setFault({ status: upstream });
    const res = await request(h.app).get(path).query(query);
    expect(validateResponse(route, res.status, res.body)).toEqual([]);
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
  });
});

describe('when the price indexer cannot be reached', () => {
  let down: Harness;
  beforeAll(async () => {
    const closed = await startHarness();
    const url = closed.local.url;
    await closed.close();
    down = await startHarness({ baseUrl: url });
  });
  afterAll(() => down.close());

  it('then a price call answers 502 naming the failure', async () => {
    const res = await request(down.app).get('/v1/price').query({ tokens: IDS.weth });
    expect(validateResponse(priceRoute, res.status, res.body)).toEqual([]);
    expect(res.status).toBe(502);
    expect(res.body.message).toBe('the price indexer could not be reached (ECONNREFUSED)');
  });

  it('then /readyz answers 503 NOT_READY and /healthz still answers 200', async () => {
    const ready = await request(down.app).get('/readyz');
    expect(validateResponse(readyzRoute, ready.status, ready.body)).toEqual([]);
    expect(ready.status).toBe(503);
    expect(ready.body.message).toBe("the price indexer's chain list could not be fetched: the price indexer could not be reached (ECONNREFUSED)");
    expect((await request(down.app).get('/healthz')).status).toBe(200);
  });
});
