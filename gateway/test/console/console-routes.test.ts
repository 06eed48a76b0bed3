import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import request from 'supertest';
import { fileAdminToken } from '../../src/data/admin-token';
import { sha256 } from '../../src/data/session-store';
import { PAGE_CSP } from '../../src/http/page-headers';
import { CONSOLE_PAGES } from '../../src/console/console-pages';
import { CONSOLE_COOKIE } from '../../src/console/console-session';
import { WRONG_TOKENS_PER_HOUR } from '../../src/http/admin-auth';
import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';
import { ADMIN_TOKEN, buildGateway } from '../support/gateway-fixture';
import { signInCode, startSmtpInbox } from '../support/smtp-inbox';
import type { SmtpInbox } from '../support/smtp-inbox';
import type { GatewayFixture } from '../support/gateway-fixture';

// The console's routes without a browser: supertest on the gateway app, memory store, manual clock.
jest.setTimeout(60_000);

let upstream: EchoUpstream;
let gw: GatewayFixture;
beforeAll(async () => {
  upstream = await startEchoUpstream();
});
afterAll(() => upstream.close());
beforeEach(async () => {
  gw = await buildGateway({ upstream: upstream.url, start: Date.parse('2026-03-15T12:00:00.000Z') });
});
afterEach(() => gw.close());

const JSON_ROUTES: [string, string][] = [
  ['get', '/admin/console/v1/session'],
  ['get', '/admin/console/v1/overview'],
  ['get', '/admin/console/v1/accounts'],
  ['get', '/admin/console/v1/accounts/search?q=ada@example.com'],
  ['get', '/admin/console/v1/accounts/acc_000000000000000000000000'],
  ['put', '/admin/console/v1/accounts/acc_000000000000000000000000/subscriptions/token'],
  ['delete', '/admin/console/v1/accounts/acc_000000000000000000000000/subscriptions/token'],
  ['post', '/admin/console/v1/accounts/acc_000000000000000000000000/suspend'],
  ['post', '/admin/console/v1/accounts/acc_000000000000000000000000/reactivate'],
  ['post', '/admin/console/v1/keys/key_00000000000000000000000000000000/revoke'],
  ['post', '/admin/console/v1/keys/key_00000000000000000000000000000000/end-grace'],
  ['get', '/admin/console/v1/audit'],
  ['get', '/admin/console/v1/audit/export'],
  ['get', '/admin/console/v1/nowhere'],
  ['get', '/admin/docs/openapi.json'],
];

/** An agent signed in to the console with the admin token, and its CSRF token. */
async function operator(): Promise<{ agent: ReturnType<typeof request.agent>; csrf: string }> {
  const agent = request.agent(gw.app);
  const res = await agent.post('/admin/console/v1/sign-in/token').send({ token: ADMIN_TOKEN }).expect(200);
  return { agent, csrf: res.body.data.csrf_token };
}

