import express from 'express';
import fc from 'fast-check';
import request from 'supertest';
import { validateResponse } from '@tollgate/envelope';
import { HOSTILE_NUMBERS, HOSTILE_TEXT, PROTOTYPE_NAMES } from '@tollgate/envelope/test/hostile-requests';
import { createServiceDocuments } from '../../src/data/service-documents';
import { DASHBOARD_ROUTE_DOCS, dashboardRouteOf } from '../support/dashboard-route';
import { createDocsRoutes } from '../../src/docs/docs-routes';
import { gatewayRouteDocs } from '../../src/gateway-route-docs';
import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';
import { buildGateway } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';
import { startRedisServer } from '../support/redis-server';
import type { RedisServer } from '../support/redis-server';
import { catalogueOf } from '../support/catalogue-of';

jest.setTimeout(60_000);

const HEADER = 'x-tollgate-key';
// Mid-month and mid-day: a day of grace never crosses into the next month's quota.
const START = Date.parse('2026-03-10T12:00:00.000Z');

let upstream: EchoUpstream;
let redisServer: RedisServer;
beforeAll(async () => {
  [upstream, redisServer] = await Promise.all([startEchoUpstream(), startRedisServer()]);
});
afterAll(async () => {
  await Promise.all([upstream.close(), redisServer.stop()]);
});

type Method = 'get' | 'post' | 'put' | 'delete';

