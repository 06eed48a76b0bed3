import request from 'supertest';
import { validateResponse } from '@tollgate/envelope';
import { ADMIN_ROUTES } from '../../src/admin/admin-routes';
import { generateApiKey } from '../../src/domain/api-key';
import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream, SeenRequest } from '../support/echo-upstream';
import { ADMIN_TOKEN, PROXY_SECRET, buildGateway } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';
import { freePort } from '@tollgate/envelope/test/processes';
import { startRedisServer } from '../support/redis-server';
import type { RedisServer } from '../support/redis-server';

let upstream: EchoUpstream;
let redisServer: RedisServer;
beforeAll(async () => {
  [upstream, redisServer] = await Promise.all([startEchoUpstream(), startRedisServer()]);
});
afterAll(async () => {
  await Promise.all([upstream.close(), redisServer.stop()]);
});

const auth = { Authorization: `Bearer ${ADMIN_TOKEN}` };

describe.each([
  ['memory', 'Express app'],
  ['redis', 'Express app'],
  ['redis', 'fast-path listener'],
] as const)('gateway with the %s store, served by the %s', (kind, served) => {
  let gw: GatewayFixture;
  beforeEach(async () => {
    gw = await buildGateway({ upstream: upstream.url, redisUrl: kind === 'redis' ? redisServer.url : undefined, fastPath: served === 'fast-path listener' });
    upstream.seen.length = 0;
  });
  afterEach(() => gw.close());

  async function newKey(subscriptions?: Record<string, string>): Promise<{ id: string; key: string; account_id: string }> {
    const res = await request(gw.app).post('/admin/v1/keys').set(auth).send({ owner: 'ada@example.com', subscriptions });
    expect(validateResponse(ADMIN_ROUTES.create, res.status, res.body)).toEqual([]);
    expect(res.status).toBe(201);
    return res.body.data;
  }
  const call = (key: string | undefined, path = '/token/v1/prices?coins=eth') => {
    const r = request(gw.app).get(path);
    return key === undefined ? r : r.set('x-tollgate-key', key);
  };
  const lastSeen = (): SeenRequest => upstream.seen[upstream.seen.length - 1] as SeenRequest;
  const usage = async (id: string, api = 'token') => {
    const res = await request(gw.app).get(`/admin/v1/keys/${id}/usage`).set(auth);
    expect(validateResponse(ADMIN_ROUTES.usage, res.status, res.body)).toEqual([]);
    return (res.body.data.apis as { api: string; used: number; window: string }[]).find((a) => a.api === api);
  };

  describe('keys', () => {
    it.each([
      ['missing', undefined, 'missing API key: send it in the x-tollgate-key header'],
      ['unknown', generateApiKey('acc_000000000000000000000000'), 'unknown API key'],
      ['not in the key format', 'tg_not-a-key', 'invalid API key: it is not in the format of Tollgate keys (tg_…)'],
      ['absurdly long', 'x'.repeat(500), 'invalid API key: it is not in the format of Tollgate keys (tg_…)'],
    ])('when the key is %s, then 401 in the envelope and nothing reaches the service', async (_case, key, message) => {
      const res = await call(key);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ success: false, status: 'error', message, error: { code: 'UNAUTHORIZED' }, data: null });
      expect(upstream.seen).toHaveLength(0);
    });

    it('when the key is revoked, then 401 and the call is not charged', async () => {
      const { id, key } = await newKey({ token: 'free' });
      expect((await call(key)).status).toBe(200);
      expect((await request(gw.app).delete(`/admin/v1/keys/${id}`).set(auth)).body.data.revoked_at).toBe(new Date(gw.clock.now()).toISOString());
      const res = await call(key);
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('this API key has been revoked');
      expect((await usage(id))?.used).toBe(1);
    });
  });

  describe('subscriptions', () => {
    it('when the key has no subscription to an API without playground, then 402 naming the API, its plans and the portal page, never the key or an operator command', async () => {
      const { key } = await newKey();
      const res = await call(key, '/burger/v1/index');
      expect(res.status).toBe(402);
      expect(res.body.error).toEqual({ code: 'SUBSCRIPTION_REQUIRED', details: { api: 'burger', plans: ['free'], page: '/portal/subscriptions' } });
      expect(res.body.message).toBe('The burger API needs a plan, and your account has none. Choose a plan (free) at /portal/subscriptions.');
    });

    it('when the subscription is inactive and the API has no playground, then 402 saying so', async () => {
      const { id, key } = await newKey({ burger: 'free' });
      await request(gw.app).put(`/admin/v1/keys/${id}/subscriptions/burger`).set(auth).send({ plan: 'free', status: 'inactive' }).expect(200);
      const res = await call(key, '/burger/v1/index');
      expect(res.status).toBe(402);
      expect(res.body.message).toBe('Your burger free plan is inactive. Choose a plan (free) at /portal/subscriptions.');
    });

    it('when a key without subscription uses the playground, then 10 calls a UTC day pass and the 11th is 402 until the next day', async () => {
      const { id, key } = await newKey();
      gw.clock.set(Date.parse('2026-03-31T12:00:00Z'));
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) statuses.push((await call(key)).status);
      expect(statuses).toEqual([...Array(10).fill(200), 402]);
      expect(lastSeen().headers['x-tollgate-subscription']).toBe('free');
      // The service is told the call is the playground's, not the free plan's (issue 40).
      expect(lastSeen().headers['x-tollgate-access']).toBe('playground');
      const refused = await call(key);
      expect(refused.body.message).toBe('Your 10 free test calls to the token API are used up for today (UTC). Choose a plan (free, slow, pro) at /portal/subscriptions, or try again tomorrow.');
      expect(refused.headers['x-ratelimit-requests-remaining']).toBe('0');
      expect(await usage(id)).toMatchObject({ window: 'day', used: 10 });
      gw.clock.set(Date.parse('2026-04-01T00:00:00Z'));
      const next = await call(key);
      expect(next.status).toBe(200);
      expect(next.headers).toMatchObject({ 'x-ratelimit-requests-limit': '10', 'x-ratelimit-requests-remaining': '9', 'ratelimit-policy': '"day";q=10;w=86400' });
    });
  });

  describe('quotas', () => {
    it('when the rate per second is reached, then 429 RATE_LIMITED with Retry-After and limit headers, uncharged', async () => {
      const { id, key } = await newKey({ token: 'slow' });
      expect((await call(key)).status).toBe(200);
      gw.clock.advance(300);
      expect((await call(key)).status).toBe(200);
      gw.clock.advance(100);
      const res = await call(key);
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ error: { code: 'RATE_LIMITED' }, message: 'Too many calls at once: your token slow plan allows 2 a second. Retry in 1 s, or move to a faster plan at /portal/subscriptions.' });
      expect(res.headers).toMatchObject({
        'retry-after': '1',
        'x-ratelimit-requests-limit': '1000',
        'x-ratelimit-requests-remaining': '998',
        'ratelimit-policy': '"second";q=2;w=1, "month";q=1000;w=2678400',
        ratelimit: `"second";r=0;t=1, "month";r=998;t=${res.headers['x-ratelimit-requests-reset']}`,
      });
      expect(upstream.seen).toHaveLength(2);
      gw.clock.advance(600); // the first call leaves the rolling second
      expect((await call(key)).status).toBe(200);
      expect((await usage(id))?.used).toBe(3);
    });

    it('when the monthly quota is used up, then 429 QUOTA_EXCEEDED until the UTC month rolls over', async () => {
      const { id, key } = await newKey({ token: 'free' });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await call(key)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      const res = await call(key);
      expect(res.body).toMatchObject({ error: { code: 'QUOTA_EXCEEDED' }, message: "Your token free plan's 5 calls for this month are used up. They start again on 2026-04-01 at 00:00 UTC; for more now, upgrade at /portal/subscriptions." });
      expect(res.headers['retry-after']).toBe('10'); // 23:59:50 → midnight
      expect(res.headers['x-ratelimit-requests-reset']).toBe('10');
      expect(await usage(id)).toMatchObject({ used: 5, window: 'month' });
      gw.clock.set(Date.parse('2026-04-01T00:00:00Z'));
      const april = await call(key);
      expect(april.status).toBe(200);
      expect(april.headers['x-ratelimit-requests-remaining']).toBe('4');
      expect(await usage(id)).toMatchObject({ used: 1, window: 'month', period: '2026-04' });
    });
  });

  describe('proxying', () => {
    it('when a call is admitted, then the service gets path, query, secret, user, plan and request id, and the client the headers', async () => {
      const { account_id: id, key } = await newKey({ token: 'pro' });
      const res = await call(key, '/token/v1/prices?coins=eth,btc').set('x-request-id', 'req-123');
      expect(res.status).toBe(200);
      expect(res.body.url).toBe('/v1/prices?coins=eth,btc');
      expect(res.body.headers).toMatchObject({ 'x-tollgate-proxy-secret': PROXY_SECRET, 'x-tollgate-user': id, 'x-tollgate-subscription': 'pro', 'x-request-id': 'req-123' });
      expect(res.body.headers['x-tollgate-access']).toBeUndefined();
      expect(res.body.headers['x-forwarded-for']).toMatch(/127\.0\.0\.1/);
      expect(res.body.headers['x-tollgate-key']).toBeUndefined();
      expect(res.headers['x-request-id']).toBe('req-123');
      expect(res.headers).toMatchObject({ 'x-ratelimit-requests-limit': '1000', 'x-ratelimit-requests-remaining': '999', ratelimit: '"second";r=99;t=1, "month";r=999;t=10' });
    });

    it('when a trusted proxy sends a forwarding chain, then the service gets it with the proxy appended', async () => {
      await gw.close();
      gw = await buildGateway({ upstream: upstream.url, redisUrl: kind === 'redis' ? redisServer.url : undefined, fastPath: served === 'fast-path listener', env: { TRUSTED_PROXIES: 'loopback' } });
      const { key } = await newKey({ token: 'free' });
      expect((await call(key).set({ 'x-forwarded-for': '203.0.113.7', 'x-forwarded-host': 'api.example.test' })).status).toBe(200);
      expect(lastSeen().headers['x-forwarded-for']).toMatch(/^203\.0\.113\.7, (::ffff:)?127\.0\.0\.1$/);
      expect(lastSeen().headers['x-forwarded-host']).toBe('api.example.test');
    });

    it('when an untrusted client sends a forwarding chain, then the service gets only the caller, and the host asked for', async () => {
      const { key } = await newKey({ token: 'free' });
      const res = await call(key).set({ 'x-forwarded-for': '203.0.113.7', 'x-forwarded-host': 'spoofed.example.test', host: 'api.example.test' });
      expect(res.status).toBe(200);
      const seen = lastSeen().headers;
      expect(seen['x-forwarded-for']).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
      expect(seen['x-forwarded-host']).toBe('api.example.test');
      // Only RapidAPI's pair: a protocol or port seen by the gateway says nothing behind a TLS-terminating balancer.
      expect(seen['x-forwarded-proto']).toBeUndefined();
      expect(seen['x-forwarded-port']).toBeUndefined();
      expect(seen['x-tollgate-key']).toBeUndefined();
    });

    it('when a client sends its own x-tollgate-* headers, then the service sees only the gateway’s', async () => {
      const { account_id: id, key } = await newKey({ token: 'free' });
      const res = await call(key).set({ 'x-tollgate-subscription': 'scale', 'x-tollgate-proxy-secret': 'guess', 'x-tollgate-user': 'key_someoneelse', 'x-tollgate-admin': 'yes' });
      expect(res.status).toBe(200);
      const seen = lastSeen().headers;
      expect(seen['x-tollgate-subscription']).toBe('free');
      expect(seen['x-tollgate-proxy-secret']).toBe(PROXY_SECRET);
      expect(seen['x-tollgate-user']).toBe(id);
      expect(seen['x-tollgate-admin']).toBeUndefined();
    });

    it.each(['POST', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'OPTIONS'])('when the method is %s, then 405 with Allow: GET, HEAD, uncharged and not forwarded', async (method) => {
      const { id, key } = await newKey({ token: 'free' });
      const res = await request(gw.app)[method.toLowerCase() as 'post'](`/token/v1/prices`).set('x-tollgate-key', key).send(method === 'TRACE' ? undefined : '{"coins":["eth"]}');
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
      if (method !== 'HEAD') expect(res.body).toMatchObject({ success: false, error: { code: 'METHOD_NOT_ALLOWED' }, message: `${method} is not allowed on /token/v1/prices; the data routes answer GET, HEAD` });
      expect(upstream.seen).toHaveLength(0);
      expect((await usage(id))?.used ?? 0).toBe(0);
    });

    it('when a GET carries a body, then 400 uncharged and not forwarded', async () => {
      const { id, key } = await newKey({ token: 'free' });
      const res = await request(gw.app).get('/token/v1/prices').set('x-tollgate-key', key).set('content-type', 'application/json').send('{"a":1}');
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('the data routes take no request body; send parameters in the query string');
      expect(upstream.seen).toHaveLength(0);
      expect((await usage(id))?.used ?? 0).toBe(0);
    });

    it('when the service answers an error status, then it is passed through and charged', async () => {
      const { id, key } = await newKey({ token: 'free' });
      const res = await call(key, '/token/v1/status/404');
      expect(res.status).toBe(404);
      expect((await usage(id))?.used).toBe(1);
    });

    it('when the path is not under /{api}/v1, then 404 and no charge', async () => {
      const { id, key } = await newKey({ token: 'free' });
      const res = await call(key, '/token/admin');
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('no route for GET /token/admin; token is served under /token/v1/');
      expect((await usage(id))?.used).toBe(0);
    });
  });

  describe('admin API', () => {
    it('when the admin token is missing or wrong, then 401', async () => {
      for (const headers of [{}, { Authorization: 'Bearer wrong' }, { Authorization: ADMIN_TOKEN }]) {
        const res = await request(gw.app).post('/admin/v1/keys').set(headers).send({ owner: 'x' });
        expect(res.status).toBe(401);
        expect(validateResponse(ADMIN_ROUTES.create, res.status, res.body)).toEqual([]);
      }
    });

    it('when a key is created, read, subscribed and its usage read, then each answer is as documented', async () => {
      const { id, key, account_id } = await newKey({ token: 'free' });
      expect(key).toMatch(/^tg_/);
      const read = await request(gw.app).get(`/admin/v1/keys/${id}`).set(auth);
      expect(validateResponse(ADMIN_ROUTES.get, read.status, read.body)).toEqual([]);
      expect(read.body.data).toEqual({ id, account_id, owner: 'ada@example.com', created_at: '2026-03-31T23:59:50.000Z', revoked_at: null, subscriptions: { token: { plan: 'free', status: 'active' } } });
      const sub = await request(gw.app).put(`/admin/v1/keys/${id}/subscriptions/burger`).set(auth).send({ plan: 'free' });
      expect(validateResponse(ADMIN_ROUTES.subscribe, sub.status, sub.body)).toEqual([]);
      expect(sub.body.data.subscriptions.burger).toEqual({ plan: 'free', status: 'active' });
      await call(key, '/burger/v1/index').expect(200);
      expect(await usage(id, 'burger')).toMatchObject({ plan: 'free', status: 'active', used: 1, limit: 100, remaining: 99 });
    });

    it.each([
      ['post', '/admin/v1/keys', {}, 400, 'owner is required and must be a non-empty string of at most 200 characters'],
      ['post', '/admin/v1/keys', { owner: 'a', colour: 'red' }, 400, "unknown parameter 'colour'; allowed parameters: owner, subscriptions"],
      ['post', '/admin/v1/keys', { owner: 'a', subscriptions: { weather: 'free' } }, 400, "subscriptions names unknown API 'weather'; APIs: token, burger"],
      ['post', '/admin/v1/keys', { owner: 'a', subscriptions: { token: 'gold' } }, 400, 'subscriptions.token must be one of free, slow, pro for token'],
      ['put', '/admin/v1/keys/key_000000000000000000000000/subscriptions/token', { plan: 'free' }, 404, 'no API key with id key_000000000000000000000000'],
      ['put', '/admin/v1/keys/key_000000000000000000000000/subscriptions/weather', { plan: 'free' }, 400, "unknown API 'weather'; APIs: token, burger"],
      ['put', '/admin/v1/keys/key_000000000000000000000000/subscriptions/token', { plan: 'free', status: 'paused' }, 400, 'status must be one of active, inactive'],
      ['get', '/admin/v1/keys/key_000000000000000000000000', undefined, 404, 'no API key with id key_000000000000000000000000'],
      ['delete', '/admin/v1/keys/nope', undefined, 404, 'no API key with id nope'],
    ] as const)('when %s %s gets %j, then %d: %s', async (method, path, body, status, message) => {
      const res = await request(gw.app)[method](path).set(auth).send(body);
      expect(res.status).toBe(status);
      expect(res.body.message).toBe(message);
    });
  });

  describe('self-service dashboard', () => {
    // An account whose address is not proven yet (as JSON sign-up made them before issue 25), with one key.
    async function unprovenKey(email: string): Promise<{ key: string; id: string; account_id: string }> {
      const account = await gw.stores.accountStore.createAccount({ email, email_verified: false });
      const { key, record } = (await gw.stores.accountStore.createKey(account.id, { name: 'default' }))!;
      return { key, id: record.id, account_id: account.id };
    }

    it('when a developer with an unproven address subscribes to free and reads usage, then the key works at once', async () => {
      const signup = { body: { data: await unprovenKey('dev@example.com') } };
      const { key, id } = signup.body.data;
      expect((await call(key, '/burger/v1/index')).status).toBe(402);
      const unproven = await request(gw.app).put('/dashboard/v1/subscriptions/burger').set('x-tollgate-key', key).send({ plan: 'free' });
      expect([unproven.status, unproven.body.error.details]).toEqual([403, { reason: 'email_unverified' }]);
      // Proven as the mailed code would (that flow: sign-in.test.ts).
      await gw.stores.accountStore.setEmailVerified(signup.body.data.account_id);
      const sub = await request(gw.app).put('/dashboard/v1/subscriptions/burger').set('x-tollgate-key', key).send({ plan: 'free' });
      expect(sub.status).toBe(200);
      expect(sub.body.data).toEqual({ api: 'burger', plan: 'free', status: 'active', monthly_quota: 100, rate_per_second: 50, price: 0, currency: 'USD' });
      expect((await call(key, '/burger/v1/index')).status).toBe(200);
      const mine = await request(gw.app).get('/dashboard/v1/usage').set('x-tollgate-key', key);
      expect(mine.body.data.id).toBe(id);
      expect(mine.body.data.apis).toEqual(
        expect.arrayContaining([expect.objectContaining({ api: 'burger', plan: 'free', used: 1, remaining: 99, resets_at: '2026-04-01T00:00:00.000Z' })]),
      );
    });

    it('when a paid plan is chosen on a gateway without card payments, then 402 says so in plain words, and nothing changes', async () => {
      const { key, id, account_id: accountId } = await unprovenKey('a@b.io');
      await gw.stores.accountStore.setEmailVerified(accountId);
      const res = await request(gw.app).put('/dashboard/v1/subscriptions/token').set('x-tollgate-key', key).send({ plan: 'pro' });
      expect(res.status).toBe(402);
      expect(res.body.message).toBe("The token API's pro plan costs 25.00 EUR a month, and card payments are not set up here yet. To get it, ask the people who run this service.");
      expect(res.body.error.details).toEqual({ api: 'token', plan: 'pro', price: 2500, currency: 'EUR', payment_method_required: true, card_payments: false });
      expect((await gw.stores.keyStore.get(id))?.subscriptions).toEqual({});
    });

    it.each([
      [{ email: 'not-an-email' }, 400, 'email must be a plain address such as ada@example.com: it must hold exactly one @'],
      [{}, 400, 'email is required and must be an email address'],
    ])('when sign-up gets %j, then %d', async (body, status, message) => {
      const res = await request(gw.app).post('/dashboard/v1/signup').send(body);
      expect(res.status).toBe(status);
      expect(res.body.message).toBe(message);
    });

    it('when one address signs up more than 5 times in an hour, then 429 with Retry-After', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await request(gw.app).post('/dashboard/v1/signup').send({ email: `u${i}@x.io` })).status);
      expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
    });

    it('when the dashboard is called without a valid key, then 401', async () => {
      expect((await request(gw.app).get('/dashboard/v1/usage')).status).toBe(401);
      expect((await request(gw.app).get('/dashboard/v1/usage').set('x-tollgate-key', 'tg_wrong')).status).toBe(401);
    });
  });

  describe('observability', () => {
    it('when calls were made, then /metrics counts them by api, status and decision', async () => {
      const { key } = await newKey({ token: 'free' });
      await call(key);
      await call('tg_wrong');
      expect((await request(gw.app).get('/metrics')).status).toBe(401);
      const res = await request(gw.app).get('/metrics').set(auth);
      expect(res.text).toContain('tollgate_gateway_calls_total{api="token",status="200",decision="admitted"} 1');
      expect(res.text).toContain('tollgate_gateway_calls_total{api="token",status="401",decision="unknown_key"} 1');
      if (kind === 'redis') expect(res.text).toMatch(/tollgate_gateway_store_seconds_count\{operation="admit"\} [1-9]/);
    });

    it('when the store answers, then /readyz is ready and /healthz alive', async () => {
      // The tests' Redis runs with --save '' --appendonly no: /readyz says it persists nothing.
      // Of the background loops only the usage history's runs in these tests' gateways (hourly; the tests flush it, and run the queue and sweeps by hand).
      const background = { usage_history: { every_ms: 3_600_000, failures_in_a_row: 0, last_success_at: null, stale: false } };
      expect((await request(gw.app).get('/readyz')).body.data).toEqual(kind === 'redis' ? { status: 'ready', store: kind, store_persistence: 'none', background } : { status: 'ready', store: kind, background });
      expect((await request(gw.app).get('/healthz')).status).toBe(200);
    });
  });
});

