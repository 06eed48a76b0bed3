import express from 'express';
import fc from 'fast-check';
import request from 'supertest';
import { validateResponse } from '@tollgate/envelope';
import type { RouteDoc } from '@tollgate/envelope';
import { createServiceDocuments } from '../../src/data/service-documents';
import { normaliseEmail } from '../../src/domain/email';
import { keyHints } from '../../src/domain/api-key';
import { ADMIN_ACCOUNT_ROUTES as ROUTES } from '../../src/admin/admin-account-docs';
import { ADMIN_ROUTES } from '../../src/admin/admin-routes';
import { createDocsRoutes } from '../../src/docs/docs-routes';
import { gatewayRouteDocs } from '../../src/gateway-route-docs';
import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';
import { ADMIN_TOKEN, buildGateway } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';
import { startRedisServer } from '../support/redis-server';
import type { RedisServer } from '../support/redis-server';
import { catalogueOf } from '../support/catalogue-of';

jest.setTimeout(60_000);

let upstream: EchoUpstream;
let redisServer: RedisServer;
beforeAll(async () => {
  [upstream, redisServer] = await Promise.all([startEchoUpstream(), startRedisServer()]);
});
afterAll(() => Promise.all([upstream.close(), redisServer.stop()]));

const auth = { Authorization: `Bearer ${ADMIN_TOKEN}` };
// Mid-month and mid-day: no window rolls over unless a test moves the clock there.
const START = Date.parse('2026-03-15T12:00:00.000Z');
const UNKNOWN_ACCOUNT = 'acc_000000000000000000000000';
const UNKNOWN_KEY = 'key_00000000000000000000000000000000';