describe.each(['memory', 'redis'] as const)('the account dashboard with the %s store', (kind) => {
  let gw: GatewayFixture;
  beforeEach(async () => {
    gw = await buildGateway({ upstream: upstream.url, redisUrl: kind === 'redis' ? redisServer.url : undefined, start: START });
  });
  afterEach(() => gw.close());

  /** Calls a dashboard route with a key and checks the answer against the route's RouteDoc. */
  async function dash(method: Method, path: string, key: string | undefined, body?: object) {
    let call = request(gw.app)[method](`/dashboard/v1${path}`);
    if (key !== undefined) call = call.set(HEADER, key);
    const res = await (body === undefined ? call : call.send(body));
    const route = dashboardRouteOf(method, `/dashboard/v1${path}`);
    expect(route).toBeDefined();
    expect(validateResponse(route!, res.status, res.body)).toEqual([]);
    return res;
  }
  const api = (key: string, path = '/burger/v1/index') => request(gw.app).get(path).set(HEADER, key);
  async function account(email: string): Promise<{ accountId: string; id: string; key: string }> {
    const created = await gw.stores.accountStore.createAccount({ email });
    const made = await gw.stores.accountStore.createKey(created.id, { name: 'default' });
    return { accountId: created.id, id: made!.record.id, key: made!.key };
  }
  async function addKey(key: string, name: string): Promise<{ id: string; key: string }> {
    gw.clock.advance(1_000); // Listings are in creation order; a tie would be broken by the random id.
    const res = await dash('post', '/keys', key, { name });
    expect(res.status).toBe(201);
    return { id: res.body.data.id, key: res.body.data.key };
  }

  it('when an account reads itself, then it sees the account and the key that called', async () => {
    const made = await gw.stores.accountStore.createAccount({ email: 'ada@example.com', email_verified: false });
    const { key, record } = (await gw.stores.accountStore.createKey(made.id, { name: 'default' }))!;
    const { id, account_id: accountId } = record;
    const res = await dash('get', '/account', key);
    expect(res.status).toBe(200);
    expect(res.body.data.account).toEqual({ id: accountId, email: 'ada@example.com', email_verified: false, name: 'ada@example.com', status: 'active', created_at: '2026-03-10T12:00:00.000Z', subscriptions: {} });
    expect(res.body.data.key).toMatchObject({ id, account_id: accountId, name: 'default', revoked_at: null, last4: key.slice(-4) });
    expect(res.body.data.key).not.toHaveProperty('key');
  });

  it('when two keys are added, then each is shown with its secret once and the listing pages through all three', async () => {
    const a = await account('a@example.com');
    const ci = await addKey(a.key, 'ci');
    const prod = await addKey(a.key, 'prod');
    expect([ci.key, prod.key].every((k) => k.startsWith('tg_'))).toBe(true);
    const first = await dash('get', '/keys?limit=2', a.key);
    expect(first.body.data.items.map((k: { id: string }) => k.id)).toEqual([a.id, ci.id]);
    expect(first.body.data.items.every((k: object) => !('key' in k))).toBe(true);
    expect(first.body.data.next_cursor).toEqual(expect.any(String));
    const second = await dash('get', `/keys?limit=2&cursor=${encodeURIComponent(first.body.data.next_cursor)}`, a.key);
    expect(second.body.data).toEqual({ items: [expect.objectContaining({ id: prod.id, name: 'prod' })], next_cursor: null });
    expect((await dash('get', '/keys', prod.key)).body.data.items).toHaveLength(3);
  });

  it('when two keys of one account call, then they share one monthly quota: the 6th call over both on a 5-call plan is 429', async () => {
    const a = await account('quota@example.com');
    const other = await addKey(a.key, 'second');
    expect((await dash('put', '/subscriptions/token', other.key, { plan: 'free' })).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await api(i % 2 ? other.key : a.key, '/token/v1/prices')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const usage = await dash('get', '/usage', other.key);
    expect(usage.body.data.id).toBe(other.id);
    expect(usage.body.data.apis).toEqual(expect.arrayContaining([expect.objectContaining({ api: 'token', plan: 'free', window: 'month', used: 5, remaining: 0 })]));
  });

  it('when a key is rolled with grace, then both secrets work until the grace ends, then only the new one', async () => {
    const a = await account('roll@example.com');
    await dash('put', '/subscriptions/burger', a.key, { plan: 'free' });
    const rolled = await dash('post', `/keys/${a.id}/roll`, a.key, { grace_seconds: 60 });
    expect(rolled.status).toBe(200);
    const fresh: string = rolled.body.data.key;
    expect(rolled.body.data).toMatchObject({ id: a.id, rolled_at: '2026-03-10T12:00:00.000Z', grace_until: '2026-03-10T12:01:00.000Z', last4: fresh.slice(-4) });
    for (const k of [a.key, fresh]) {
      expect((await dash('get', '/account', k)).status).toBe(200);
      expect((await api(k)).status).toBe(200);
    }
    gw.clock.advance(60_000);
    const old = await dash('get', '/account', a.key);
    expect([old.status, old.body.error.details]).toEqual([401, { reason: 'rolled' }]);
    expect((await api(a.key)).status).toBe(401);
    expect((await dash('get', '/account', fresh)).status).toBe(200);
    expect((await api(fresh)).status).toBe(200);
  });

  it('when a key is rolled with no grace given, then the old secret works a day; with grace 0, not at all', async () => {
    const a = await account('grace@example.com');
    const day = await dash('post', `/keys/${a.id}/roll`, a.key, {});
    expect(day.body.data.grace_until).toBe('2026-03-11T12:00:00.000Z');
    const zero = await dash('post', `/keys/${a.id}/roll`, day.body.data.key, { grace_seconds: 0 });
    expect(zero.body.data.grace_until).toBeNull();
    // The second roll, without grace, ends the secret it replaced at once (refused as rolled) and forgets the one still in the first roll's grace.
    expect((await dash('get', '/account', day.body.data.key)).body.error.details).toEqual({ reason: 'rolled' });
    expect((await dash('get', '/account', a.key)).body.error.details).toEqual({ reason: 'unknown' });
    expect((await dash('get', '/account', zero.body.data.key)).status).toBe(200);
    for (const grace of [-1, 604_801, 1.5, 'Infinity']) expect((await dash('post', `/keys/${a.id}/roll`, zero.body.data.key, { grace_seconds: grace })).status).toBe(400);
  });

  it('when a key is revoked, then it is refused everywhere, others of the account still work, and it cannot be rolled', async () => {
    const a = await account('revoke@example.com');
    const spare = await addKey(a.key, 'spare');
    await dash('put', '/subscriptions/burger', a.key, { plan: 'free' });
    const revoked = await dash('delete', `/keys/${spare.id}`, a.key);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({ id: spare.id, revoked_at: '2026-03-10T12:00:01.000Z' });
    const refused = await dash('get', '/account', spare.key);
    expect([refused.status, refused.body.error.details]).toEqual([401, { reason: 'revoked' }]);
    expect((await api(spare.key)).status).toBe(401);
    expect((await api(a.key)).status).toBe(200);
    expect((await dash('post', `/keys/${spare.id}/roll`, a.key)).status).toBe(409);
    // Revoking the key one calls with is allowed; after it, that key opens nothing.
    expect((await dash('delete', `/keys/${a.id}`, a.key)).status).toBe(200);
    expect((await dash('get', '/keys', a.key)).status).toBe(401);
  });

  it('when a key of another account is named, then 404 as for a key that does not exist, and nothing of the other account is readable', async () => {
    const a = await account('alice@example.com');
    const aSecond = await addKey(a.key, 'second');
    const b = await account('bob@example.com');
    for (const k of [a.key, b.key]) await dash('put', '/subscriptions/burger', k, { plan: 'free' });
    expect((await api(a.key)).status).toBe(200);
    const missing = `key_${b.accountId.slice(4)}00000000`;
    const answers = [
      await dash('post', `/keys/${aSecond.id}/roll`, b.key, {}),
      await dash('delete', `/keys/${aSecond.id}`, b.key),
      await dash('post', `/keys/${missing}/roll`, b.key, {}),
      await dash('delete', `/keys/${missing}`, b.key),
      await dash('delete', '/keys/not-a-key-id', b.key),
    ];
    expect(answers.map((r) => [r.status, r.body.message])).toEqual(Array(5).fill([404, 'no API key with this id in your account']));
    expect((await dash('get', '/keys', b.key)).body.data.items.map((k: { id: string }) => k.id)).toEqual([b.id]);
    const usage = await dash('get', '/usage', b.key);
    expect(usage.body.data.id).toBe(b.id);
    expect(usage.body.data.apis.find((l: { api: string }) => l.api === 'burger')).toMatchObject({ used: 0, status: 'active' });
    await gw.recorder.flush();
    const history = await dash('get', '/history', b.key);
    expect(history.body.data.account_id).toBe(b.accountId);
    expect(history.body.data.days.every((d: { counts: Record<string, number> }) => Object.values(d.counts).every((n) => n === 0))).toBe(true);
    // A's keys are untouched.
    expect((await dash('get', '/account', aSecond.key)).status).toBe(200);
  });

  it('when a free plan is chosen, then calls are admitted on it; a paid one is 402 saying cards are not taken here; cancelling returns to the playground', async () => {
    const a = await account('sub@example.com');
    expect((await api(a.key)).status).toBe(402);
    const sub = await dash('put', '/subscriptions/burger', a.key, { plan: 'free' });
    expect(sub.body.data).toEqual({ api: 'burger', plan: 'free', status: 'active', monthly_quota: 100, rate_per_second: 50, price: 0, currency: 'USD' });
    expect((await api(a.key)).status).toBe(200);
    expect(upstream.seen.at(-1)?.headers['x-tollgate-subscription']).toBe('free');
    const paid = await dash('put', '/subscriptions/token', a.key, { plan: 'pro' });
    expect(paid.status).toBe(402);
    expect(paid.body.message).toBe("The token API's pro plan costs 25.00 EUR a month, and card payments are not set up here yet. To get it, ask the people who run this service.");
    expect(paid.body.error.details).toEqual({ api: 'token', plan: 'pro', price: 2500, currency: 'EUR', payment_method_required: true, card_payments: false });
    await dash('put', '/subscriptions/token', a.key, { plan: 'free' });
    const line = async (name: string) => (await dash('get', '/usage', a.key)).body.data.apis.find((l: { api: string }) => l.api === name);
    expect(await line('token')).toMatchObject({ plan: 'free', window: 'month', limit: 5 });
    const cancelled = await dash('delete', '/subscriptions/token', a.key);
    expect([cancelled.status, cancelled.body.data.subscriptions]).toEqual([200, { burger: { plan: 'free', status: 'active' } }]);
    // Back to the playground: token's 10 calls a day.
    expect((await api(a.key, '/token/v1/prices')).status).toBe(200);
    expect(await line('token')).toMatchObject({ plan: null, status: 'none', window: 'day', limit: 10, used: 1 });
    // burger has no playground allowance: without the plan, the call needs a subscription again.
    expect((await dash('delete', '/subscriptions/burger', a.key)).body.data.subscriptions).toEqual({});
    expect((await api(a.key)).status).toBe(402);
    expect(await line('burger')).toBeUndefined();
    expect((await dash('delete', '/subscriptions/burger', a.key)).status).toBe(200);
    expect((await dash('delete', '/subscriptions/weather', a.key)).status).toBe(400);
    expect((await dash('put', '/subscriptions/token', a.key, { plan: 'gold' })).status).toBe(400);
  });

  it('when calls were made over two days, then the history counts every admitted call on its day', async () => {
    const a = await account('history@example.com');
    const other = await addKey(a.key, 'other');
    await dash('put', '/subscriptions/burger', a.key, { plan: 'free' });
    let admitted = 0;
    const callAndCount = async (key: string) => {
      if ((await api(key)).status === 200) admitted++;
    };
    for (const key of [a.key, other.key, a.key]) await callAndCount(key);
    gw.clock.advance(86_400_000);
    for (const key of [other.key, a.key]) await callAndCount(key);
    await dash('delete', '/subscriptions/burger', a.key);
    expect((await api(a.key)).status).toBe(402);
    await gw.recorder.flush();
    const res = await dash('get', '/history', a.key);
    expect([res.body.data.from, res.body.data.to]).toEqual(['2026-02-10', '2026-03-11']);
    const days: { day: string; api: string; counts: Record<string, number> }[] = res.body.data.days;
    expect(days).toHaveLength(30 * 2);
    expect(admitted).toBe(5);
    expect(days.reduce((sum, d) => sum + d.counts['2xx']!, 0)).toBe(admitted);
    const burger = (day: string) => days.find((d) => d.api === 'burger' && d.day === day)?.counts;
    expect(burger('2026-03-10')).toEqual({ '2xx': 3, '4xx': 0, '429': 0, '5xx': 0, refunded: 0 });
    expect(burger('2026-03-11')).toEqual({ '2xx': 2, '4xx': 1, '429': 0, '5xx': 0, refunded: 0 });
    const window = await dash('get', '/history?from=2026-03-11&to=2026-03-11', a.key);
    expect(window.body.data.days.map((d: { day: string; api: string }) => `${d.day} ${d.api}`)).toEqual(['2026-03-11 token', '2026-03-11 burger']);
  });

  it.each([
    ['from=2026-03-11&to=2026-03-10', 'from must not be after to (2026-03-10)'],
    ['from=2025-12-10', 'from must be within the 90 days of history kept: 2025-12-11 to today, 2026-03-11 (UTC)'],
    ['to=2026-03-12', 'to must be within the 90 days of history kept: 2025-12-11 to today, 2026-03-11 (UTC)'],
    ['from=2026-02-30', 'from must be a UTC day, YYYY-MM-DD'],
    ['from=10-03-2026', 'from must be a UTC date as YYYY-MM-DD, at most 90 days back; 29 days before to by default'],
    ['days=7', "unknown parameter 'days'; allowed parameters: from, to"],
  ])('when the history is asked with %s, then 400: %s', async (query, message) => {
    const a = await account('range@example.com');
    gw.clock.advance(86_400_000);
    const res = await dash('get', `/history?${query}`, a.key);
    expect([res.status, res.body.message]).toEqual([400, message]);
  });

  it('when the history is asked from 90 days back, then it answers all 91 days', async () => {
    const a = await account('far@example.com');
    const res = await dash('get', '/history?from=2025-12-10', a.key);
    expect([res.status, res.body.data.from, res.body.data.to, res.body.data.days.length]).toEqual([200, '2025-12-10', '2026-03-10', 91 * 2]);
  });

  it('when the account is suspended, then every dashboard route answers 403 until it is reactivated', async () => {
    const a = await account('suspended@example.com');
    await gw.stores.accountStore.setStatus(a.accountId, 'suspended');
    const answers = [
      await dash('get', '/account', a.key),
      await dash('get', '/keys', a.key),
      await dash('post', '/keys', a.key, { name: 'x' }),
      await dash('post', `/keys/${a.id}/roll`, a.key, {}),
      await dash('delete', `/keys/${a.id}`, a.key),
      await dash('put', '/subscriptions/burger', a.key, { plan: 'free' }),
      await dash('delete', '/subscriptions/burger', a.key),
      await dash('get', '/usage', a.key),
      await dash('get', '/history', a.key),
    ];
    expect(answers.map((r) => [r.status, r.body.error?.code])).toEqual(Array(9).fill([403, 'FORBIDDEN']));
    await gw.stores.accountStore.setStatus(a.accountId, 'active');
    expect((await dash('get', '/keys', a.key)).body.data.items).toHaveLength(1);
  });

  it('when an account holds 20 live keys, then a 21st is 409 until one is revoked or expires', async () => {
    const a = await account('many@example.com');
    const expiring = await dash('post', '/keys', a.key, { name: 'short', expires_at: '2026-03-10T13:00:00Z' });
    expect(expiring.body.data.expires_at).toBe('2026-03-10T13:00:00.000Z');
    for (let i = 0; i < 18; i++) expect((await dash('post', '/keys', a.key, { name: `k${i}` })).status).toBe(201);
    const full = await dash('post', '/keys', a.key, { name: 'one too many' });
    expect([full.status, full.body.error.code, full.body.message]).toEqual([409, 'CONFLICT', 'this account already has 20 live keys, the most it may hold; revoke one first']);
    gw.clock.advance(3_600_000);
    const expired = await dash('get', '/account', expiring.body.data.key);
    expect([expired.status, expired.body.error.details]).toEqual([401, { reason: 'expired' }]);
    expect((await dash('post', '/keys', a.key, { name: 'replacement' })).status).toBe(201);
    expect((await dash('post', '/keys', a.key, { name: 'again too many' })).status).toBe(409);
  });

  it.each([
    [{}, 'name is required and must be a non-empty string of at most 100 characters, e.g. where the key is used'],
    [{ name: '' }, 'name must be a non-empty string of at most 100 characters, e.g. where the key is used'],
    [{ name: 'x', expires_at: '2026-03-10T11:00:00Z' }, 'expires_at must be in the future (it is now 2026-03-10T12:00:00.000Z)'],
    [{ name: 'x', expires_at: 'tomorrow' }, 'expires_at must be an ISO 8601 date-time with an offset, e.g. 2027-01-31T00:00:00Z'],
    [{ name: 'x', expires_at: '2027-02-31T00:00:00Z' }, 'expires_at must be an ISO 8601 date-time with an offset, e.g. 2027-01-31T00:00:00Z'],
    [{ name: 'x', scopes: ['all'] }, "unknown parameter 'scopes'; allowed parameters: name, expires_at"],
  ])('when a key is created with %j, then 400: %s', async (body, message) => {
    const a = await account('bad@example.com');
    const res = await dash('post', '/keys', a.key, body);
    expect([res.status, res.body.message]).toEqual([400, message]);
  });

  it('when no key, an unknown key or a malformed one calls, then 401 saying which', async () => {
    expect((await dash('get', '/keys', undefined)).body.error.details).toEqual({ reason: 'missing' });
    expect((await dash('get', '/account', 'tg_nope')).body.error.details).toEqual({ reason: 'unknown' });
    const a = await account('typo@example.com');
    const typo = `${a.key.slice(0, -1)}${a.key.endsWith('A') ? 'B' : 'A'}`;
    expect((await dash('get', '/usage', typo)).status).toBe(401);
    expect((await dash('get', '/keys?limit=0', a.key)).status).toBe(400);
    expect((await dash('get', '/keys?limit=101', a.key)).status).toBe(400);
  });
});

describe('the dashboard routes in the API reference', () => {
  it('when /docs/openapi.json is read, then every dashboard route is there with its method', async () => {
    const app = express();
    app.use(createDocsRoutes({ documents: createServiceDocuments({ catalogue: catalogueOf({}), proxySecret: 'docs-proxy-secret-0123456789', clock: () => 0 }), keyHeader: HEADER, gatewayRoutes: gatewayRouteDocs() }));
    const paths = (await request(app).get('/docs/openapi.json')).body.paths as Record<string, Record<string, { tags: string[] }>>;
    for (const route of DASHBOARD_ROUTE_DOCS) expect(paths[route.path]?.[route.method]?.tags).toEqual(['dashboard']);
    expect(DASHBOARD_ROUTE_DOCS.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'delete /dashboard/v1/account/sessions',
      'delete /dashboard/v1/account/sessions/{id}',
      'delete /dashboard/v1/keys/{id}',
      'delete /dashboard/v1/session',
      'delete /dashboard/v1/subscriptions/{api}',
      'delete /dashboard/v1/team/invitations/{id}',
      'delete /dashboard/v1/team/members/{person}',
      'get /dashboard/v1/account',
      'get /dashboard/v1/account/export',
      'get /dashboard/v1/account/sessions',
      'get /dashboard/v1/history',
      'get /dashboard/v1/keys',
      'get /dashboard/v1/plans',
      'get /dashboard/v1/session',
      'get /dashboard/v1/session/state',
      'get /dashboard/v1/team/audit',
      'get /dashboard/v1/team/invitations',
      'get /dashboard/v1/team/members',
      'get /dashboard/v1/teams',
      'get /dashboard/v1/usage',
      'get /dashboard/v1/usage/breakdown',
      'post /dashboard/v1/account/delete',
      'post /dashboard/v1/account/delete/confirm',
      'post /dashboard/v1/account/email',
      'post /dashboard/v1/account/email/confirm',
      'post /dashboard/v1/account/verify-email',
      'post /dashboard/v1/account/verify-email/confirm',
      'post /dashboard/v1/keys',
      'post /dashboard/v1/keys/{id}/end-grace',
      'post /dashboard/v1/keys/{id}/roll',
      'post /dashboard/v1/person/delete',
      'post /dashboard/v1/person/delete/confirm',
      'post /dashboard/v1/sign-in',
      'post /dashboard/v1/sign-in/link',
      'post /dashboard/v1/sign-in/verify',
      'post /dashboard/v1/signup',
      'post /dashboard/v1/signup/verify',
      'post /dashboard/v1/team/invitations',
      'post /dashboard/v1/team/invitations/accept',
      'post /dashboard/v1/team/leave',
      'post /dashboard/v1/teams/switch',
      'put /dashboard/v1/subscriptions/{api}',
      'put /dashboard/v1/team/members/{person}',
    ]);
  });
});

