import fc from 'fast-check';
import request from 'supertest';
import { validateResponse } from '@tollgate/envelope';
import { HOSTILE_TEXT } from '@tollgate/envelope/test/hostile-requests';
import { LATENCY_BOUNDS_MS } from '../../src/domain/latency-histogram';
import { parseCsv } from '../support/csv-reader';
import { dashboardRouteOf } from '../support/dashboard-route';
import { eventually } from '../support/eventually';
import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';
import type { PlanTable } from '../../src/domain/plans';
import { TEST_PLANS, buildGateway } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';

const HEADER = 'x-tollgate-key';
const START = Date.parse('2026-03-10T12:00:00.000Z');
// A key name a spreadsheet would run as a formula, with quotes and a comma to be quoted.
const HOSTILE_NAME = '=HYPERLINK("http://evil.example","click"), then "quote"';

let upstream: EchoUpstream;
let gw: GatewayFixture;
beforeAll(async () => {
  upstream = await startEchoUpstream({ routes: ['/v1/index/{currency}', '/v1/status/{code}'] });
});
afterAll(() => upstream.close());
async function start(plans?: PlanTable): Promise<GatewayFixture> {
  const started = await buildGateway({ upstream: upstream.url, start: START, ...(plans ? { plans } : {}) });
  // Until the service's document is read every path goes through; once it is, calls count under
  // their route templates and a path of none is refused (another account's calls, not counted here).
  const warm = (await started.stores.keyStore.create({ owner: 'warm@example.com', subscriptions: { burger: { plan: 'free', status: 'active' } } })).key;
  await eventually(async () => (await request(started.app).get('/burger/v1/nowhere').set(HEADER, warm)).status === 404, 'the service document');
  return started;
}
beforeEach(async () => {
  gw = await start();
});
afterEach(() => gw.close());

async function accountWithTwoKeys() {
  const account = await gw.stores.accountStore.createAccount({ email: 'detail@example.com', subscriptions: { burger: { plan: 'free', status: 'active' } } });
  const a = (await gw.stores.accountStore.createKey(account.id, { name: 'prod' }))!;
  const b = (await gw.stores.accountStore.createKey(account.id, { name: HOSTILE_NAME }))!;
  return { account, a, b };
}

async function breakdown(path: string, key: string) {
  const res = await request(gw.app).get(`/dashboard/v1${path}`).set(HEADER, key);
  if (!path.includes('.csv')) expect(validateResponse(dashboardRouteOf('get', `/dashboard/v1${path}`)!, res.status, res.body)).toEqual([]);
  return res;
}