describe('prototype names where an API, a plan or a key id is expected', () => {
  let gw: GatewayFixture;
  afterEach(() => gw.close());

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('when %s is given as an API or plan name, then admin and dashboard answer 4xx in the envelope, never 500', async (name) => {
    gw = await buildGateway({ upstream: upstream.url });
    const created = await request(gw.app).post('/admin/v1/keys').set(auth).send({ owner: 'proto@example.com' });
    const { id, key } = created.body.data as { id: string; key: string };
    const answers = [
      await request(gw.app).put(`/admin/v1/keys/${id}/subscriptions/${name}`).set(auth).send({ plan: 'free' }),
      await request(gw.app).put(`/admin/v1/keys/${id}/subscriptions/token`).set(auth).send({ plan: name }),
      await request(gw.app).post('/admin/v1/keys').set(auth).send({ owner: 'p', subscriptions: { [name]: 'free' } }),
      await request(gw.app).post('/admin/v1/keys').set(auth).set('content-type', 'application/json').send(`{"owner":"p","subscriptions":{"token":"${name}"}}`),
      await request(gw.app).put(`/dashboard/v1/subscriptions/${name}`).set('x-tollgate-key', key).send({ plan: 'free' }),
      await request(gw.app).put('/dashboard/v1/subscriptions/token').set('x-tollgate-key', key).send({ plan: name }),
      await request(gw.app).get(`/admin/v1/keys/${name}`).set(auth),
      await request(gw.app).get(`/${name}/v1/prices`).set('x-tollgate-key', key),
    ];
    for (const res of answers) {
      expect([res.status, res.body.success]).toEqual([expect.any(Number), false]);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    expect((await request(gw.app).get(`/admin/v1/keys/${id}`).set(auth)).body.data.subscriptions).toEqual({});
  });
});

describe('a custom KEY_HEADER', () => {
  let gw: GatewayFixture;
  afterEach(() => gw.close());

  it.each([
    ['x-forwarded-for', false],
    ['x-forwarded-host', true],
    ['host', false],
    ['host', true],
  ])('when KEY_HEADER is %s (fast path: %s), then the key never reaches the service, not even in the forwarding headers', async (keyHeader, fastPath) => {
    gw = await buildGateway({ upstream: upstream.url, fastPath, env: { KEY_HEADER: keyHeader } });
    const { key } = await gw.stores.keyStore.create({ owner: 'a', subscriptions: { token: { plan: 'free', status: 'active' } } });
    upstream.seen.length = 0;
    const res = await request(gw.app).get('/token/v1/prices').set(keyHeader, key);
    expect(res.status).toBe(200);
    const seen = upstream.seen[0]?.headers ?? {};
    expect(JSON.stringify(seen)).not.toContain(key);
    expect(seen['x-forwarded-for']).toMatch(/127\.0\.0\.1$/);
  });
});

describe('service failures', () => {
  let gw: GatewayFixture;
  let deadUrl: string;
  beforeAll(async () => {
    deadUrl = `http://127.0.0.1:${await freePort()}`;
  });
  afterEach(() => gw.close());

  it.each([false, true])('when the service refuses the connection (fast path: %s), then 502 in the envelope and the call is refunded', async (fastPath) => {
    gw = await buildGateway({ upstream: deadUrl, fastPath });
    const { key, record } = await gw.stores.keyStore.create({ owner: 'a', subscriptions: { token: { plan: 'free', status: 'active' } } });
    const res = await request(gw.app).get('/token/v1/prices').set('x-tollgate-key', key);
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ success: false, error: { code: 'UPSTREAM_UNAVAILABLE', details: { reason: 'ECONNREFUSED' } }, message: 'the token service is unreachable; the call was not charged' });
    expect(res.body.meta.request_id).toBe(res.headers['x-request-id']);
    expect(await gw.stores.quotaStore.usage(record.account_id, 'token', gw.clock.now())).toEqual({ month: 0, day: 0 });
    const metrics = await request(gw.app).get('/metrics').set(auth);
    expect(metrics.text).toContain('tollgate_gateway_calls_total{api="token",status="502",decision="refunded"} 1');
  });

  it.each([false, true])('when the service does not answer in time (fast path: %s), then 504 and the call is refunded', async (fastPath) => {
    gw = await buildGateway({ upstream: upstream.url, fastPath, env: { UPSTREAM_TIMEOUT_MS: '150' } });
    const { key, record } = await gw.stores.keyStore.create({ owner: 'a' });
    const res = await request(gw.app).get('/token/v1/silent').set('x-tollgate-key', key);
    expect(res.status).toBe(504);
    expect(res.body).toMatchObject({ error: { code: 'UPSTREAM_TIMEOUT' }, message: 'the token service did not answer in time; the call was not charged' });
    expect(await gw.stores.quotaStore.usage(record.account_id, 'token', gw.clock.now())).toEqual({ month: 0, day: 0 });
  });

  it('when ADMIN_TOKEN is unset, then the admin API does not exist', async () => {
    gw = await buildGateway({ upstream: upstream.url, env: { ADMIN_TOKEN: '' } });
    const res = await request(gw.app).post('/admin/v1/keys').set(auth).send({ owner: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('the admin API is disabled: set ADMIN_TOKEN to enable it');
  });
});