describe('the dashboard under hostile bodies, ids and query strings (property-based)', () => {
  let gw: GatewayFixture;
  afterAll(() => gw.close());

  it('when any route gets any body, id or query, then never a 5xx, every answer in the envelope and as documented', async () => {
    gw = await buildGateway({ upstream: upstream.url, start: START });
    const accounts = gw.stores.accountStore;
    const mine = await accounts.createAccount({ email: 'fuzz@example.com' });
    const caller = (await accounts.createKey(mine.id, { name: 'caller' }))!;
    const victim = (await accounts.createKey(mine.id, { name: 'victim' }))!;
    const other = await accounts.createAccount({ email: 'other@example.com' });
    const foreign = (await accounts.createKey(other.id, { name: 'foreign' }))!;
    const hostile = [...HOSTILE_NUMBERS, ...HOSTILE_TEXT, ...PROTOTYPE_NAMES];
    // Never the caller's own id: revoking or rolling it would end the run's authentication.
    const missing = `key_${mine.id.slice(4)}00000000`;
    const ids = [victim.record.id, foreign.record.id, ...(missing === caller.record.id ? [] : [missing]), '%ZZ', '%00', '__proto__', 'x'.repeat(500), encodeURIComponent('ünï/..')];
    const apis = ['token', 'burger', 'weather', '%ZZ', ...PROTOTYPE_NAMES];
    const valueOf = fc.oneof(
      fc.constantFrom<unknown>('free', 'pro', 'ci', '2026-03-01', '2026-03-10T13:00:00Z', 0, 20, 86_400, 604_800, null, true, [], {}),
      fc.constantFrom<unknown>(...hostile),
      fc.integer({ min: -1e6, max: 1e12 }),
      fc.double(),
      fc.jsonValue(),
    );
    const names = ['name', 'expires_at', 'grace_seconds', 'plan', 'email', ...PROTOTYPE_NAMES];
    const either = (good: unknown[]) => fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...good) }, { weight: 1, arbitrary: valueOf });
    // Mostly the fields the route takes, so hostile values reach its handler past the unknown-field check.
    const plausible = (path: string): fc.Arbitrary<object> => {
      if (path === '/keys') return fc.record({ name: either(['ci', 'n'.repeat(100)]), expires_at: either(['2026-03-10T13:00:00Z', '2026-03-10T13:00:00.123+02:00', '2026-03-10T11:00:00Z']) }, { requiredKeys: ['name'] });
      if (path.endsWith('/roll')) return fc.record({ grace_seconds: either([0, 60, 604_800]) }, { requiredKeys: [] });
      if (path.startsWith('/subscriptions/')) return fc.record({ plan: either(['free', 'slow', 'pro']) });
      return fc.record({ email: either(['fuzz2@example.com']) });
    };
    const bodyFor = (path: string) =>
      fc.oneof(
        { weight: 4, arbitrary: plausible(path).map((o) => JSON.stringify(o)) },
        fc.dictionary(fc.constantFrom(...names), valueOf, { maxKeys: 3 }).map((o) => JSON.stringify(o)),
        fc.jsonValue().map((v) => JSON.stringify(v)),
        fc.constantFrom('', '{', 'null', '[]', '"x"', '{"__proto__":{"name":"x"}}', `{"name":"${'n'.repeat(5000)}"}`),
      );
    const query = fc.array(fc.tuple(fc.constantFrom('limit', 'cursor', 'from', 'to', 'limit[]', ...PROTOTYPE_NAMES), fc.oneof(fc.constantFrom('1', '20', '100', '2026-03-01', '2026-03-10', '0000000000000:key_'), fc.constantFrom(...hostile.map(String)))), { maxLength: 3 });
    const target = fc.oneof(
      fc.constantFrom<[Method, string]>(['get', '/account'], ['get', '/keys'], ['post', '/keys'], ['get', '/usage'], ['get', '/history'], ['post', '/signup']),
      fc.constantFrom(...ids).chain((id) => fc.constantFrom<[Method, string]>(['post', `/keys/${id}/roll`], ['delete', `/keys/${id}`])),
      fc.oneof({ weight: 3, arbitrary: fc.constantFrom('token', 'burger') }, { weight: 1, arbitrary: fc.constantFrom(...apis) }).chain((a) => fc.constantFrom<[Method, string]>(['put', `/subscriptions/${a}`], ['delete', `/subscriptions/${a}`])),
    );
    const generated = target.chain(([method, path]) => fc.tuple(fc.constant<[Method, string]>([method, path]), bodyFor(path)));
    const statuses = new Map<number, number>();
    const secret = fc.oneof({ weight: 8, arbitrary: fc.constant(caller.key) }, { weight: 1, arbitrary: fc.constantFrom(foreign.key, 'tg_', `${caller.key}x`, 'x'.repeat(300)) });

    await fc.assert(
      fc.asyncProperty(generated, query, secret, async ([[method, path], raw], pairs, key) => {
        const qs = pairs.map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v.replace(/[\ud800-\udfff]/g, '\ufffd'))}`).join('&');
        const url = `/dashboard/v1${path}${qs ? `?${qs}` : ''}`;
        let call = request(gw.app)[method](url).set(HEADER, key);
        if (method !== 'get') call = call.set('content-type', 'application/json').send(raw);
        const res = await call;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const route = dashboardRouteOf(method, url);
        const problems = route ? validateResponse(route, res.status, res.body) : [];
        if (res.status >= 500) problems.push(`status ${res.status}`);
        if (res.status >= 400 && res.body?.success !== false) problems.push('not the error envelope');
        if (problems.length) throw new Error(`${method.toUpperCase()} ${url.slice(0, 200)} ${raw.slice(0, 200)} → ${res.status} ${String(res.body?.message)}: ${problems.join('; ')}`);
      }),
      { numRuns: 300, seed: 12 },
    );
    // The run reached the handlers, not only the checks in front of them.
    expect([...statuses.keys()]).toEqual(expect.arrayContaining([200, 201, 400, 401, 402, 404]));
  });
});
