import request from 'supertest';
import type { Response } from 'supertest';
import { validateResponse } from '@tollgate/envelope';
import { dashboardRouteOf } from '../support/dashboard-route';
import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';
import { TEST_PLANS, buildGateway } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';
import { startRedisServer } from '../support/redis-server';
import type { RedisServer } from '../support/redis-server';
import { signInCode, startSmtpInbox } from '../support/smtp-inbox';
import type { SmtpInbox } from '../support/smtp-inbox';

jest.setTimeout(60_000);

const HEADER = 'x-tollgate-key';
const START = Date.parse('2026-03-10T12:00:00.000Z');

let upstream: EchoUpstream;
let redisServer: RedisServer;
let inbox: SmtpInbox;
beforeAll(async () => {
  [upstream, redisServer, inbox] = await Promise.all([startEchoUpstream(), startRedisServer(), startSmtpInbox()]);
});
afterAll(async () => {
  await Promise.all([upstream.close(), redisServer.stop(), inbox.close()]);
});

/** The last code mailed to an address, and the link it came with. */
function lastMail(email: string): { code: string; link: string; subject: string; text: string } {
  const mail = inbox.to(email).at(-1);
  if (!mail) throw new Error(`no mail reached ${email}`);
  const { code, link } = signInCode(mail);
  if (!link) throw new Error(`no link in: ${mail.text}`);
  return { code, link, subject: mail.subject, text: mail.text };
}

/** The session cookie's attributes from a Set-Cookie answer. */
function sessionCookie(res: Response): { value: string; attributes: string[] } {
  const header = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('tg_session='));
  if (!header) throw new Error('no tg_session cookie set');
  const [pair, ...attributes] = header.split(';').map((p) => p.trim());
  return { value: pair!.slice('tg_session='.length), attributes };
}

type Method = 'get' | 'post' | 'put' | 'delete';