describe('the console signed out', () => {
  it('when any console page is asked for, then the answer is a redirect to the sign-in page and carries no data; the sign-in page itself is served', async () => {
    for (const path of ['/admin/', '/admin/accounts', '/admin/accounts/acc_000000000000000000000000', '/admin/audit', '/admin/docs', '/admin/nowhere', '/admin/accounts?q=ada']) {
      const res = await request(gw.app).get(path);
      expect([path, res.status, res.headers.location]).toEqual([path, 303, `/admin/sign-in?next=${encodeURIComponent(path)}`]);
      expect(res.headers['content-security-policy']).toBe(PAGE_CSP);
    }
    const signIn = await request(gw.app).get('/admin/sign-in').expect(200);
    expect(signIn.text).toContain('<body data-page="sign-in"');
    expect((await request(gw.app).get('/admin').expect(301)).headers.location).toBe('/admin/');
  });

  it('when any console JSON route is called, then it is 401 in the envelope, before anything else is looked at', async () => {
    for (const [method, path] of JSON_ROUTES) {
      const res = await request(gw.app)[method as 'get'](path);
      expect([method, path, res.status, res.body.error?.code]).toEqual([method, path, 401, 'UNAUTHORIZED']);
    }
  });

  it('when a portal session cookie is sent to the console, under either name, then it opens nothing', async () => {
    const account = await gw.stores.accountStore.createAccount({ email: 'ada@example.com' });
    const value = 'A'.repeat(43);
    await gw.stores.sessionStore.putSession(sha256(value), { account_id: account.id, csrf_token: 'c'.repeat(43), created_at: new Date(gw.clock.now()).toISOString(), expires_at: new Date(gw.clock.now() + 3_600_000).toISOString() });
    // The session works where it belongs...
    await request(gw.app).get('/dashboard/v1/session').set('Cookie', `tg_session=${value}`).expect(200);
    // ...and nowhere under /admin: not as itself, not as the console's cookie.
    for (const cookie of [`tg_session=${value}`, `${CONSOLE_COOKIE}=${value}`]) {
      for (const [method, path] of JSON_ROUTES) {
        const res = await request(gw.app)[method as 'get'](path).set('Cookie', cookie);
        expect([cookie, path, res.status]).toEqual([cookie, path, 401]);
      }
      expect((await request(gw.app).get('/admin/accounts').set('Cookie', cookie)).status).toBe(303);
    }
  });

  it('when the admin API is called, then the console router leaves it alone', async () => {
    await request(gw.app).get('/admin/v1/accounts').expect(401);
    const res = await request(gw.app).get('/admin/v1/accounts').set('Authorization', `Bearer ${ADMIN_TOKEN}`).expect(200);
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect((await request(gw.app).get('/admin/v1/nowhere').set('Authorization', `Bearer ${ADMIN_TOKEN}`)).body.error.code).toBe('NOT_FOUND');
  });
});

