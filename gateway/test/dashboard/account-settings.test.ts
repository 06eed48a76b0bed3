import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { Response } from 'supertest';
import { validateResponse } from '@tollgate/envelope';
import { dashboardRouteOf } from '../support/dashboard-route';
import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';
import { buildGateway } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';
import { startRedisServer } from '../support/redis-server';
import type { RedisServer } from '../support/redis-server';
import { signInCode, startSmtpInbox } from '../support/smtp-inbox';
import type { SmtpInbox } from '../support/smtp-inbox';

jest.setTimeout(60_000);

const HEADER = 'x-tollgate-key';
const START = Date.parse('2026-03-10T12:00:00.000Z');
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:120.0) Gecko/20100101 Firefox/120.0';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';

let upstream: EchoUpstream;
let redisServer: RedisServer;
let inbox: SmtpInbox;
let dir: string;
beforeAll(async () => {
  [upstream, redisServer, inbox] = await Promise.all([startEchoUpstream(), startRedisServer(), startSmtpInbox()]);
  dir = mkdtempSync(path.join(tmpdir(), 'tollgate-settings-'));
});
afterAll(async () => {
  await Promise.all([upstream.close(), redisServer.stop(), inbox.close()]);
  rmSync(dir, { recursive: true, force: true });
});

type Method = 'get' | 'post' | 'put' | 'delete';
type Session = { cookie: string; csrf: string; account: { id: string; email: string; subscriptions: Record<string, unknown> } };

