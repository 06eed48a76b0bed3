import fc from 'fast-check';
import request from 'supertest';
import { validateResponse } from '@tollgate/envelope';
import { HOSTILE_TEXT, PROTOTYPE_NAMES } from '@tollgate/envelope/test/hostile-requests';
import { codeHash } from '../../src/data/session-store';
import { dashboardRouteOf } from '../support/dashboard-route';
import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';
import { buildGateway } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';

jest.setTimeout(120_000);

const START = Date.parse('2026-03-10T12:00:00.000Z');
type Method = 'get' | 'post' | 'put' | 'delete';

let upstream: EchoUpstream;
let gw: GatewayFixture;
beforeAll(async () => {
  upstream = await startEchoUpstream();
  // No SMTP_URL: mail goes to the (silent) log; a high limit so most calls reach the handlers.
  gw = await buildGateway({ upstream: upstream.url, start: START, env: { SIGNINS_PER_HOUR: '100000' } });
});
afterAll(async () => {
  await gw.close();
  await upstream.close();
});

const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 120 });
const hostile = HOSTILE_TEXT.filter((t) => /^[\x20-\x7e]*$/.test(t));

/** Signs `email` in with a code put in place of the mailed one: the cookie and CSRF token. */
async function signedIn(email: string): Promise<{ cookie: string; csrf: string }> {
  await request(gw.app).post('/dashboard/v1/sign-in').send({ email }).expect(202);
  const subject = `sign-in:${email}`;
  await gw.stores.sessionStore.putCode(subject, '127.0.0.1', { hash: codeHash(subject, '123456'), tokenHash: '', expiresAtMs: START + 900_000, tries: 5 }, { maxLive: 3, nowMs: START });
  const res = await request(gw.app).post('/dashboard/v1/sign-in/verify').send({ email, code: '123456' }).expect(200);
  const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0]!.split(';')[0]!.slice('tg_session='.length);
  return { cookie, csrf: res.body.data.csrf_token };
}

describe('account settings under hostile input (property-based)', () => {
  it('when bodies, ids, cookies and CSRF tokens are generated for the account-settings routes, then never a 5xx, every answer in the envelope and as documented, and the account stays', async () => {
    const { cookie, csrf } = await signedIn('owner@example.com');
    await signedIn('taken@example.com');
    const email = fc.oneof(
      { weight: 3, arbitrary: fc.emailAddress() },
      fc.constantFrom('owner@example.com', 'TAKEN@example.com', 'a@b', '@', `${'a'.repeat(250)}@b.io`, ...PROTOTYPE_NAMES, ...hostile),
      fc.string({ maxLength: 300 }),
      fc.jsonValue(),
    );
    const code = fc.oneof(fc.integer({ min: 0, max: 999_999 }).map((n) => String(n).padStart(6, '0')), fc.constantFrom('', '1234567', ' 123456', 123456, null, '１２３４５６'), fc.string({ maxLength: 20 }));
    const body = fc.oneof(
      { weight: 4, arbitrary: fc.record({ email, code }, { requiredKeys: [] }).map((o) => JSON.stringify(o)) },
      { weight: 2, arbitrary: fc.emailAddress().map((e) => JSON.stringify({ email: e })) },
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.constantFrom('', '{', 'null', '[]', '{}', '{"__proto__":{"email":"x@y.io"}}', `{"email":"${'e'.repeat(5000)}@x.io"}`),
    );
    const id = fc.oneof(fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 24, maxLength: 24 }), fc.constantFrom('', '..', '%2e%2e', '__proto__', 'constructor', '0'.repeat(25), 'ZZZZZZZZZZZZZZZZZZZZZZZZ'), printable.map(encodeURIComponent));
    const target = fc.oneof(
      fc.constantFrom<[Method, string]>(
        ['get', '/account/sessions'],
        ['delete', '/account/sessions'],
        ['post', '/account/email'],
        ['post', '/account/email/confirm'],
        ['get', '/account/export'],
        ['post', '/account/delete'],
        ['post', '/account/delete/confirm'],
      ),
      id.map((s): [Method, string] => ['delete', `/account/sessions/${s}`]),
    );
    const cookieHeader = fc.oneof({ weight: 4, arbitrary: fc.constant(`tg_session=${cookie}`) }, fc.constantFrom('', 'tg_session=', `tg_session=${cookie}x`, `tg_session=${cookie}; tg_session=x`), printable.map((s) => `tg_session=${s}`));
    const csrfHeader = fc.option(fc.oneof({ weight: 3, arbitrary: fc.constant(csrf) }, printable, fc.constantFrom(csrf.toUpperCase(), '')), { nil: undefined });
    const keyHeader = fc.option(fc.oneof(printable, fc.constant(`tg_${'A'.repeat(40)}`)), { nil: undefined });

    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(target, body, cookieHeader, csrfHeader, keyHeader, async ([method, path], raw, cookieValue, csrfValue, key) => {
        let call = request(gw.app)[method](`/dashboard/v1${path}`).set('cookie', cookieValue);
        if (csrfValue !== undefined) call = call.set('x-csrf-token', csrfValue);
        if (key !== undefined) call = call.set('x-tollgate-key', key);
        if (method !== 'get') call = call.set('content-type', 'application/json').send(raw);
        const res = await call;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status).toBeLessThan(500);
        // Routing is not strict: a trailing slash is the route without it.
        const doc = dashboardRouteOf(method, `/dashboard/v1${path}`.replace(/\/$/, ''));
        expect(doc).toBeDefined();
        expect(validateResponse(doc!, res.status, res.body)).toEqual([]);
      }),
      { numRuns: 600, seed: 20261125 },
    );
    expect([...statuses.keys()].sort()).toEqual(expect.arrayContaining([200, 202, 400, 401, 403, 404]));
    // Nothing generated moved, deleted or signed out the account.
    const session = await request(gw.app).get('/dashboard/v1/session').set('cookie', `tg_session=${cookie}`);
    expect([session.status, session.body.data?.account?.email]).toEqual([200, 'owner@example.com']);
  });
});
