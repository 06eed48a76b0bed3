import request from 'supertest';
import { operatorRouteDocs } from '../../src/gateway-route-docs';
import { ADMIN_TOKEN, buildGateway } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';
import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';

// Every admin route under /admin/v1 (issue 40): billing's moved from /admin/billing, whose paths
// keep answering the same, marked deprecated (RFC 9745) with a sunset (RFC 8594) and a successor.

let upstream: EchoUpstream;
let gw: GatewayFixture;
beforeAll(async () => {
  upstream = await startEchoUpstream();
  gw = await buildGateway({ upstream: upstream.url });
});
afterAll(async () => {
  await gw.close();
  await upstream.close();
});

const bearer = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe('the admin API’s paths', () => {
  it('when the operators’ reference lists the admin routes, then every one is under /admin/v1', () => {
    expect(operatorRouteDocs().map((doc) => doc.path).filter((path) => !path.startsWith('/admin/v1/'))).toEqual([]);
  });

  it.each([
    ['get', '/summary'],
    ['get', '/accounts/acc_000000000000000000000000'],
    ['post', '/reconcile'],
  ] as const)('when %s /admin/billing%s is called, then it answers as /admin/v1/billing does, marked deprecated with its sunset and successor', async (method, rest) => {
    const now = await request(gw.app)[method](`/admin/v1/billing${rest}`).set(bearer);
    const old = await request(gw.app)[method](`/admin/billing${rest}`).set(bearer);
    expect([old.status, old.body.error, old.body.message]).toEqual([now.status, now.body.error, now.body.message]);
    expect(now.headers).not.toHaveProperty('deprecation');
    expect(now.headers).not.toHaveProperty('sunset');
    expect(old.headers.deprecation).toMatch(/^@\d+$/);
    expect(new Date(Number(old.headers.deprecation!.slice(1)) * 1000).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(old.headers.sunset).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
    expect(old.headers.link).toBe(`</admin/v1/billing${rest}>; rel="successor-version", </admin/docs>; rel="deprecation"; type="text/html"`);
    expect(old.headers['cache-control']).toBe('no-store');
    // The admin token is asked for on both.
    const [anonymousNow, anonymousOld] = await Promise.all([request(gw.app)[method](`/admin/v1/billing${rest}`), request(gw.app)[method](`/admin/billing${rest}`)]);
    expect([anonymousNow.status, anonymousOld.status]).toEqual([401, 401]);
  });
});