describe.each(['sqlite', 'redis'] as const)('account settings on the %s store', (kind) => {
  let gw: GatewayFixture;
  let email: string;
  let n = 0;
  beforeEach(async () => {
    gw = await buildGateway({
      upstream: upstream.url,
      redisUrl: kind === 'redis' ? redisServer.url : undefined,
      sqlitePath: kind === 'sqlite' ? path.join(dir, `store-${++n}.db`) : undefined,
      start: START,
      env: { SMTP_URL: inbox.url, MAIL_FROM: 'Tollgate <portal@tollgate.test>', SUPPORT_EMAIL: 'help@tollgate.test', WEBHOOKS_ALLOW_PRIVATE: 'true' },
    });
    email = `settings${n}-${kind}@example.com`;
  });
  afterEach(() => gw.close());

  const lastMail = (address: string) => {
    const mail = inbox.to(address).at(-1);
    if (!mail) throw new Error(`no mail reached ${address}`);
    return mail;
  };
  /** Calls a dashboard route and checks the answer against its RouteDoc. */
  async function dash(method: Method, route: string, options: { session?: Session; csrf?: boolean; key?: string; body?: object; ua?: string } = {}): Promise<Response> {
    let call = request(gw.app)[method](`/dashboard/v1${route}`);
    if (options.session) call = call.set('cookie', `tg_session=${options.session.cookie}`);
    if (options.session && options.csrf !== false) call = call.set('x-csrf-token', options.session.csrf);
    if (options.key !== undefined) call = call.set(HEADER, options.key);
    if (options.ua !== undefined) call = call.set('user-agent', options.ua);
    const res = await (options.body === undefined ? call : call.send(options.body));
    const doc = dashboardRouteOf(method, `/dashboard/v1${route}`);
    expect(doc).toBeDefined();
    expect(validateResponse(doc!, res.status, res.body)).toEqual([]);
    return res;
  }
  async function signIn(address = email, ua = FIREFOX): Promise<Session> {
    expect((await dash('post', '/sign-in', { body: { email: address }, ua })).status).toBe(202);
    const res = await dash('post', '/sign-in/verify', { body: { email: address, code: signInCode(lastMail(address)).code }, ua });
    expect(res.status).toBe(200);
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('tg_session='))!.split(';')[0]!.slice('tg_session='.length);
    return { cookie, csrf: res.body.data.csrf_token, account: res.body.data.account };
  }
  const auditActions = async (accountId: string): Promise<string[]> => (await gw.stores.auditLog.list({ accountId, limit: 100, oldestFirst: true })).items.map((e) => e.action);

  it('when an account is signed in on two devices, then each lists both (device, last use, which is this one), signs the other out by id or all others at once, with CSRF, never with a key', async () => {
    const laptop = await signIn(email, FIREFOX);
    gw.clock.advance(90_000);
    const phone = await signIn(email, IPHONE);
    gw.clock.advance(90_000);
    const listed = await dash('get', '/account/sessions', { session: laptop });
    expect(listed.status).toBe(200);
    const sessions = listed.body.data.sessions;
    expect(sessions.map((s: { device: string; current: boolean }) => [s.device, s.current])).toEqual([['Firefox on Windows', true], ['Safari on iPhone', false]]);
    // The laptop's use just now is written (a minute or more had passed); the phone's is its sign-in.
    expect(sessions.map((s: { last_seen_at: string }) => s.last_seen_at)).toEqual(['2026-03-10T12:03:00.000Z', '2026-03-10T12:01:30.000Z']);

    expect((await dash('delete', `/account/sessions/${sessions[1].id}`, { session: laptop, csrf: false })).body.error.details).toEqual({ reason: 'csrf' });
    expect((await dash('delete', '/account/sessions/0123456789abcdef01234567', { session: laptop })).status).toBe(404);
    expect((await dash('delete', '/account/sessions/not-an-id', { session: laptop })).status).toBe(404);
    expect((await dash('delete', `/account/sessions/${sessions[1].id}`, { session: laptop })).body.data).toEqual({ signed_out: 1 });
    expect((await dash('get', '/session', { session: phone })).status).toBe(401);
    expect((await dash('get', '/account/sessions', { session: laptop })).body.data.sessions).toHaveLength(1);

    // Three codes an hour per address from one network: the next sign-ins in the next hour.
    gw.clock.advance(3_600_000);
    const tablet = await signIn(email, IPHONE);
    const other = await signIn(email, FIREFOX);
    expect((await dash('delete', '/account/sessions', { session: laptop })).body.data).toEqual({ signed_out: 2 });
    for (const gone of [tablet, other]) expect((await dash('get', '/session', { session: gone })).status).toBe(401);
    expect((await dash('get', '/session', { session: laptop })).status).toBe(200);

    const key = (await dash('post', '/keys', { session: laptop, body: { name: 'ci' } })).body.data.key as string;
    expect((await dash('get', '/account/sessions', { key })).status).toBe(401);
    // Signing this session out by its own id clears its cookie.
    const own = (await dash('get', '/account/sessions', { session: laptop })).body.data.sessions[0].id;
    const out = await dash('delete', `/account/sessions/${own}`, { session: laptop });
    expect(String(out.headers['set-cookie'])).toMatch(/^tg_session=;/);
    expect((await dash('get', '/session', { session: laptop })).status).toBe(401);
  });

  it('when an account moves to a new address, then the code goes to the new address, the old one is told, other sessions end, the move is audited, and the old address signs in to a fresh account', async () => {
    const here = await signIn();
    const elsewhere = await signIn(email, IPHONE);
    const next = `moved-${email}`;
    const asked = await dash('post', '/account/email', { session: here, body: { email: next.toUpperCase() } });
    expect([asked.status, asked.body.data]).toEqual([202, { email: next, expires_at: '2026-03-10T12:15:00.000Z' }]);
    expect(lastMail(next).subject).toBe('Confirm your new Tollgate email address');
    const code = signInCode(lastMail(next)).code;
    const wrong = code === '000000' ? '000001' : '000000';
    expect((await dash('post', '/account/email/confirm', { session: here, body: { email: next, code: wrong } })).body.error.details.reason).toBe('code_wrong');
    // A code proves only the address it was mailed to.
    expect((await dash('post', '/account/email/confirm', { session: here, body: { email: `other-${email}`, code } })).status).toBe(401);

    const told = inbox.to(email).length;
    const done = await dash('post', '/account/email/confirm', { session: here, body: { email: next, code } });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ account: { id: here.account.id, email: next, name: next, email_verified: true }, signed_out: 1 });
    expect(inbox.to(email)).toHaveLength(told + 1);
    expect(lastMail(email)).toMatchObject({ subject: 'Your Tollgate email address was changed' });
    expect(lastMail(email).text).toContain(next);
    expect(lastMail(email).text).toContain('help@tollgate.test');
    expect((await dash('get', '/session', { session: elsewhere })).status).toBe(401);
    expect((await dash('get', '/session', { session: here })).body.data.account.email).toBe(next);
    expect(await auditActions(here.account.id)).toContain('account.email_change');
    expect((await gw.stores.auditLog.list({ accountId: here.account.id, limit: 1 })).items[0]).toMatchObject({ action: 'account.email_change', actor: { type: 'customer', via: 'portal' }, details: { before: email, after: next } });

    const fresh = await signIn(email);
    expect(fresh.account.id).not.toBe(here.account.id);
    expect((await signIn(next)).account.id).toBe(here.account.id);
    expect((await dash('post', '/account/email', { session: here, body: { email: next } })).body.error.details).toEqual({ reason: 'same_email' });
  });

  it('when the new address already has an account, then the answer is the one a free address gets, that address is told instead of sent a code, and nothing changes', async () => {
    const owner = await signIn();
    const other = `taken-${email}`;
    await signIn(other);
    const mails = inbox.to(other).length;
    const asked = await dash('post', '/account/email', { session: owner, body: { email: other } });
    expect([asked.status, Object.keys(asked.body.data), asked.body.message]).toEqual([202, ['email', 'expires_at'], 'Code sent to the new address; check your mail']);
    expect(asked.body.data.expires_at).toBe('2026-03-10T12:15:00.000Z');
    expect(inbox.to(other)).toHaveLength(mails + 1);
    expect(lastMail(other).subject).toBe('Your Tollgate email address');
    expect(lastMail(other).text).not.toMatch(/^ {4}\d{6}$/m);
    expect((await dash('post', '/account/email/confirm', { session: owner, body: { email: other, code: '123456' } })).status).toBe(401);
    expect((await gw.stores.accountStore.getAccount(owner.account.id))?.email).toBe(email);
  });

  it('when an account is exported and then deleted by a mailed code, then the export holds its keys and subscriptions, its keys answer 401 at once, its sessions end, the deletion is audited without the address, and the address signs in to a fresh account', async () => {
    const here = await signIn();
    const elsewhere = await signIn(email, IPHONE);
    const key = (await dash('post', '/keys', { session: here, body: { name: 'ci' } })).body.data;
    expect((await dash('put', '/subscriptions/burger', { session: here, body: { plan: 'free' } })).status).toBe(200);
    expect((await request(gw.app).get('/burger/v1/index').set(HEADER, key.key)).status).toBe(200);
    await gw.recorder.flush();
    // A webhook endpoint (the events room's route, so not among the dashboard's RouteDocs).
    const hook = await request(gw.app).post('/dashboard/v1/webhooks').set('cookie', `tg_session=${here.cookie}`).set('x-csrf-token', here.csrf).send({ url: 'http://127.0.0.1:9/hook', types: ['key.revoked'] });
    expect(hook.status).toBe(201);

    const exported = await dash('get', '/account/export', { session: here });
    expect(exported.status).toBe(200);
    const data = exported.body.data;
    expect(data.account).toMatchObject({ id: here.account.id, email });
    expect(data.keys.map((k: { id: string }) => k.id)).toEqual([key.id]);
    expect(JSON.stringify(data)).not.toContain(key.key);
    expect(data.subscriptions).toEqual({ burger: { plan: 'free', status: 'active' } });
    expect(data.usage.days.find((d: { api: string; day: string }) => d.api === 'burger' && d.day === '2026-03-10').counts['2xx']).toBe(1);
    expect(data.billing).toEqual({ customers: {}, subscriptions: {} });
    expect(data.audit.map((e: { action: string }) => e.action)).toEqual(expect.arrayContaining(['account.create', 'account.sign_in', 'key.create', 'subscription.set']));

    expect((await dash('post', '/account/delete', { session: here, body: {}, csrf: false })).status).toBe(403);
    const asked = await dash('post', '/account/delete', { session: here, body: {} });
    expect([asked.status, asked.body.data.email]).toEqual([202, email]);
    expect(lastMail(email).subject).toBe('Confirm deleting your Tollgate account');
    const code = signInCode(lastMail(email)).code;
    expect((await dash('post', '/account/delete/confirm', { session: here, body: { code: code === '000000' ? '000001' : '000000' } })).status).toBe(401);
    expect((await request(gw.app).get('/burger/v1/index').set(HEADER, key.key)).status).toBe(200);

    const deleted = await dash('post', '/account/delete/confirm', { session: here, body: { code } });
    expect([deleted.status, deleted.body.data]).toEqual([200, { deleted: true, account_id: here.account.id }]);
    expect(String(deleted.headers['set-cookie'])).toMatch(/^tg_session=;/);
    const refused = await request(gw.app).get('/burger/v1/index').set(HEADER, key.key);
    expect([refused.status, refused.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
    expect((await dash('get', '/account', { key: key.key })).status).toBe(401);
    for (const gone of [here, elsewhere]) expect((await dash('get', '/session', { session: gone })).status).toBe(401);
    const entries = (await gw.stores.auditLog.list({ accountId: here.account.id, limit: 1 })).items;
    expect(entries[0]).toMatchObject({ action: 'account.delete', actor: { type: 'customer', id: here.account.id, via: 'portal' }, details: { subscriptions: { burger: { plan: 'free', status: 'active' } } } });
    expect(JSON.stringify(entries[0])).not.toContain(email);
    expect(await gw.stores.accountStore.getAccount(here.account.id)).toBeUndefined();
    expect(await gw.stores.accountStore.findAccountByEmail(email)).toBeUndefined();
    expect(await gw.stores.eventStore.listEndpoints(here.account.id)).toEqual([]);
    // The server's totals keep the call, with no account.
    expect((await gw.stores.accountStore.serverHistory(['burger'], '2026-03-10', '2026-03-10'))[0]?.counts['2xx']).toBe(1);

    gw.clock.advance(3_600_000);
    const fresh = await signIn();
    expect(fresh.account.id).not.toBe(here.account.id);
    expect(fresh.account.subscriptions).toEqual({});
    expect((await dash('get', '/keys', { session: fresh })).body.data.items).toEqual([]);
  });
});