describe.each(['memory', 'redis'] as const)('portal sign-in and sessions with the %s store', (kind) => {
  let gw: GatewayFixture;
  let email: string;
  let n = 0;
  async function build(env: Record<string, string> = {}): Promise<void> {
    await gw?.close();
    gw = await buildGateway({ upstream: upstream.url, redisUrl: kind === 'redis' ? redisServer.url : undefined, start: START, env: { SMTP_URL: inbox.url, MAIL_FROM: 'Tollgate <portal@tollgate.test>', ...env } });
  }
  beforeEach(async () => {
    await build();
    // A fresh address per test: the inbox is shared.
    email = `user${++n}-${kind}@example.com`;
  });
  afterEach(() => gw.close());

  /** Calls a dashboard route and checks the answer against its RouteDoc. */
  async function dash(method: Method, path: string, options: { cookie?: string; csrf?: string; key?: string; body?: object; headers?: Record<string, string> } = {}): Promise<Response> {
    let call = request(gw.app)[method](`/dashboard/v1${path}`);
    if (options.cookie !== undefined) call = call.set('cookie', `tg_session=${options.cookie}`);
    if (options.csrf !== undefined) call = call.set('x-csrf-token', options.csrf);
    if (options.key !== undefined) call = call.set(HEADER, options.key);
    for (const [name, value] of Object.entries(options.headers ?? {})) call = call.set(name, value);
    const res = await (options.body === undefined ? call : call.send(options.body));
    const route = dashboardRouteOf(method, `/dashboard/v1${path}`);
    expect(route).toBeDefined();
    expect(validateResponse(route!, res.status, res.body)).toEqual([]);
    return res;
  }
  /** Asks for a code and signs in with it: the cookie, CSRF token and account. */
  async function signIn(address = email, headers: Record<string, string> = {}) {
    expect((await dash('post', '/sign-in', { body: { email: address }, headers })).status).toBe(202);
    const res = await dash('post', '/sign-in/verify', { body: { email: address, code: lastMail(address).code }, headers });
    expect(res.status).toBe(200);
    return { cookie: sessionCookie(res).value, csrf: res.body.data.csrf_token as string, account: res.body.data.account, res };
  }
  const api = (key: string, path = '/burger/v1/index') => request(gw.app).get(path).set(HEADER, key);

  it('when an address signs in, then a code and link are mailed, the code opens an HttpOnly SameSite session, and the session reaches the account with CSRF on changes', async () => {
    const asked = await dash('post', '/sign-in', { body: { email: ` ${email.toUpperCase()} ` } });
    expect(asked.status).toBe(202);
    expect(asked.body.data).toEqual({ email, expires_at: '2026-03-10T12:15:00.000Z' });
    const mail = lastMail(email);
    expect(mail.subject).toBe('Your Tollgate sign-in code');
    expect(inbox.to(email).at(-1)!.from).toBe('portal@tollgate.test');
    const link = new URL(mail.link);
    expect([link.protocol, link.pathname, [...link.searchParams.keys()], link.searchParams.get('email')]).toEqual(['http:', '/portal/sign-in', ['email', 'token'], email]);
    expect(link.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.host).toMatch(/^127\.0\.0\.1:\d+$/);

    const verified = await dash('post', '/sign-in/verify', { body: { email, code: mail.code } });
    expect(verified.status).toBe(200);
    const { value: cookie, attributes } = sessionCookie(verified);
    expect(cookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Lax', 'Path=/dashboard/v1', `Max-Age=${168 * 3600}`]));
    expect(attributes).not.toContain('Secure');
    const { account, csrf_token: csrf, expires_at: expiresAt } = verified.body.data;
    expect(account).toMatchObject({ email, email_verified: true, name: email, status: 'active', subscriptions: {} });
    expect(expiresAt).toBe('2026-03-17T12:00:00.000Z');
    // The cookie value is stored only as its hash.
    expect(JSON.stringify(await gw.stores.sessionStore.getSession(cookie))).toBeUndefined();

    const session = await dash('get', '/session', { cookie });
    expect(session.body.data).toEqual({ account, csrf_token: csrf, expires_at: expiresAt });
    const me = await dash('get', '/account', { cookie });
    expect(me.body.data).toEqual({ account });

    // State changes need the token; reads do not.
    const noToken = await dash('post', '/keys', { cookie, body: { name: 'ci' } });
    expect([noToken.status, noToken.body.error.details]).toEqual([403, { reason: 'csrf' }]);
    const wrongToken = await dash('post', '/keys', { cookie, csrf: `${csrf}x`, body: { name: 'ci' } });
    expect([wrongToken.status, wrongToken.body.error.details]).toEqual([403, { reason: 'csrf' }]);
    expect((await dash('put', '/subscriptions/burger', { cookie, body: { plan: 'free' } })).status).toBe(403);
    const made = await dash('post', '/keys', { cookie, csrf, body: { name: 'ci' } });
    expect(made.status).toBe(201);
    expect((await dash('put', '/subscriptions/burger', { cookie, csrf, body: { plan: 'free' } })).status).toBe(200);
    expect((await api(made.body.data.key)).status).toBe(200);
    const usage = await dash('get', '/usage', { cookie });
    expect(usage.body.data.account_id).toBe(account.id);
    expect(usage.body.data).not.toHaveProperty('id');
    expect((await dash('get', '/keys', { cookie })).body.data.items.map((k: { name: string }) => k.name)).toEqual(['ci']);
  });

  it('when the same address signs in again, then it is the same account, and a new session (the old one of that browser ends)', async () => {
    const first = await signIn();
    const second = await signIn(email, { cookie: `tg_session=${first.cookie}` });
    expect(second.account.id).toBe(first.account.id);
    expect(second.cookie).not.toBe(first.cookie);
    expect((await dash('get', '/session', { cookie: first.cookie })).body.error.details).toEqual({ reason: 'no_session' });
    expect((await dash('get', '/session', { cookie: second.cookie })).status).toBe(200);
  });

  it('when a known and an unknown address ask for a code, then both answers are the same and both get a mail', async () => {
    await signIn();
    const known = await dash('post', '/sign-in', { body: { email } });
    const unknown = await dash('post', '/sign-in', { body: { email: `new-${email}` } });
    const shape = (res: Response) => [res.status, res.body.message, Object.keys(res.body.data).sort(), res.body.data.expires_at];
    expect(shape(known)).toEqual(shape(unknown));
    // supertest calls from a new port each time: only the Host's port may differ.
    const bare = (text: string) => text.replace(/\d{6}/g, '').replace(/token=[\w-]{43}/, '').replace(/127\.0\.0\.1:\d+/g, 'host').replace(/new-/g, '');
    expect(bare(lastMail(`new-${email}`).text)).toBe(bare(lastMail(email).text));
  });

  it('when the code is 15 minutes old, then it is refused as expired; a new code works', async () => {
    await dash('post', '/sign-in', { body: { email } });
    const { code } = lastMail(email);
    gw.clock.advance(15 * 60_000);
    const late = await dash('post', '/sign-in/verify', { body: { email, code } });
    expect([late.status, late.body.error.details]).toEqual([401, { reason: 'code_expired' }]);
    expect(late.body.message).toMatch(/expired.*15 minutes/);
    expect((await signIn()).account.email).toBe(email);
  });

  it('when a code is guessed wrong five times, then each answer says the tries left and the code is void, even the right one after', async () => {
    await dash('post', '/sign-in', { body: { email } });
    const { code } = lastMail(email);
    const wrong = code === '000000' ? '000001' : '000000';
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await dash('post', '/sign-in/verify', { body: { email, code: wrong } }));
    expect(answers.map((r) => [r.status, r.body.error.details])).toEqual([4, 3, 2, 1, 0].map((left) => [401, { reason: 'code_wrong', tries_left: left }]));
    expect(answers[0]!.body.message).toBe('wrong code; 4 tries left');
    expect(answers[4]!.body.message).toBe('wrong code, and that was the last try: ask for a new code, or open the link in the mail');
    const right = await dash('post', '/sign-in/verify', { body: { email, code } });
    expect([right.status, right.body.error.details]).toEqual([401, { reason: 'code_expired' }]);
    // A code for another address never opens this one.
    await dash('post', '/sign-in', { body: { email: `other-${email}` } });
    expect((await dash('post', '/sign-in/verify', { body: { email, code: lastMail(`other-${email}`).code } })).status).toBe(401);
  });

  it('when more than 10 codes are tried for one address from one network in a UTC day, then 429 until the next day, even for a right code; the mailed link still signs in', async () => {
    for (let checked = 0; checked < 10; ) {
      await dash('post', '/sign-in', { body: { email } });
      const { code } = lastMail(email);
      const wrong = code === '000000' ? '000001' : '000000';
      for (let i = 0; i < 5; i++, checked++) expect((await dash('post', '/sign-in/verify', { body: { email, code: wrong } })).body.error.details.reason).toBe('code_wrong');
    }
    await dash('post', '/sign-in', { body: { email } });
    const refused = await dash('post', '/sign-in/verify', { body: { email, code: lastMail(email).code } });
    const untilMidnight = 86_400_000 - (gw.clock.now() % 86_400_000);
    expect([refused.status, refused.body.error.code, refused.headers['retry-after'], refused.body.error.details.reason]).toEqual([429, 'RATE_LIMITED', String(Math.ceil(untilMidnight / 1000)), 'checks_per_day']);
    expect(refused.body.message).toMatch(/open the link in the newest mail/);
    const token = new URL(lastMail(email).link).searchParams.get('token');
    const linked = await dash('post', '/sign-in/link', { body: { email, token } });
    expect([linked.status, linked.body.data.account.email]).toEqual([200, email]);
    // The link was used once.
    expect((await dash('post', '/sign-in/link', { body: { email, token } })).body.error.details).toEqual({ reason: 'code_expired' });
    gw.clock.advance(untilMidnight);
    expect((await signIn()).account.email).toBe(email);
  });

  it('when one network asks too often for one address, or for many addresses, then 429 with Retry-After until the next hour; other networks may still ask, up to 3 live codes', async () => {
    await build({ SIGNINS_PER_HOUR: '5', TRUSTED_PROXIES: 'loopback' });
    const ask = (address: string, ip: string) => dash('post', '/sign-in', { body: { email: address }, headers: { 'x-forwarded-for': ip } });
    const byAddress = [];
    for (let i = 1; i <= 4; i++) byAddress.push(await ask(email, '10.0.0.1'));
    expect(byAddress.map((r) => r.status)).toEqual([202, 202, 202, 429]);
    expect(byAddress[3]!.headers['retry-after']).toBe('3600');
    expect(byAddress[3]!.body.message).toBe('at most 3 codes an hour for one email address from one client network; retry after 3600 s');
    // A stranger's requests do not use up the owner's: two more networks get codes of their own.
    expect([(await ask(email, '10.0.0.2')).status, (await ask(email, '10.0.0.3')).status]).toEqual([202, 202]);
    const pending = await ask(email, '10.0.0.4');
    expect([pending.status, pending.body.error.details.reason, pending.headers['retry-after']]).toEqual([429, 'codes_pending', '900']);
    expect(pending.body.message).toMatch(/^3 codes mailed here in the last 15 minutes still work/);
    const byClient = [];
    for (let i = 1; i <= 6; i++) byClient.push(await ask(`c${i}-${email}`, '10.0.1.1'));
    expect(byClient.map((r) => r.status)).toEqual([202, 202, 202, 202, 202, 429]);
    expect(byClient[5]!.body.message).toBe('at most 5 codes an hour from one client network; retry after 3600 s');
    expect(inbox.to(`c6-${email}`)).toHaveLength(0);
    gw.clock.advance(3_600_000);
    expect((await ask(email, '10.0.1.1')).status).toBe(202);
  });

  it('when the request came over TLS (X-Forwarded-Proto from a trusted proxy), then the cookie is Secure and the link https; from an untrusted hop, neither', async () => {
    await build({ TRUSTED_PROXIES: 'loopback' });
    const tls = await signIn(email, { 'x-forwarded-proto': 'https' });
    expect(sessionCookie(tls.res).attributes).toContain('Secure');
    expect(lastMail(email).link).toMatch(/^https:\/\//);
    await build();
    const plain = await signIn(email, { 'x-forwarded-proto': 'https' });
    expect(sessionCookie(plain.res).attributes).not.toContain('Secure');
    expect(lastMail(email).link).toMatch(/^http:\/\//);
  });

  it('when PUBLIC_URL is set, then the link points there whatever the Host header says', async () => {
    await build({ PUBLIC_URL: 'https://portal.example.com' });
    await dash('post', '/sign-in', { body: { email }, headers: { host: 'evil.example.net' } });
    expect(lastMail(email).link).toMatch(/^https:\/\/portal\.example\.com\/portal\/sign-in\?/);
  });

  it('when signing out, then it needs the CSRF token, ends the session on the server and clears the cookie', async () => {
    const { cookie, csrf } = await signIn();
    const refused = await dash('delete', '/session', { cookie });
    expect([refused.status, refused.body.error.details]).toEqual([403, { reason: 'csrf' }]);
    const out = await dash('delete', '/session', { cookie, csrf });
    expect([out.status, out.body.data]).toEqual([200, { signed_out: true }]);
    expect(sessionCookie(out)).toEqual({ value: '', attributes: expect.arrayContaining(['Path=/dashboard/v1', 'HttpOnly']) });
    expect(([] as string[]).concat(out.headers['set-cookie'] ?? []).join()).toMatch(/Expires=Thu, 01 Jan 1970/);
    for (const path of ['/session', '/account']) expect((await dash('get', path, { cookie })).body.error.details).toEqual({ reason: 'no_session' });
    // Signing out again, or with no cookie, is fine.
    expect((await dash('delete', '/session', { cookie })).status).toBe(200);
    expect((await dash('delete', '/session')).status).toBe(200);
    const none = await dash('get', '/session');
    expect([none.status, none.body.error.details]).toEqual([401, { reason: 'no_session' }]);
  });

  it('when the session outlives SESSION_TTL_HOURS, then it is refused as expired everywhere', async () => {
    await build({ SESSION_TTL_HOURS: '1' });
    const { cookie, csrf } = await signIn();
    gw.clock.advance(3_600_000 - 1);
    expect((await dash('get', '/session', { cookie })).status).toBe(200);
    gw.clock.advance(1);
    for (const [method, path] of [['get', '/session'], ['get', '/account'], ['post', '/keys']] as const) {
      const res = await dash(method, path, { cookie, csrf, body: method === 'post' ? { name: 'x' } : undefined });
      expect([res.status, res.body.error.details]).toEqual([401, { reason: 'session_expired' }]);
    }
  });

  it('when a session names another account’s key, then 404 as for a key that does not exist', async () => {
    const alice = await signIn(`alice-${email}`);
    const bob = await signIn(`bob-${email}`);
    const aliceKey = (await dash('post', '/keys', { cookie: alice.cookie, csrf: alice.csrf, body: { name: 'a' } })).body.data;
    const answers = [
      await dash('post', `/keys/${aliceKey.id}/roll`, { cookie: bob.cookie, csrf: bob.csrf, body: {} }),
      await dash('post', `/keys/${aliceKey.id}/end-grace`, { cookie: bob.cookie, csrf: bob.csrf }),
      await dash('delete', `/keys/${aliceKey.id}`, { cookie: bob.cookie, csrf: bob.csrf }),
    ];
    expect(answers.map((r) => [r.status, r.body.message])).toEqual(Array(3).fill([404, 'no API key with this id in your account']));
    expect((await api(aliceKey.key, '/token/v1/prices')).status).not.toBe(401);
    expect((await dash('get', '/keys', { cookie: bob.cookie })).body.data.items).toEqual([]);
  });

  // An account whose address is not proven, with one key: what JSON sign-up made before issue 25
  // (it now proves the address first), and what an operator may still make.
  async function unprovenSignup(address: string): Promise<{ body: { data: { key: string; account_id: string } } }> {
    const account = await gw.stores.accountStore.createAccount({ email: address, email_verified: false });
    const made = (await gw.stores.accountStore.createKey(account.id, { name: 'default' }))!;
    return { body: { data: { key: made.key, account_id: account.id } } };
  }

  it('when an account’s address is not proven, then it may use the playground but not subscribe until it proves its address with the mailed code', async () => {
    const signup = await unprovenSignup(email);
    const key: string = signup.body.data.key;
    expect((await dash('get', '/account', { key })).body.data.account.email_verified).toBe(false);
    expect((await api(key, '/token/v1/prices')).status).toBe(200); // the playground
    for (const plan of ['free', 'pro']) {
      const refused = await dash('put', '/subscriptions/token', { key, body: { plan } });
      expect([refused.status, refused.body.error.details]).toEqual([403, { reason: 'email_unverified' }]);
      expect(refused.body.message).toMatch(/POST \/dashboard\/v1\/account\/verify-email/);
    }
    const sent = await dash('post', '/account/verify-email', { key });
    expect([sent.status, sent.body.data]).toEqual([202, { email, expires_at: '2026-03-10T12:15:00.000Z' }]);
    const mail = inbox.to(email).at(-1)!;
    expect(mail.subject).toBe('Prove your Tollgate email address');
    const code = /^ {4}(\d{6})$/m.exec(mail.text)![1]!;
    const wrong = await dash('post', '/account/verify-email/confirm', { key, body: { code: code === '999999' ? '999998' : '999999' } });
    expect([wrong.status, wrong.body.error.details]).toEqual([401, { reason: 'code_wrong', tries_left: 4 }]);
    expect((await dash('post', '/account/verify-email/confirm', { key, body: { code: 'abc' } })).status).toBe(400);
    // A sign-in code for the address is not a proof code for the account, nor the other way round.
    const confirmed = await dash('post', '/account/verify-email/confirm', { key, body: { code } });
    expect([confirmed.status, confirmed.body.data.account.email_verified]).toEqual([200, true]);
    expect((await dash('put', '/subscriptions/token', { key, body: { plan: 'free' } })).status).toBe(200);
    expect((await dash('post', '/account/verify-email', { key })).body.error.details).toEqual({ reason: 'already_verified' });
    // Signing in with the proven address reaches the same account, keeping its keys.
    const session = await signIn();
    expect(session.account.id).toBe(signup.body.data.account_id);
    expect((await dash('get', '/account', { key })).status).toBe(200);
  });

  it('when someone else made an unproven account with an address and its owner signs in, then the owner gets the account and the keys made before are revoked', async () => {
    const squatter = await unprovenSignup(email);
    const owner = await signIn();
    expect(owner.account).toMatchObject({ id: squatter.body.data.account_id, email_verified: true });
    const refused = await dash('get', '/account', { key: squatter.body.data.key });
    expect([refused.status, refused.body.error.details]).toEqual([401, { reason: 'revoked' }]);
    expect((await dash('put', '/subscriptions/burger', { cookie: owner.cookie, csrf: owner.csrf, body: { plan: 'free' } })).status).toBe(200);
  });

  it('when accounts are made by the operator, then they count as proven; a JSON sign-up with that address leads into the account, with nothing left to prove', async () => {
    const admin = await request(gw.app).post('/admin/v1/accounts').set('authorization', `Bearer ${gw.config.adminToken}`).send({ email });
    expect(admin.body.data.email_verified).toBe(true);
    const before = inbox.to(email).length;
    expect((await dash('post', '/signup', { body: { email } })).status).toBe(202);
    const code = /^ {4}(\d{6})$/m.exec((await inbox.next(email, before)).text)![1]!;
    const taken = await dash('post', '/signup/verify', { body: { email, code } });
    expect([taken.status, taken.body.data.account.id]).toEqual([201, admin.body.data.id]);
    const refused = await dash('post', '/account/verify-email', { key: taken.body.data.key.key });
    expect([refused.status, refused.body.error.details]).toEqual([409, { reason: 'already_verified' }]);
  });

  it('when a rolled key’s grace is ended, then only the new secret works, at once, on the dashboard and the APIs', async () => {
    const { cookie, csrf } = await signIn();
    await dash('put', '/subscriptions/burger', { cookie, csrf, body: { plan: 'free' } });
    const made = (await dash('post', '/keys', { cookie, csrf, body: { name: 'prod' } })).body.data;
    const rolled = (await dash('post', `/keys/${made.id}/roll`, { cookie, csrf, body: { grace_seconds: 3600 } })).body.data;
    expect((await api(made.key)).status).toBe(200);
    const ended = await dash('post', `/keys/${made.id}/end-grace`, { cookie, csrf });
    expect([ended.status, ended.body.data.grace_until, ended.body.data.id]).toEqual([200, null, made.id]);
    const old = await api(made.key);
    expect([old.status, old.body.message]).toEqual([401, expect.stringMatching(/rolled/)]);
    expect((await dash('get', '/account', { key: made.key })).body.error.details).toEqual({ reason: 'rolled' });
    expect((await api(rolled.key)).status).toBe(200);
    // Again: nothing left to end, the same answer; a key never rolled too.
    expect((await dash('post', `/keys/${made.id}/end-grace`, { key: rolled.key })).body.data.grace_until).toBeNull();
    expect((await api(rolled.key)).status).toBe(200);
    const admin = await request(gw.app).post(`/admin/v1/keys/${made.id}/end-grace`).set('authorization', `Bearer ${gw.config.adminToken}`);
    expect([admin.status, admin.body.data?.id]).toEqual([200, made.id]);
  });

  it('when the plans are asked for without any key, then the live plan table is answered per API with the playground allowance', async () => {
    const res = await dash('get', '/plans');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(
      // Beside the catalogue's own words for each API and plan (description, listed, features, offered: catalogue.md).
      Object.entries(TEST_PLANS).map(([api, p]) => expect.objectContaining({ api, playground_per_day: p.playground_per_day, plans: Object.entries(p.plans).map(([name, plan]) => expect.objectContaining({ name, ...plan })) })),
    );
  });

  it('when the mail server refuses the message, then 502 saying to retry, never a 500', async () => {
    inbox.refuse(true);
    try {
      const res = await dash('post', '/sign-in', { body: { email } });
      expect([res.status, res.body.error.code, res.headers['retry-after']]).toEqual([502, 'UPSTREAM_UNAVAILABLE', '30']);
    } finally {
      inbox.refuse(false);
    }
  });
});
