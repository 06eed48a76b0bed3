import fc from 'fast-check';
import request from 'supertest';
import { validateResponse } from '@tollgate/envelope';
import { PROTOTYPE_NAMES } from '@tollgate/envelope/test/hostile-requests';
import { dashboardRouteOf } from '../support/dashboard-route';
import { hostileHeaderText as hostile, printable, signInWithKnownCode, useHostileDashboard } from '../support/hostile-dashboard';

jest.setTimeout(120_000);

type Method = 'get' | 'post' | 'put' | 'delete';

const gw = useHostileDashboard();

describe('sign-in, sessions and CSRF under hostile input (property-based)', () => {
  it('when emails, codes, cookies, CSRF tokens and forwarded headers are generated, then never a 5xx, every answer in the envelope and as documented', async () => {
    // A real session, so generated CSRF tokens and bodies reach the handlers behind it.
    const { cookie, csrf } = await signInWithKnownCode(gw, 'fuzz@example.com');

    const email = fc.oneof(
      { weight: 4, arbitrary: fc.emailAddress() },
      fc.constantFrom('fuzz@example.com', 'FUZZ@EXAMPLE.COM', ' a@b.io ', 'a@b', '@', 'a@@b.io', `${'a'.repeat(250)}@b.io`, ...PROTOTYPE_NAMES, ...hostile),
      fc.string({ maxLength: 300 }),
      fc.jsonValue(),
    );
    const code = fc.oneof(fc.integer({ min: 0, max: 999_999 }).map((n) => String(n).padStart(6, '0')), fc.constantFrom('123456', '', '1234567', '12345', ' 123456', 123456, null, '１２３４５６'), fc.string({ maxLength: 20 }));
    const cookieHeader = fc.oneof(
      { weight: 3, arbitrary: fc.constant(`tg_session=${cookie}`) },
      fc.constantFrom('', 'tg_session=', 'tg_session', `tg_session=${cookie}x`, `a=b; tg_session=${cookie}; c=d`, `tg_session=${'A'.repeat(43)}`, 'tg_session=__proto__', `tg_session=${cookie}; tg_session=x`),
      printable.map((s) => `tg_session=${s}`),
      printable,
    );
    const csrfHeader = fc.option(fc.oneof({ weight: 2, arbitrary: fc.constant(csrf) }, printable, fc.constantFrom(`${csrf} `, csrf.toUpperCase(), '')), { nil: undefined });
    const forwarded = fc.record({ 'x-forwarded-proto': fc.constantFrom('https', 'http', 'ftp', '', 'https, http'), 'x-forwarded-for': fc.constantFrom('10.0.0.1', 'nonsense', '', '::1, 1.2.3.4'), host: fc.oneof({ weight: 3, arbitrary: fc.constant('portal.example') }, fc.constantFrom('evil.example', 'a b', '[::1]:80', 'x:99999', '%00', 'user@host', '__proto__'), printable) }, { requiredKeys: [] });
    const body = fc.oneof(
      { weight: 4, arbitrary: fc.record({ email, code }, { requiredKeys: [] }).map((o) => JSON.stringify(o)) },
      fc.record({ email, token: fc.oneof(fc.string({ maxLength: 60 }), fc.constant('A'.repeat(43)), fc.constant(null)) }, { requiredKeys: [] }).map((o) => JSON.stringify(o)),
      fc.record({ name: fc.oneof(fc.constant('k'), fc.string({ maxLength: 120 })), grace_seconds: fc.oneof(fc.integer(), fc.constant(60)) }, { requiredKeys: [] }).map((o) => JSON.stringify(o)),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.constantFrom('', '{', 'null', '[]', '{"__proto__":{"email":"x@y.io"}}', `{"email":"${'e'.repeat(5000)}@x.io"}`),
    );
    const target = fc.constantFrom<[Method, string]>(
      ['post', '/sign-in'],
      ['post', '/sign-in/verify'],
      ['post', '/sign-in/link'],
      ['get', '/session'],
      ['delete', '/session'],
      ['get', '/account'],
      ['get', '/plans'],
      ['post', '/keys'],
      ['get', '/keys'],
      ['post', '/account/verify-email'],
      ['post', '/account/verify-email/confirm'],
      ['post', '/keys/key_000000000000000000000000/end-grace'],
      ['put', '/subscriptions/token'],
    );

    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(target, body, cookieHeader, csrfHeader, forwarded, async ([method, path], raw, cookieValue, csrfValue, headers) => {
        // Signing out would end the session the run relies on: only with a token that is not its own
        // (HTTP drops a header value's surrounding spaces, so those count as its own too).
        if (method === 'delete' && csrfValue?.trim() === csrf) return;
        let call = request(gw.app)[method](`/dashboard/v1${path}`).set('cookie', cookieValue);
        if (csrfValue !== undefined) call = call.set('x-csrf-token', csrfValue);
        for (const [name, value] of Object.entries(headers)) call = call.set(name, value);
        if (method !== 'get') call = call.set('content-type', 'application/json').send(raw);
        const res = await call;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status).toBeLessThan(500);
        expect(validateResponse(dashboardRouteOf(method, `/dashboard/v1${path}`)!, res.status, res.body)).toEqual([]);
      }),
      { numRuns: 800, seed: 20260310 },
    );
    // The run reached the handlers, not only the refusals in front of them.
    expect([...statuses.keys()].sort()).toEqual(expect.arrayContaining([200, 202, 400, 401, 403]));
    // And the session is still the caller's: nothing generated signed it out or changed its account.
    expect((await request(gw.app).get('/dashboard/v1/session').set('cookie', `tg_session=${cookie}`)).status).toBe(200);
  });
});
