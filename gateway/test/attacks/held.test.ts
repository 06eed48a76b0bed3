import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { generateApiKey, keyChecksum } from '../../src/domain/api-key';
import { ADMIN_TOKEN } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';
import { rawSocketCall } from '../support/raw-http';
import { STORE_KINDS, from, lastCode, operatorKey, sessionCookieSet, signIn, useAttackWorld } from './attack-target';

// The attacks of issue 20 that held when it was filed, kept here so a regression fails CI.

jest.setTimeout(120_000);

const world = useAttackWorld();

describe.each(STORE_KINDS)('attacks that held, with the %s store', (kind) => {
  let gw: GatewayFixture;
  let n = 0;
  let email: (who: string) => string;
  beforeEach(async () => {
    gw = await world.gateway(kind);
    const run = ++n;
    email = (who) => `${who}${run}-${kind}@example.com`;
  });
  const withSession = (s: { cookie: string; csrf?: string }): Record<string, string> => ({ cookie: `tg_session=${s.cookie}`, ...(s.csrf === undefined ? {} : { 'x-csrf-token': s.csrf }) });
  const newKey = async (s: { cookie: string; csrf: string }, name: string) => (await request(gw.app).post('/dashboard/v1/keys').set(withSession(s)).send({ name }).expect(201)).body.data as { id: string; key: string };

  it('cross-account ids: a session, or a key, acting on another account’s key ids and cursors finds nothing of it, and changes nothing', async () => {
    const alice = await signIn(gw, world.inbox, email('alice'));
    const bob = await signIn(gw, world.inbox, email('bob'), '10.0.0.2');
    const aliceKey = await newKey(alice, 'alice’s');
    const bobKey = await newKey(bob, 'bob’s');
    const asBob = [
      await request(gw.app).post(`/dashboard/v1/keys/${aliceKey.id}/roll`).set(withSession(bob)).send({}),
      await request(gw.app).post(`/dashboard/v1/keys/${aliceKey.id}/end-grace`).set(withSession(bob)),
      await request(gw.app).delete(`/dashboard/v1/keys/${aliceKey.id}`).set(withSession(bob)),
      await request(gw.app).delete(`/dashboard/v1/keys/${aliceKey.id}`).set('x-tollgate-key', bobKey.key),
    ];
    expect(asBob.map((r) => [r.status, r.body.message])).toEqual(Array(4).fill([404, 'no API key with this id in your account']));
    // A cursor naming Alice's key pages through Bob's own keys only.
    const cursor = `${String(gw.clock.now()).padStart(13, '0')}:${aliceKey.id}`;
    const page = await request(gw.app).get(`/dashboard/v1/keys?cursor=${encodeURIComponent(cursor)}`).set(withSession(bob));
    expect((page.body.data?.items ?? []).map((k: { id: string }) => k.id)).not.toContain(aliceKey.id);
    const aliceKeys = await request(gw.app).get('/dashboard/v1/keys').set(withSession(alice));
    expect(aliceKeys.body.data.items).toEqual([expect.objectContaining({ id: aliceKey.id, revoked_at: null, rolled_at: null })]);
  });

  it('CSRF: a change made with the cookie is refused without the session’s own token, however else it is sent', async () => {
    const alice = await signIn(gw, world.inbox, email('alice'));
    const bob = await signIn(gw, world.inbox, email('bob'), '10.0.0.2');
    const cookie = { cookie: `tg_session=${alice.cookie}` };
    const attempts = [
      request(gw.app).post('/dashboard/v1/keys').set(cookie).send({ name: 'no token' }),
      request(gw.app).post('/dashboard/v1/keys').set(cookie).set('x-csrf-token', bob.csrf).send({ name: 'another session’s token' }),
      request(gw.app).post('/dashboard/v1/keys').set(cookie).set('x-csrf-token', alice.csrf.toUpperCase()).send({ name: 'another case' }),
      request(gw.app).post('/dashboard/v1/keys').set(cookie).set('x-csrf-token', `${alice.csrf},${alice.csrf}`).send({ name: 'repeated' }),
      request(gw.app).post(`/dashboard/v1/keys?csrf_token=${alice.csrf}`).set(cookie).send({ name: 'in the query' }),
      request(gw.app).post('/dashboard/v1/keys').set(cookie).send({ name: 'in the body', csrf_token: alice.csrf }),
      request(gw.app).post('/dashboard/v1/keys').set(cookie).set('content-type', 'text/plain').send('{"name":"a cross-site form"}'),
      request(gw.app).post('/dashboard/v1/keys').set(cookie).set('content-type', 'application/x-www-form-urlencoded').send('name=form'),
      request(gw.app).put('/dashboard/v1/subscriptions/token').set(cookie).send({ plan: 'free' }),
      request(gw.app).delete('/dashboard/v1/session').set(cookie),
    ];
    for (const res of await Promise.all(attempts)) expect([res.status, res.body.error?.details?.reason]).toEqual([403, 'csrf']);
    expect((await request(gw.app).get('/dashboard/v1/keys').set(cookie)).body.data.items).toEqual([]);
    expect((await request(gw.app).get('/dashboard/v1/session').set(cookie)).status).toBe(200);
  });

  it('fixation: a cookie planted before sign-in is never the session, and a planted live session ends when its browser signs in', async () => {
    const planted = 'A'.repeat(43);
    const address = email('victim');
    await request(gw.app).post('/dashboard/v1/sign-in').set(from('10.0.0.1')).send({ email: address }).expect(202);
    const signedIn = await request(gw.app).post('/dashboard/v1/sign-in/verify').set(from('10.0.0.1')).set('cookie', `tg_session=${planted}`).send({ email: address, code: lastCode(world.inbox, address).code });
    expect(sessionCookieSet(signedIn)!.value).not.toBe(planted);
    expect((await request(gw.app).get('/dashboard/v1/session').set('cookie', `tg_session=${planted}`)).status).toBe(401);
    // The attacker's own session, planted in the victim's browser, is ended by the victim's sign-in.
    const attacker = await signIn(gw, world.inbox, email('attacker'), '203.0.113.9');
    const victim = email('victim2');
    await request(gw.app).post('/dashboard/v1/sign-in').set(from('10.0.0.1')).send({ email: victim }).expect(202);
    const second = await request(gw.app).post('/dashboard/v1/sign-in/verify').set(from('10.0.0.1')).set('cookie', `tg_session=${attacker.cookie}`).send({ email: victim, code: lastCode(world.inbox, victim).code });
    expect(second.body.data.account.email).toBe(victim);
    expect(sessionCookieSet(second)!.value).not.toBe(attacker.cookie);
    expect((await request(gw.app).get('/dashboard/v1/session').set('cookie', `tg_session=${attacker.cookie}`)).body.error.details).toEqual({ reason: 'no_session' });
  });

  it('code reuse and expiry: a code and a link work once, for 15 minutes, for their own address and purpose only', async () => {
    const address = email('ada');
    const ask = () => request(gw.app).post('/dashboard/v1/sign-in').set(from('10.0.0.1')).send({ email: address }).expect(202);
    const type = (code: string, who = address) => request(gw.app).post('/dashboard/v1/sign-in/verify').set(from('10.0.0.1')).send({ email: who, code });
    const follow = (token: string | undefined, who = address) => request(gw.app).post('/dashboard/v1/sign-in/link').send({ email: who, token });
    await ask();
    const first = lastCode(world.inbox, address);
    expect((await type(first.code, email('other'))).status).toBe(401);
    expect((await type(first.code)).status).toBe(200);
    expect((await type(first.code)).body.error.details).toEqual({ reason: 'code_expired' });
    expect((await follow(first.token)).status).toBe(401);
    await ask();
    const late = lastCode(world.inbox, address);
    gw.clock.advance(15 * 60_000);
    expect((await type(late.code)).body.error.details).toEqual({ reason: 'code_expired' });
    expect((await follow(late.token)).body.message).toMatch(/link has expired/);
    // A sign-in code does not prove an unproven account's address through verify-email, which has codes of its own.
    const unproven = await gw.stores.accountStore.createAccount({ email: email('json'), email_verified: false });
    const made = (await gw.stores.accountStore.createKey(unproven.id, { name: 'default' }))!;
    await request(gw.app).post('/dashboard/v1/sign-in').set(from('10.0.0.1')).send({ email: email('json') }).expect(202);
    const confirm = await request(gw.app).post('/dashboard/v1/account/verify-email/confirm').set('x-tollgate-key', made.key).send({ code: lastCode(world.inbox, email('json')).code });
    expect([confirm.status, confirm.body.error.details.reason]).toEqual([401, 'code_expired']);
    // Nor does a JSON sign-up code: it is a sign-in code, good once, for /signup/verify or /sign-in/verify.
    await request(gw.app).post('/dashboard/v1/signup').set(from('10.0.0.1')).send({ email: email('json') }).expect(202);
    const signupCode = lastCode(world.inbox, email('json')).code;
    expect((await request(gw.app).post('/dashboard/v1/account/verify-email/confirm').set('x-tollgate-key', made.key).send({ code: signupCode })).status).toBe(401);
  });

  it('forged keys: a key with a right checksum for an account that exists, or none, opens nothing on the APIs or the dashboard', async () => {
    const { key, accountId } = await operatorKey(gw, email('owner'));
    const forged = [
      generateApiKey(accountId),
      generateApiKey('acc_000000000000000000000000'),
      // The owner's key with its random part changed and its checksum made right again.
      (() => {
        const body = `${key.slice(0, 40)}${key[40] === 'A' ? 'B' : 'A'}${key.slice(41, -6)}`;
        return body + keyChecksum(body);
      })(),
      `tg_${'x'.repeat(43)}`,
    ];
    for (const presented of forged) {
      const api = await request(gw.app).get('/token/v1/prices').set('x-tollgate-key', presented);
      const dash = await request(gw.app).get('/dashboard/v1/account').set('x-tollgate-key', presented);
      expect([api.status, api.body.message, dash.status, dash.body.error.details]).toEqual([401, 'unknown API key', 401, { reason: 'unknown' }]);
    }
    expect(world.upstream.seen.filter((s) => forged.includes(String(s.headers['x-tollgate-key'])))).toEqual([]);
  });

  it('method overrides: an override header or parameter is never obeyed', async () => {
    const alice = await signIn(gw, world.inbox, email('alice'));
    const made = await newKey(alice, 'kept');
    const override = { 'x-http-method-override': 'DELETE', 'x-http-method': 'DELETE', 'x-method-override': 'DELETE' };
    expect((await request(gw.app).get('/dashboard/v1/session').set(withSession(alice)).set(override)).status).toBe(200);
    expect((await request(gw.app).get(`/dashboard/v1/keys/${made.id}?_method=DELETE`).set(withSession(alice)).set(override)).status).toBe(404);
    expect((await request(gw.app).post(`/dashboard/v1/keys/${made.id}/end-grace?_method=DELETE`).set(withSession(alice)).set(override)).body.data.revoked_at).toBeNull();
    expect((await request(gw.app).post(`/admin/v1/keys/${made.id}/end-grace?_method=DELETE`).set('authorization', `Bearer ${ADMIN_TOKEN}`).set(override)).body.data.revoked_at).toBeNull();
    expect((await request(gw.app).get('/token/v1/prices').set('x-tollgate-key', made.key).set(override)).status).not.toBe(405);
    expect((await request(gw.app).get('/dashboard/v1/session').set(withSession(alice))).status).toBe(200);
    const keys = await request(gw.app).get('/dashboard/v1/keys').set(withSession(alice));
    expect(keys.body.data.items).toEqual([expect.objectContaining({ id: made.id, revoked_at: null })]);
  });

  describe('header smuggling on the dashboard and admin routes', () => {
    let server: Server;
    let url: string;
    beforeEach(async () => {
      server = createServer(gw.app as Parameters<typeof createServer>[1]);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const body = JSON.stringify({ email: 'smuggled@example.com' });
    it.each<[string, string[]]>([
      ['Content-Length with Transfer-Encoding', ['Transfer-Encoding: chunked', `Content-Length: ${body.length}`]],
      ['two Content-Lengths that differ', [`Content-Length: ${body.length}`, 'Content-Length: 3']],
      ['a Transfer-Encoding that is not chunked last', ['Transfer-Encoding: chunked, identity']],
      ['an obsolete folded header', ['X-Folded: a', ' b', `Content-Length: ${body.length}`]],
      ['a header name with a space', ['Content-Length : 3']],
    ])('when a request carries %s, then 400, with no code mailed and nothing smuggled behind it answered', async (_what, headers) => {
      const mails = world.inbox.messages.length;
      const smuggled = `GET /admin/v1/accounts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n\r\n`;
      const res = await rawSocketCall(url, ['POST /dashboard/v1/sign-in HTTP/1.1', 'Host: gateway', 'Content-Type: application/json', ...headers, '', `${body}${smuggled}`]);
      expect(res.status).toBe(400);
      expect(res.body).not.toMatch(/Accounts listed/);
      expect(world.inbox.messages.length).toBe(mails);
    });

    it('when credentials or tokens come twice, then the answer is unambiguous: the first Authorization alone counts, a doubled key or CSRF header is refused', async () => {
      const first = await rawSocketCall(url, ['GET /admin/v1/accounts?limit=1 HTTP/1.1', 'Host: gateway', 'Authorization: Bearer wrong-token-wrong-token', `Authorization: Bearer ${ADMIN_TOKEN}`, 'Connection: close']);
      expect(first.status).toBe(401);
      const right = await rawSocketCall(url, ['GET /admin/v1/accounts?limit=1 HTTP/1.1', 'Host: gateway', `Authorization: Bearer ${ADMIN_TOKEN}`, 'Authorization: Bearer wrong-token-wrong-token', 'Connection: close']);
      expect(right.status).toBe(200);
      const { key } = await operatorKey(gw, email('twice'));
      const keys = await rawSocketCall(url, ['GET /dashboard/v1/account HTTP/1.1', 'Host: gateway', 'X-Tollgate-Key: tg_nope', `X-Tollgate-Key: ${key}`, 'Connection: close']);
      expect(keys.status).toBe(401);
      const alice = await signIn(gw, world.inbox, email('alice'));
      const csrf = await rawSocketCall(url, ['POST /dashboard/v1/keys HTTP/1.1', 'Host: gateway', `Cookie: tg_session=${alice.cookie}`, 'X-CSRF-Token: nope', `X-CSRF-Token: ${alice.csrf}`, 'Content-Type: application/json', 'Content-Length: 12', 'Connection: close', '', '{"name":"x"}']);
      expect(csrf.status).toBe(403);
    });
  });
});
