import fc from 'fast-check';
import request from 'supertest';
import { validateResponse } from '@tollgate/envelope';
import { PROTOTYPE_NAMES } from '@tollgate/envelope/test/hostile-requests';
import { dashboardRouteOf } from '../support/dashboard-route';
import { hostileHeaderText as hostile, printable, signInWithKnownCode, useHostileDashboard } from '../support/hostile-dashboard';

jest.setTimeout(120_000);

type Method = 'get' | 'post' | 'put' | 'delete';

const gw = useHostileDashboard();

describe('account settings under hostile input (property-based)', () => {
  it('when bodies, ids, cookies and CSRF tokens are generated for the account-settings routes, then never a 5xx, every answer in the envelope and as documented, and the account stays', async () => {
    const { cookie, csrf } = await signInWithKnownCode(gw, 'owner@example.com');
    await signInWithKnownCode(gw, 'taken@example.com');
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