describe('signing in to the console', () => {
  it('when the token is right, then a session cookie scoped to /admin (HttpOnly, SameSite=Strict) and a CSRF token come back; signing out ends it', async () => {
    const res = await request(gw.app).post('/admin/console/v1/sign-in/token').send({ token: ADMIN_TOKEN }).expect(200);
    expect(res.body.data).toMatchObject({ operator: { by: 'token', name: 'admin token' }, csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    const cookie = res.headers['set-cookie']![0]!;
    expect(cookie).toMatch(new RegExp(`^${CONSOLE_COOKIE}=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=/admin; Expires=[^;]+; HttpOnly; SameSite=Strict$`));
    const value = cookie.split(';')[0]!;
    await request(gw.app).get('/admin/console/v1/overview').set('Cookie', value).expect(200);
    // The console's session is not the portal's.
    await request(gw.app).get('/dashboard/v1/session').set('Cookie', value.replace(CONSOLE_COOKIE, 'tg_session')).expect(401);
    await request(gw.app).delete('/admin/console/v1/session').set('Cookie', value).expect(403);
    await request(gw.app).delete('/admin/console/v1/session').set('Cookie', value).set('x-csrf-token', res.body.data.csrf_token).expect(200);
    await request(gw.app).get('/admin/console/v1/overview').set('Cookie', value).expect(401);
  });

  it(`when wrong tokens are tried, then each is 401, and past ${WRONG_TOKENS_PER_HOUR} an hour from one network, 429 with Retry-After, the right token too`, async () => {
    for (let i = 0; i < WRONG_TOKENS_PER_HOUR; i++) await request(gw.app).post('/admin/console/v1/sign-in/token').send({ token: `wrong-${i}` }).expect(401);
    const refused = await request(gw.app).post('/admin/console/v1/sign-in/token').send({ token: 'wrong-again' }).expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await request(gw.app).post('/admin/console/v1/sign-in/token').send({ token: ADMIN_TOKEN }).expect(429);
    gw.clock.advance(3_600_000);
    await request(gw.app).post('/admin/console/v1/sign-in/token').send({ token: ADMIN_TOKEN }).expect(200);
    await request(gw.app).post('/admin/console/v1/sign-in/token').send({ token: 'wrong-later' }).expect(401);
  });

  it.each([
    [{}, 400],
    [{ token: '' }, 400],
    [{ token: 'x'.repeat(501) }, 400],
    [{ token: ADMIN_TOKEN, extra: 1 }, 400],
    ['not json', 400],
  ] as [unknown, number][])('when the body is %j, then %d in the envelope', async (body, status) => {
    const res = await request(gw.app).post('/admin/console/v1/sign-in/token').set('content-type', 'application/json').send(typeof body === 'string' ? body : JSON.stringify(body));
    expect([res.status, res.body.status]).toEqual([status, 'error']);
  });

  it('when a session has lapsed, then it is 401 session_expired', async () => {
    const { agent } = await operator();
    gw.clock.advance(12 * 3_600_000 + 1);
    expect((await agent.get('/admin/console/v1/overview').expect(401)).body.error.details.reason).toBe('session_expired');
  });
});

describe('the console signed in', () => {
  it('when a change comes without the CSRF header or from another site, then it is 403 and nothing changes', async () => {
    const { agent, csrf } = await operator();
    const account = await gw.stores.accountStore.createAccount({ email: 'ada@example.com' });
    expect((await agent.post(`/admin/console/v1/accounts/${account.id}/suspend`).expect(403)).body.error.details.reason).toBe('csrf');
    expect((await agent.post(`/admin/console/v1/accounts/${account.id}/suspend`).set('x-csrf-token', 'nope').expect(403)).body.error.details.reason).toBe('csrf');
    expect((await agent.post(`/admin/console/v1/accounts/${account.id}/suspend`).set('x-csrf-token', csrf).set('sec-fetch-site', 'cross-site').expect(403)).body.error.details.reason).toBe('cross_site');
    expect((await gw.stores.accountStore.getAccount(account.id))?.status).toBe('active');
    await agent.post(`/admin/console/v1/accounts/${account.id}/suspend`).set('x-csrf-token', csrf).set('sec-fetch-site', 'same-origin').expect(200);
    expect((await gw.stores.accountStore.getAccount(account.id))?.status).toBe('suspended');
  });

  it('when a plan is granted, then it is a comp, active at once, and recorded as the operator’s from the request’s address', async () => {
    const { agent, csrf } = await operator();
    const account = await gw.stores.accountStore.createAccount({ email: 'ada@example.com' });
    const granted = await agent.put(`/admin/console/v1/accounts/${account.id}/subscriptions/token`).set('x-csrf-token', csrf).send({ plan: 'pro' }).expect(200);
    expect(granted.body.data.subscriptions.token).toEqual({ plan: 'pro', status: 'active', comp: true });
    await agent.put(`/admin/console/v1/accounts/${account.id}/subscriptions/token`).set('x-csrf-token', csrf).send({ plan: 'gold' }).expect(400);
    await agent.put(`/admin/console/v1/accounts/${account.id}/subscriptions/weather`).set('x-csrf-token', csrf).send({ plan: 'pro' }).expect(400);
    const page = (await agent.get(`/admin/console/v1/accounts/${account.id}`).expect(200)).body.data;
    expect(page.audit[0]).toMatchObject({ action: 'subscription.set', target: 'token', actor: { type: 'operator', id: 'admin token', via: 'console' }, from: expect.stringMatching(/127\.0\.0\.1/), details: { before: null, after: { plan: 'pro', status: 'active', comp: true } } });
    expect(page.billing).toBeNull();
    expect(page.plans.map((p: { api: string }) => p.api)).toEqual(['token', 'burger']);
  });

  it('when the admin token is rotated, then sessions made with the old one end', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tollgate-console-token-'));
    const token = fileAdminToken(path.join(dir, 'admin-token'));
    const rotating = await buildGateway({ upstream: upstream.url, adminToken: token });
    try {
      const agent = request.agent(rotating.app);
      await agent.post('/admin/console/v1/sign-in/token').send({ token: token.current() }).expect(200);
      await agent.get('/admin/console/v1/overview').expect(200);
      token.rotate();
      expect((await agent.get('/admin/console/v1/overview').expect(401)).body.error.details.reason).toBe('token_rotated');
      expect((await agent.get('/admin/accounts')).status).toBe(303);
    } finally {
      await rotating.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when any path under /admin is asked for signed in, then never a 5xx, and pages always carry the headers', async () => {
    const { agent } = await operator();
    const segment = fc.oneof(fc.constantFrom('assets', 'shared', 'js', 'views', 'vendor', 'uplot', 'console', 'v1', 'accounts', 'acc_000000000000000000000000', '..', '%2e%2e', '%2f', '%00', '%ZZ', 'app.js', 'base.css', 'docs', ''), fc.webSegment());
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { maxLength: 5 }), async (segments) => {
        const path = `/admin/${segments.join('/')}`;
        const res = await agent.get(path);
        expect([path, res.status < 500]).toEqual([path, true]);
        if (!path.startsWith('/admin/v1')) expect(res.headers['x-frame-options']).toBe('DENY');
      }),
      { numRuns: 200 },
    );
  });

  it('when each page is asked for, then it is its shell: its view, no inline script or style', async () => {
    const { agent } = await operator();
    for (const page of CONSOLE_PAGES) {
      const path = page.id === 'account' ? '/admin/accounts/acc_000000000000000000000000' : page.path;
      const res = await agent.get(path).expect(200);
      expect(res.text).toContain(`<body data-page="${page.id}"`);
      expect(res.text).toContain(`/admin/assets/js/views/${page.id}.js`);
      expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=/);
    }
    expect((await agent.get('/admin/nowhere').expect(404)).text).toContain('<body data-page="not-found"');
    for (const asset of ['/admin/assets/js/app.js', '/admin/assets/shared/dom.js', '/admin/assets/shared/base.css', '/admin/assets/console.css', '/admin/vendor/uplot/uPlot.iife.min.js']) await request(gw.app).get(asset).expect(200);
    for (const missing of ['/admin/assets/nope.js', '/admin/assets/%2e%2e/%2e%2e/package.json', '/admin/assets/shared/..%2f..%2fpackage.json']) expect((await request(gw.app).get(missing)).status).toBe(404);
  });
});