describe.each(['memory', 'redis'] as const)('the admin account API with the %s store', (kind) => {
  let gw: GatewayFixture;
  beforeEach(async () => {
    gw = await buildGateway({ upstream: upstream.url, redisUrl: kind === 'redis' ? redisServer.url : undefined, start: START });
    upstream.seen.length = 0;
  });
  afterEach(() => gw.close());

  /** Sends a request to a route (path filled in) and checks the answer against its RouteDoc. */
  async function send(route: RouteDoc, path: string, body?: unknown): Promise<request.Response> {
    const req = request(gw.app)[route.method](path).set(auth);
    const res = await (body === undefined ? req : req.send(body as object));
    expect(validateResponse(route, res.status, res.body)).toEqual([]);
    return res;
  }
  async function createAccount(body: object = {}): Promise<{ id: string; email: string | null }> {
    const res = await send(ROUTES.createAccount, '/admin/v1/accounts', body);
    expect(res.status).toBe(201);
    return res.body.data;
  }
  async function createKey(accountId: string, body: object = { name: 'ci' }): Promise<{ id: string; key: string; prefix: string; last4: string }> {
    const res = await send(ROUTES.createKey, `/admin/v1/accounts/${accountId}/keys`, body);
    expect(res.status).toBe(201);
    return res.body.data;
  }
  const call = (key: string, path = '/token/v1/prices') => request(gw.app).get(path).set('x-tollgate-key', key);
  const expectRefused = async (key: string, status: number, message: string) => {
    const res = await call(key);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ success: false, message });
  };

  describe('accounts', () => {
    it('when accounts are created, then each is read back, listed in creation order three pages deep, and found by its email', async () => {
      const created = [];
      for (let i = 0; i < 5; i++) {
        created.push(await createAccount({ email: ` User${i}@Example.COM `, ...(i === 0 ? { name: 'First', subscriptions: { token: 'pro' } } : {}) }));
        gw.clock.advance(1);
      }
      expect(created[0]).toMatchObject({ email: 'user0@example.com', name: 'First', status: 'active', subscriptions: { token: { plan: 'pro', status: 'active' } } });
      expect(created[1]).toMatchObject({ email: 'user1@example.com', name: 'user1@example.com', subscriptions: {} });
      expect((await send(ROUTES.getAccount, `/admin/v1/accounts/${created[2]!.id}`)).body.data).toEqual(created[2]);

      const pages: { items: { id: string }[]; next_cursor: string | null }[] = [];
      let cursor: string | null = null;
      do {
        const res = await send(ROUTES.listAccounts, `/admin/v1/accounts?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        pages.push(res.body.data);
        cursor = res.body.data.next_cursor;
      } while (cursor);
      expect(pages.map((p) => p.items.length)).toEqual([2, 2, 1]);
      expect(pages.flatMap((p) => p.items.map((a) => a.id))).toEqual(created.map((a) => a.id));

      const byEmail = await send(ROUTES.listAccounts, '/admin/v1/accounts?email=USER3%40example.com');
      expect(byEmail.body.data).toEqual({ items: [created[3]], next_cursor: null });
      expect((await send(ROUTES.listAccounts, '/admin/v1/accounts?email=nobody%40example.com')).body.data).toEqual({ items: [], next_cursor: null });
      expect((await send(ROUTES.listAccounts, '/admin/v1/accounts')).body.data.items).toHaveLength(5);
    });

    it('when an email is already held, then 409 CONFLICT naming the account holding it; a bad email or plan is 400', async () => {
      const first = await createAccount({ email: 'ada@example.com' });
      const res = await send(ROUTES.createAccount, '/admin/v1/accounts', { email: 'ADA@example.com' });
      expect(res.status).toBe(409);
      expect(res.body.error).toEqual({ code: 'CONFLICT', details: { parameter: 'email', account_id: first.id } });
      expect(res.body.message).toBe(`the email ada@example.com is already held by the account ${first.id}`);
      for (const [body, message] of [
        [{ email: 'not an address' }, 'email must be an email address'],
        [{ subscriptions: { weather: 'free' } }, "unknown API 'weather'; APIs: token, burger"],
        [{ subscriptions: { token: 'gold' } }, 'subscriptions.token must be one of free, slow, pro for token'],
        [{ owner: 'a' }, "unknown parameter 'owner'; allowed parameters: email, name, subscriptions"],
      ] as const) {
        const bad = await send(ROUTES.createAccount, '/admin/v1/accounts', body);
        expect([bad.status, bad.body.message]).toEqual([400, message]);
      }
    });

    it('when an account subscribes and cancels, then its keys are served on the plan and then refused (no playground on burger)', async () => {
      const account = await createAccount({ email: 'sub@example.com' });
      const { key } = await createKey(account.id);
      expect((await call(key, '/burger/v1/index')).status).toBe(402);
      const subscribed = await send(ROUTES.subscribe, `/admin/v1/accounts/${account.id}/subscriptions/burger`, { plan: 'free' });
      expect(subscribed.body.data.subscriptions).toEqual({ burger: { plan: 'free', status: 'active' } });
      expect((await call(key, '/burger/v1/index')).status).toBe(200);
      expect(upstream.seen.at(-1)?.headers['x-tollgate-subscription']).toBe('free');
      const inactive = await send(ROUTES.subscribe, `/admin/v1/accounts/${account.id}/subscriptions/burger`, { plan: 'free', status: 'inactive' });
      expect(inactive.body.data.subscriptions.burger).toEqual({ plan: 'free', status: 'inactive' });
      expect((await call(key, '/burger/v1/index')).status).toBe(402);
      await send(ROUTES.subscribe, `/admin/v1/accounts/${account.id}/subscriptions/burger`, { plan: 'free' });
      const cancelled = await send(ROUTES.cancel, `/admin/v1/accounts/${account.id}/subscriptions/burger`);
      expect(cancelled.body.data.subscriptions).toEqual({});
      expect((await call(key, '/burger/v1/index')).status).toBe(402);

      expect((await send(ROUTES.subscribe, `/admin/v1/accounts/${account.id}/subscriptions/weather`, { plan: 'free' })).status).toBe(400);
      expect((await send(ROUTES.subscribe, `/admin/v1/accounts/${account.id}/subscriptions/token`, { plan: 'gold' })).body.message).toBe('plan must be one of free, slow, pro for token');
      expect((await send(ROUTES.subscribe, `/admin/v1/accounts/${UNKNOWN_ACCOUNT}/subscriptions/token`, { plan: 'free' })).status).toBe(404);
      expect((await send(ROUTES.cancel, `/admin/v1/accounts/${account.id}/subscriptions/weather`)).status).toBe(400);
    });

    it('when an account is suspended, then every key of it gets 403; reactivated, they are served again', async () => {
      const account = await createAccount({ subscriptions: { token: 'pro' } });
      const [a, b] = [await createKey(account.id), await createKey(account.id, { name: 'second' })];
      expect((await call(a.key)).status).toBe(200);
      const suspended = await send(ROUTES.suspend, `/admin/v1/accounts/${account.id}/suspend`);
      expect(suspended.body.data.status).toBe('suspended');
      await expectRefused(a.key, 403, 'Your account is suspended, so its keys and sign-ins are refused. Write to the people who run this service to have it reopened.');
      await expectRefused(b.key, 403, 'Your account is suspended, so its keys and sign-ins are refused. Write to the people who run this service to have it reopened.');
      expect((await send(ROUTES.reactivate, `/admin/v1/accounts/${account.id}/reactivate`)).body.data.status).toBe('active');
      expect((await call(a.key)).status).toBe(200);
      expect((await call(b.key)).status).toBe(200);
      expect((await send(ROUTES.suspend, `/admin/v1/accounts/${UNKNOWN_ACCOUNT}/suspend`)).status).toBe(404);
    });
  });

  describe('keys', () => {
    it('when keys are created and listed, then each secret is shown once, works, and is listed in pages without it', async () => {
      const account = await createAccount({ subscriptions: { token: 'pro' } });
      const keys = [await createKey(account.id, { name: 'one' })];
      gw.clock.advance(1);
      keys.push(await createKey(account.id, { name: 'two' }));
      expect(keys[0]).toMatchObject({ account_id: account.id, name: 'one', expires_at: null, revoked_at: null, prefix: keyHints(keys[0]!.key).prefix, last4: keys[0]!.key.slice(-4) });
      for (const k of keys) expect((await call(k.key)).status).toBe(200);
      const first = await send(ROUTES.listKeys, `/admin/v1/accounts/${account.id}/keys?limit=1`);
      expect(first.body.data.items.map((k: { id: string }) => k.id)).toEqual([keys[0]!.id]);
      const second = await send(ROUTES.listKeys, `/admin/v1/accounts/${account.id}/keys?limit=1&cursor=${encodeURIComponent(first.body.data.next_cursor)}`);
      expect(second.body.data).toMatchObject({ items: [{ id: keys[1]!.id, name: 'two' }], next_cursor: null });
      expect(JSON.stringify(second.body)).not.toContain(keys[1]!.key);
      expect((await send(ROUTES.listKeys, `/admin/v1/accounts/${UNKNOWN_ACCOUNT}/keys`)).status).toBe(404);
      expect((await send(ROUTES.createKey, `/admin/v1/accounts/${UNKNOWN_ACCOUNT}/keys`, { name: 'x' })).status).toBe(404);
    });

    it('when a key is rolled with a grace period, then both secrets work until it ends, then the old one gets the distinct 401', async () => {
      const account = await createAccount({ subscriptions: { token: 'pro' } });
      const old = await createKey(account.id);
      const rolled = await send(ROUTES.rollKey, `/admin/v1/keys/${old.id}/roll`, { grace_seconds: 60 });
      expect(rolled.status).toBe(200);
      const now = gw.clock.now();
      expect(rolled.body.data).toMatchObject({ id: old.id, rolled_at: new Date(now).toISOString(), grace_until: new Date(now + 60_000).toISOString(), last4: rolled.body.data.key.slice(-4) });
      expect(rolled.body.data.key).not.toBe(old.key);
      gw.clock.advance(59_999);
      expect((await call(old.key)).status).toBe(200);
      expect((await call(rolled.body.data.key)).status).toBe(200);
      gw.clock.advance(1);
      await expectRefused(old.key, 401, 'this secret was replaced when its key was rolled, and its grace period is over; use the new secret');
      expect((await call(rolled.body.data.key)).status).toBe(200);
    });

    it('when a key is rolled without grace (0) or with the default, then the old secret is refused as rolled at once, or works a day more', async () => {
      const account = await createAccount({ subscriptions: { token: 'pro' } });
      const k = await createKey(account.id);
      const rolled = await send(ROUTES.rollKey, `/admin/v1/keys/${k.id}/roll`, { grace_seconds: 0 });
      expect(rolled.body.data.grace_until).toBeNull();
      // Without grace the old secret ends at once, and is still told apart from an unknown one.
      await expectRefused(k.key, 401, 'this secret was replaced when its key was rolled, and its grace period is over; use the new secret');
      const again = await send(ROUTES.rollKey, `/admin/v1/keys/${k.id}/roll`);
      expect(again.body.data.grace_until).toBe(new Date(gw.clock.now() + 86_400_000).toISOString());
      expect((await call(rolled.body.data.key)).status).toBe(200);
    });

    it('when a key expires, then calls after expires_at get the expired 401; a past or malformed expiry is 400', async () => {
      const account = await createAccount({ subscriptions: { token: 'pro' } });
      const expiresAt = new Date(START + 3_600_000).toISOString();
      const k = await createKey(account.id, { name: 'temporary', expires_at: expiresAt });
      expect(k).toMatchObject({ expires_at: expiresAt });
      gw.clock.advance(3_599_999);
      expect((await call(k.key)).status).toBe(200);
      gw.clock.advance(1);
      await expectRefused(k.key, 401, 'this API key has expired; create a new one');
      for (const expires_at of [new Date(gw.clock.now()).toISOString(), '2026-02-30T00:00:00Z', 'tomorrow', '2027-01-01', '2027-01-01T00:00:00']) {
        const res = await send(ROUTES.createKey, `/admin/v1/accounts/${account.id}/keys`, { name: 'x', expires_at });
        expect([res.status, res.body.error]).toEqual([400, { code: 'BAD_REQUEST', details: { parameter: 'expires_at' } }]);
      }
    });

    it('when a key is revoked, then it gets 401, the account’s other keys still work, and it cannot be rolled (409)', async () => {
      const account = await createAccount({ subscriptions: { token: 'pro' } });
      const [a, b] = [await createKey(account.id), await createKey(account.id, { name: 'other' })];
      const revoked = await send(ADMIN_ROUTES.revoke, `/admin/v1/keys/${a.id}`);
      expect(revoked.body.data).toMatchObject({ id: a.id, account_id: account.id, revoked_at: new Date(START).toISOString() });
      await expectRefused(a.key, 401, 'this API key has been revoked');
      expect((await call(b.key)).status).toBe(200);
      const roll = await send(ROUTES.rollKey, `/admin/v1/keys/${a.id}/roll`, {});
      expect(roll.status).toBe(409);
      expect(roll.body.error).toEqual({ code: 'CONFLICT', details: { key_id: a.id } });
      expect((await send(ROUTES.rollKey, `/admin/v1/keys/${UNKNOWN_KEY}/roll`)).status).toBe(404);
    });
  });

  describe('usage and history', () => {
    it('when two keys of one account call, then the account’s usage (and each key’s, on the old route) counts both', async () => {
      const account = await createAccount({ subscriptions: { token: 'pro' } });
      const [a, b] = [await createKey(account.id), await createKey(account.id, { name: 'b' })];
      for (const key of [a.key, a.key, b.key, b.key, b.key]) expect((await call(key)).status).toBe(200);
      const usage = await send(ROUTES.usage, `/admin/v1/accounts/${account.id}/usage`);
      expect(usage.body.data.account_id).toBe(account.id);
      expect(usage.body.data.apis.find((u: { api: string }) => u.api === 'token')).toMatchObject({ plan: 'pro', used: 5, limit: 1000, window: 'month' });
      const legacy = await send(ADMIN_ROUTES.usage, `/admin/v1/keys/${b.id}/usage`);
      expect(legacy.body.data.apis.find((u: { api: string }) => u.api === 'token')).toMatchObject({ used: 5 });
      expect((await send(ROUTES.usage, `/admin/v1/accounts/${UNKNOWN_ACCOUNT}/usage`)).status).toBe(404);
    });

    it('when calls were answered on two days, then the history counts them per day, API and outcome (2xx, 429, 4xx)', async () => {
      const account = await createAccount({ subscriptions: { token: 'slow' } });
      const { key } = await createKey(account.id);
      gw.clock.set(START - 86_400_000);
      expect((await call(key)).status).toBe(200);
      gw.clock.set(START);
      expect([(await call(key)).status, (await call(key)).status, (await call(key)).status]).toEqual([200, 200, 429]);
      gw.clock.advance(1_000);
      expect((await call(key, '/token/v1/status/404')).status).toBe(404);
      expect((await call(key, '/burger/v1/index')).status).toBe(402);
      await gw.recorder.flush();
      const res = await send(ROUTES.history, `/admin/v1/accounts/${account.id}/history?from=2026-03-14&to=2026-03-15`);
      const zero = { '2xx': 0, '4xx': 0, '429': 0, '5xx': 0, refunded: 0 };
      expect(res.body.data).toEqual({
        account_id: account.id,
        from: '2026-03-14',
        to: '2026-03-15',
        days: [
          { day: '2026-03-14', api: 'token', counts: { ...zero, '2xx': 1 } },
          { day: '2026-03-14', api: 'burger', counts: zero },
          { day: '2026-03-15', api: 'token', counts: { ...zero, '2xx': 2, '429': 1, '4xx': 1 } },
          { day: '2026-03-15', api: 'burger', counts: { ...zero, '4xx': 1 } },
        ],
      });
      const defaults = await send(ROUTES.history, `/admin/v1/accounts/${account.id}/history`);
      expect(defaults.body.data).toMatchObject({ from: '2026-02-14', to: '2026-03-15' });
      expect(defaults.body.data.days).toHaveLength(30 * 2);
      expect(defaults.body.data.days.at(-2)).toEqual({ day: '2026-03-15', api: 'token', counts: { ...zero, '2xx': 2, '429': 1, '4xx': 1 } });
      expect((await send(ROUTES.history, `/admin/v1/accounts/${account.id}/history?from=2025-12-15`)).body.data.days).toHaveLength(91 * 2);
    });

    it.each([
      ['from after to', 'from=2026-03-10&to=2026-03-09', 'from', 'from must not be after to (2026-03-09)'],
      ['from too far back', 'from=2025-12-14', 'from', 'from must be within the 90 days of history kept: 2025-12-15 to today, 2026-03-15 (UTC)'],
      ['to in the future', 'to=2026-03-16', 'to', 'to must be within the 90 days of history kept: 2025-12-15 to today, 2026-03-15 (UTC)'],
      ['no such day', 'from=2026-02-30', 'from', 'from must be a UTC day, YYYY-MM-DD'],
      ['not a day', 'to=yesterday', 'to', 'to must be a UTC day, YYYY-MM-DD'],
      ['repeated', 'to=2026-03-01&to=2026-03-02', 'to', 'to must be given only once'],
      ['unknown', 'day=2026-03-01', 'day', "unknown parameter 'day'; allowed parameters: from, to"],
    ])('when the history range is %s, then 400 naming %s', async (_case, query, parameter, message) => {
      const account = await createAccount();
      const res = await send(ROUTES.history, `/admin/v1/accounts/${account.id}/history?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message, error: { code: 'BAD_REQUEST', details: { parameter } } });
    });
  });

  describe('bad input', () => {
    it.each([
      ['getAccount', '/admin/v1/accounts/nope', 404],
      ['getAccount', `/admin/v1/accounts/${UNKNOWN_ACCOUNT}`, 404],
      ['getAccount', `/admin/v1/accounts/${UNKNOWN_ACCOUNT.toUpperCase()}`, 404],
      ['usage', '/admin/v1/accounts/acc_%7Bx%7D/usage', 404],
      ['history', '/admin/v1/accounts/x/history?from=2026-03-01', 404],
      ['listKeys', '/admin/v1/accounts/key_000000000000000000000000/keys', 404],
      ['rollKey', '/admin/v1/keys/acc_000000000000000000000000/roll', 404],
      ['cancel', `/admin/v1/accounts/${UNKNOWN_ACCOUNT}/subscriptions/token`, 404],
      ['listAccounts', '/admin/v1/accounts?limit=0', 400],
      ['listAccounts', '/admin/v1/accounts?limit=101', 400],
      ['listAccounts', '/admin/v1/accounts?limit=abc', 400],
      ['listAccounts', '/admin/v1/accounts?email=nope', 400],
      ['listKeys', `/admin/v1/accounts/${UNKNOWN_ACCOUNT}/keys?limit=2.5`, 400],
    ] as const)('when the %s route is asked for %s, then %d in the envelope', async (name, path, status) => {
      const route: RouteDoc = ROUTES[name];
      const res = await send(route, path, route.method === 'post' ? {} : undefined);
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ success: false, data: null });
    });

    it('when a body is malformed or out of range, then 400 saying so; without the admin token, 401', async () => {
      const account = await createAccount();
      const k = await createKey(account.id);
      const badJson = await request(gw.app).post('/admin/v1/accounts').set(auth).set('content-type', 'application/json').send('{"email":');
      expect([badJson.status, badJson.body.message]).toEqual([400, 'request body is not valid JSON']);
      expect(validateResponse(ROUTES.createAccount, badJson.status, badJson.body)).toEqual([]);
      for (const [body, message] of [
        [{ grace_seconds: 604_801 }, 'grace_seconds must be an integer from 0 to 604800'],
        [{ grace_seconds: -1 }, 'grace_seconds must be an integer from 0 to 604800'],
        [[1], 'the request body must be a JSON object'],
      ] as const) {
        const res = await send(ROUTES.rollKey, `/admin/v1/keys/${k.id}/roll`, body);
        expect([res.status, res.body.message]).toEqual([400, message]);
      }
      expect((await send(ROUTES.createKey, `/admin/v1/accounts/${account.id}/keys`, {})).body.message).toMatch(/^name is required/);
      const anonymous = await request(gw.app).post('/admin/v1/accounts').send({});
      expect(anonymous.status).toBe(401);
      expect(validateResponse(ROUTES.createAccount, anonymous.status, anonymous.body)).toEqual([]);
    });

    it('when list queries are generated, then the answer is a page or a 400, as documented, never a 5xx', async () => {
      await createAccount({ email: 'a@example.com' });
      const value = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 30 }), fc.integer({ min: -5, max: 200 }).map(String), fc.constantFrom('', '1e1', 'Infinity', '20', 'a@example.com', '0000000000000:acc_0'));
      const query = fc.dictionary(fc.oneof(fc.constantFrom('limit', 'cursor', 'email'), fc.string({ maxLength: 8 })), value, { maxKeys: 4 });
      await fc.assert(
        fc.asyncProperty(query, fc.boolean(), async (params, ofKeys) => {
          const qs = Object.entries(params).map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`).join('&');
          const route = ofKeys && !('email' in params) ? ROUTES.listKeys : ROUTES.listAccounts;
          const path = route === ROUTES.listKeys ? `/admin/v1/accounts/${UNKNOWN_ACCOUNT}/keys` : '/admin/v1/accounts';
          const res = await request(gw.app).get(`${path}?${qs}`).set(auth);
          expect(res.status).toBeLessThan(500);
          expect(validateResponse(route, res.status, res.body)).toEqual([]);
        }),
        { numRuns: 150 },
      );
    });

    it('when account bodies are generated, then 201, 400 or 409 as documented, never a 5xx, and any email stored lower-cased', async () => {
      const text = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.emailAddress(), fc.constantFrom('', ' A@B.CO ', 'x'.repeat(300)));
      const subscriptions = fc.oneof(fc.dictionary(fc.constantFrom('token', 'burger', 'weather', '__proto__', 'constructor', ''), fc.oneof(fc.constantFrom('free', 'pro', 'gold', ''), fc.jsonValue())), fc.jsonValue());
      const body = fc.oneof(fc.record({ email: fc.oneof(text, fc.jsonValue()), name: fc.oneof(text, fc.jsonValue()), subscriptions }, { requiredKeys: [] }), fc.jsonValue());
      await fc.assert(
        fc.asyncProperty(body, async (input) => {
          const res = await request(gw.app).post('/admin/v1/accounts').set(auth).set('content-type', 'application/json').send(JSON.stringify(input));
          expect(res.status).toBeLessThan(500);
          expect(validateResponse(ROUTES.createAccount, res.status, res.body)).toEqual([]);
          const sent = (input as { email?: unknown } | null)?.email;
          if (res.status === 201 && typeof sent === 'string') expect(res.body.data.email).toBe(normaliseEmail(sent));
        }),
        { numRuns: 150 },
      );
    });
  });
});

describe('the admin API in the operators’ reference', () => {
  it('when /admin/docs/openapi.json is asked for by a signed-in operator, then every admin route is there under the admin tag, beside the key routes of the same path; the customers’ /docs has none', async () => {
    const gw = await buildGateway({ upstream: upstream.url, start: START });
    try {
      const agent = request.agent(gw.app);
      await agent.get('/admin/docs/openapi.json').expect(401);
      await agent.post('/admin/console/v1/sign-in/token').send({ token: ADMIN_TOKEN }).expect(200);
      const { paths, components } = (await agent.get('/admin/docs/openapi.json').expect(200)).body;
      for (const route of [...Object.values(ROUTES), ...Object.values(ADMIN_ROUTES)]) {
        expect(paths[route.path]?.[route.method]).toMatchObject({ summary: route.summary, tags: ['admin'], security: [{ adminToken: [] }] });
      }
      expect(components.securitySchemes.adminToken).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(Object.keys(paths['/admin/v1/accounts'])).toEqual(['post', 'get']);
      expect(Object.keys(paths['/admin/v1/keys/{id}'])).toEqual(['get', 'delete']);
      expect(paths['/admin/v1/accounts'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['limit', 'cursor', 'email', 'order']);
      const app = express().use(createDocsRoutes({ documents: createServiceDocuments({ catalogue: catalogueOf({}), clock: () => START }), keyHeader: 'x-tollgate-key', gatewayRoutes: gatewayRouteDocs() }));
      const customers = (await request(app).get('/docs/openapi.json').expect(200)).body;
      expect(Object.keys(customers.paths).filter((path) => path.startsWith('/admin'))).toEqual([]);
    } finally {
      await gw.close();
    }
  });
});