describe('the usage breakdown', () => {
  it('when two keys call two endpoints over two days, then each day shows calls and errors per key and per endpoint, p50/p95, and the CSV has the same figures', async () => {
    const { account, a, b } = await accountWithTwoKeys();
    const call = (key: string, path: string) => request(gw.app).get(path).set(HEADER, key);
    for (let i = 0; i < 3; i++) expect((await call(a.key, '/burger/v1/index/usd')).status).toBe(200);
    expect((await call(b.key, '/burger/v1/status/404')).status).toBe(404);
    // Paths no route matches are refused before the key is charged or counted.
    expect((await call(b.key, '/burger/v1/nowhere/at/all')).status).toBe(404);
    expect((await call(b.key, '/burger/v1/index/%00/..')).status).toBe(400);
    gw.clock.advance(86_400_000);
    expect((await call(b.key, '/burger/v1/index/eur')).status).toBe(200);
    await gw.recorder.flush();

    const res = await breakdown('/usage/breakdown', a.key);
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect([data.account_id, data.from, data.to, data.days.length, data.latency_bounds_ms]).toEqual([account.id, '2026-02-10', '2026-03-11', 30, LATENCY_BOUNDS_MS]);
    const day = (id: string) => data.days.find((d: { day: string }) => d.day === id);
    expect(day('2026-03-10')).toMatchObject({
      calls: 4,
      errors: 1,
      keys: [
        { key_id: a.record.id, calls: 3, errors: 0 },
        { key_id: b.record.id, calls: 1, errors: 1 },
      ].sort((x, y) => x.key_id.localeCompare(y.key_id)),
      endpoints: [
        { api: 'burger', route: '/v1/index/{currency}', label: '/burger/v1/index/{currency}', calls: 3, errors: 0 },
        { api: 'burger', route: '/v1/status/{code}', label: '/burger/v1/status/{code}', calls: 1, errors: 1 },
      ],
    });
    expect(day('2026-03-10').p50_ms).toEqual(expect.any(Number));
    expect(day('2026-03-10').p95_ms).toBeGreaterThanOrEqual(day('2026-03-10').p50_ms);
    expect(day('2026-03-11')).toMatchObject({ calls: 1, errors: 0, keys: [{ key_id: b.record.id, calls: 1, errors: 0 }] });
    expect(day('2026-03-09')).toMatchObject({ calls: 0, errors: 0, p50_ms: null, p95_ms: null, keys: [], endpoints: [] });
    // Each key also as the Keys list shows it, so a person matches the CSV's rows with that list by eye (issue 40).
    const shown = (record: { prefix: string; last4: string }) => `${record.prefix}…${record.last4}`;
    expect(data.keys).toEqual(expect.arrayContaining([{ id: a.record.id, name: 'prod', shown: shown(a.record), revoked: false }, { id: b.record.id, name: HOSTILE_NAME, shown: shown(b.record), revoked: false }]));

    const csv = await breakdown('/usage/breakdown.csv', a.key);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="tollgate-usage-2026-02-10-to-2026-03-11.csv"');
    expect(csv.headers['cache-control']).toContain('no-store');
    const [header, ...rows] = parseCsv(csv.text);
    expect(header).toEqual(['day', 'dimension', 'id', 'name', 'calls', 'errors', 'p50_ms', 'p95_ms', 'key']);
    expect(rows.filter((r) => r[1] === 'total').map((r) => [r[0], r[4], r[5], Number(r[6]) > 0, r[7] !== ''])).toEqual([
      ['2026-03-10', '4', '1', true, true],
      ['2026-03-11', '1', '0', true, true],
    ]);
    expect(rows.filter((r) => r[1] === 'key' && r[2] === b.record.id).map((r) => [r[0], r[3], r[4], r[5], r[8]])).toEqual([
      ['2026-03-10', `'${HOSTILE_NAME}`, '1', '1', shown(b.record)],
      ['2026-03-11', `'${HOSTILE_NAME}`, '1', '0', shown(b.record)],
    ]);
    expect(rows.filter((r) => r[1] !== 'key').every((r) => r[8] === '')).toBe(true);
    expect(rows.filter((r) => r[1] === 'endpoint').map((r) => [r[0], r[2], r[3], r[4], r[5]])).toEqual([
      ['2026-03-10', '/burger/v1/index/{currency}', 'burger', '3', '0'],
      ['2026-03-10', '/burger/v1/status/{code}', 'burger', '1', '1'],
      ['2026-03-11', '/burger/v1/index/{currency}', 'burger', '1', '0'],
    ]);
    // Every figure of the JSON is in the CSV: calls per key add up to the days' totals.
    const sum = (dimension: string) => rows.filter((r) => r[1] === dimension).reduce((s, r) => s + Number(r[4]), 0);
    expect([sum('total'), sum('key'), sum('endpoint')]).toEqual([5, 5, 5]);
  });

  it('when calls are refused for the rate and for the quota, then each counts as a call and an error of its endpoint, as the served ones count as calls', async () => {
    // fourth-api.test.ts's weather sequence on a manual clock: a free plan of 2 a second and 5 a month.
    await gw.close();
    gw = await start({ ...TEST_PLANS, burger: { playground_per_day: 0, plans: { free: { monthly_quota: 5, rate_per_second: 2, price: 0, currency: 'USD' } } } });
    const { a } = await accountWithTwoKeys();
    const call = (path = '/burger/v1/index/usd') => request(gw.app).get(path).set(HEADER, a.key);
    const burst = await Promise.all([call(), call(), call(), call()]);
    expect(burst.map((r) => [r.status, r.body.error?.code ?? null]).sort()).toEqual([[200, null], [200, null], [429, 'RATE_LIMITED'], [429, 'RATE_LIMITED']]);
    gw.clock.advance(1_100);
    expect([(await call('/burger/v1/status/200')).status, (await call('/burger/v1/index/eur')).status]).toEqual([200, 200]);
    gw.clock.advance(1_100);
    expect((await call()).status).toBe(200);
    const over = await call();
    expect([over.status, over.body.error.code]).toEqual([429, 'QUOTA_EXCEEDED']);
    await gw.recorder.flush();

    const day = (await breakdown('/usage/breakdown', a.key)).body.data.days.find((d: { day: string }) => d.day === '2026-03-10');
    expect(day).toMatchObject({
      calls: 8,
      errors: 3,
      keys: [{ key_id: a.record.id, calls: 8, errors: 3 }],
      endpoints: [
        { label: '/burger/v1/index/{currency}', calls: 7, errors: 3 },
        { label: '/burger/v1/status/{code}', calls: 1, errors: 0 },
      ],
    });
  });

  it('when an account has no calls, then every day is empty and the CSV is its header alone', async () => {
    const { a } = await accountWithTwoKeys();
    const res = await breakdown('/usage/breakdown', a.key);
    expect(res.body.data.days.every((d: { calls: number; keys: unknown[] }) => d.calls === 0 && d.keys.length === 0)).toBe(true);
    expect((await breakdown('/usage/breakdown.csv', a.key)).text).toBe('day,dimension,id,name,calls,errors,p50_ms,p95_ms,key\r\n');
  });

  it.each([
    ['from=2026-03-11&to=2026-03-10', 'from must not be after to (2026-03-10)'],
    ['from=2026-02-30', 'from must be a UTC day, YYYY-MM-DD'],
    ['days=7', "unknown parameter 'days'; allowed parameters: from, to"],
  ])('when the breakdown is asked with %s, then 400 in the envelope, as JSON and as CSV', async (query, message) => {
    const { a } = await accountWithTwoKeys();
    gw.clock.advance(86_400_000);
    for (const path of ['/usage/breakdown', '/usage/breakdown.csv']) {
      const res = await request(gw.app).get(`/dashboard/v1${path}?${query}`).set(HEADER, a.key);
      expect([res.status, res.body.message]).toEqual([400, message]);
    }
  });

  it('when no key or an unknown one is sent, then 401 in the envelope, as JSON and as CSV', async () => {
    for (const path of ['/usage/breakdown', '/usage/breakdown.csv']) {
      expect((await request(gw.app).get(`/dashboard/v1${path}`)).status).toBe(401);
      expect((await request(gw.app).get(`/dashboard/v1${path}`).set(HEADER, 'tg_nobody')).status).toBe(401);
    }
  });

  it('when the query is anything at all, then the answer is 200 or a 400 in the envelope, never a 500', async () => {
    const { a } = await accountWithTwoKeys();
    const value = fc.oneof(fc.constantFrom(...HOSTILE_TEXT), fc.string(), fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)));
    const query = fc.dictionary(fc.oneof(fc.constantFrom('from', 'to', '__proto__', 'from[]'), fc.string({ minLength: 1 })), value, { maxKeys: 3 });
    await fc.assert(
      fc.asyncProperty(query, fc.boolean(), async (params, csv) => {
        const res = await request(gw.app).get(`/dashboard/v1/usage/breakdown${csv ? '.csv' : ''}`).query(params).set(HEADER, a.key);
        expect([200, 400]).toContain(res.status);
        if (res.status === 400) expect(res.body).toMatchObject({ success: false, error: { code: 'BAD_REQUEST' } });
      }),
      { numRuns: 60 },
    );
  });
});