describe('an operator’s address and the code mailed to it', () => {
  let inbox: SmtpInbox;
  let mailed: GatewayFixture;
  beforeAll(async () => {
    inbox = await startSmtpInbox();
  });
  afterAll(() => inbox.close());
  beforeEach(async () => {
    mailed = await buildGateway({ upstream: upstream.url, env: { SMTP_URL: inbox.url, OPERATOR_EMAILS: 'Ops@Example.com, second@example.com', PUBLIC_URL: 'https://api.example.com' }, start: Date.parse('2026-03-15T12:00:00.000Z') });
  });
  afterEach(() => mailed.close());

  it('when an operator’s address asks, then a code comes by mail and signs in; another address gets the same answer and no mail', async () => {
    const ask = (email: string) => request(mailed.app).post('/admin/console/v1/sign-in/code').send({ email });
    const before = inbox.count('ops@example.com');
    const asked = await ask('OPS@example.com').expect(202);
    const stranger = await ask('stranger@example.com').expect(202);
    expect([asked.body.message, stranger.body.message]).toEqual(['If this is an operator’s address, a code is on its way', 'If this is an operator’s address, a code is on its way']);
    const mail = await inbox.next('ops@example.com', before);
    expect(mail.subject).toBe('Your Tollgate console sign-in code');
    expect(mail.text).toMatch(/^https:\/\/api\.example\.com\/admin\/sign-in\?email=ops%40example\.com&token=[A-Za-z0-9_-]{43}$/m);
    const { code } = signInCode(mail);
    expect(inbox.count('stranger@example.com')).toBe(0);
    // The portal's sign-in does not take it, nor a stranger's address.
    await request(mailed.app).post('/dashboard/v1/sign-in/verify').send({ email: 'ops@example.com', code }).expect(401);
    await request(mailed.app).post('/admin/console/v1/sign-in/code/verify').send({ email: 'stranger@example.com', code }).expect(401);
    const signed = await request(mailed.app).post('/admin/console/v1/sign-in/code/verify').send({ email: 'ops@example.com', code }).expect(200);
    expect(signed.body.data.operator).toEqual({ by: 'email', name: 'ops@example.com' });
    const cookie = signed.headers['set-cookie']![0]!.split(';')[0]!;
    await request(mailed.app).get('/admin/console/v1/overview').set('Cookie', cookie).expect(200);
    // Used once.
    await request(mailed.app).post('/admin/console/v1/sign-in/code/verify').send({ email: 'ops@example.com', code }).expect(401);
  });

  it('when a code is wrong, then 401 with the tries left; the body is checked before the store', async () => {
    await request(mailed.app).post('/admin/console/v1/sign-in/code').send({ email: 'second@example.com' }).expect(202);
    const { code } = signInCode(await inbox.next('second@example.com'));
    const wrong = code === '000000' ? '000001' : '000000';
    const res = await request(mailed.app).post('/admin/console/v1/sign-in/code/verify').send({ email: 'second@example.com', code: wrong }).expect(401);
    expect(res.body.error.details).toEqual({ reason: 'code_wrong', tries_left: 4 });
    await request(mailed.app).post('/admin/console/v1/sign-in/code/verify').send({ email: 'second@example.com', code: '12ab' }).expect(400);
    await request(mailed.app).post('/admin/console/v1/sign-in/code/verify').send({ email: 'second@example.com', code }).expect(200);
  });

  /** A console session by the admin token: its cookie is Secure (PUBLIC_URL is https), so it is sent by hand over the test's plain HTTP. */
  async function tokenSession(): Promise<{ cookie: string; csrf: string }> {
    const res = await request(mailed.app).post('/admin/console/v1/sign-in/token').send({ token: ADMIN_TOKEN }).expect(200);
    expect(res.headers['set-cookie']![0]).toMatch(/; Secure/);
    return { cookie: res.headers['set-cookie']![0]!.split(';')[0]!, csrf: res.body.data.csrf_token as string };
  }

  it('when an operator mails a customer’s proof again, then the customer gets a code that proves the address, and the audit log says who sent it', async () => {
    const { cookie, csrf } = await tokenSession();
    const agent = { post: (path: string) => request(mailed.app).post(path).set('Cookie', cookie) };
    // An account whose address is not proven (as JSON sign-up made them before issue 25).
    const unproven = await mailed.stores.accountStore.createAccount({ email: 'new@example.com', email_verified: false });
    const signup = { body: { data: { key: (await mailed.stores.accountStore.createKey(unproven.id, { name: 'default' }))!.key } } };
    const accountId = unproven.id;
    await agent.post(`/admin/console/v1/accounts/${accountId}/verification`).expect(403);
    await agent.post(`/admin/console/v1/accounts/${accountId}/verification`).set('x-csrf-token', csrf).expect(202);
    const { code } = signInCode(await inbox.next('new@example.com'));
    await request(mailed.app).post('/dashboard/v1/account/verify-email/confirm').set('x-tollgate-key', signup.body.data.key).send({ code }).expect(200);
    expect((await mailed.stores.accountStore.getAccount(accountId))?.email_verified).toBe(true);
    expect((await agent.post(`/admin/console/v1/accounts/${accountId}/verification`).set('x-csrf-token', csrf).expect(409)).body.error.details.reason).toBe('already_verified');
    const entries = (await mailed.stores.auditLog.list({ accountId, limit: 10 })).items.map((e) => [e.action, e.actor.type, e.actor.via]);
    expect(entries).toEqual([
      ['account.email_verified', 'customer', 'dashboard-api'],
      ['account.verification_sent', 'operator', 'console'],
    ]);
  });

  it('when a customer signs in to the portal, then the account page lists the sign-in with its address, and the system’s change it made is the system’s', async () => {
    await request(mailed.app).post('/dashboard/v1/sign-in').send({ email: 'carol@example.com' }).expect(202);
    const { code } = signInCode(await inbox.next('carol@example.com'));
    const signed = await request(mailed.app).post('/dashboard/v1/sign-in/verify').set('X-Forwarded-For', '198.51.100.7').send({ email: 'carol@example.com', code }).expect(200);
    const accountId = signed.body.data.account.id as string;
    const { cookie } = await tokenSession();
    const page = (await request(mailed.app).get(`/admin/console/v1/accounts/${accountId}`).set('Cookie', cookie).expect(200)).body.data;
    expect(page.sign_ins).toHaveLength(1);
    // The person who signed in (made with the account on a first sign-in: per_ and the account's hex, docs/teams.md).
    expect(page.sign_ins[0]).toMatchObject({ action: 'account.sign_in', actor: { type: 'customer', id: accountId.replace(/^acc_/, 'per_'), via: 'portal' }, from: expect.stringMatching(/127\.0\.0\.1/), details: { email: 'carol@example.com', by: 'code' } });
    expect(page.audit.map((e: { action: string; actor: { type: string } }) => [e.action, e.actor.type])).toEqual([
      ['account.sign_in', 'customer'],
      ['account.create', 'system'],
    ]);
  });
});
