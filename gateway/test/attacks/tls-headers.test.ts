import request from 'supertest';
import { ADMIN_TOKEN } from '../support/gateway-fixture';
import { rawCall } from '../support/raw-http';
import { startAttackGateway } from './attack-gateway';
import type { AttackGateway } from './attack-gateway';
import { STORE_KINDS, useAttackWorld } from './attack-target';

// Issue 35, item 14: behind a TLS proxy with an https PUBLIC_URL the console's cookie went out without
// Secure (the portal's had it), and no answer carried Strict-Transport-Security.

jest.setTimeout(120_000);

const world = useAttackWorld();
const HTTPS = 'https://gateway.example.com';
// The proxy in front is not the one that calls: the gateway sees plain HTTP and believes no X-Forwarded-Proto.
const UNSEEN_PROXY = { TRUSTED_PROXIES: '192.0.2.1' };

describe.each(STORE_KINDS)('the console cookie behind a TLS proxy with the %s store', (kind) => {
  const consoleCookie = (res: request.Response): string[] => {
    const header = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('tg_console='));
    return header ? header.split(';').map((part) => part.trim()).slice(1) : [];
  };

  it('when PUBLIC_URL is https, then the console cookie is Secure, set and cleared, though the request came as plain HTTP from an unseen proxy', async () => {
    const gw = await world.gateway(kind, { ...UNSEEN_PROXY, PUBLIC_URL: HTTPS });
    const signedIn = await request(gw.app).post('/admin/console/v1/sign-in/token').send({ token: ADMIN_TOKEN }).expect(200);
    const out = await request(gw.app).delete('/admin/console/v1/session').set('cookie', String(signedIn.headers['set-cookie']).split(';')[0]!).set('x-csrf-token', signedIn.body.data.csrf_token).expect(200);
    expect([consoleCookie(signedIn), consoleCookie(out)]).toEqual([expect.arrayContaining(['Secure', 'HttpOnly', 'SameSite=Strict', 'Path=/admin']), expect.arrayContaining(['Secure', 'Path=/admin'])]);
  });

  it('when PUBLIC_URL is http, then a plain-HTTP request gets a console cookie without Secure (a local try still signs in)', async () => {
    const gw = await world.gateway(kind, { ...UNSEEN_PROXY, PUBLIC_URL: 'http://localhost:8080' });
    const signedIn = await request(gw.app).post('/admin/console/v1/sign-in/token').send({ token: ADMIN_TOKEN }).expect(200);
    expect(consoleCookie(signedIn)).not.toContain('Secure');
  });
});

describe.each(STORE_KINDS)('Strict-Transport-Security from the gateway process with the %s store', (kind) => {
  let gateway: AttackGateway | undefined;
  afterEach(async () => {
    await gateway?.stop();
    gateway = undefined;
  });

  /** Every kind of answer the gateway gives: pages, JSON, refusals, errors, and proxied calls on the fast path. */
  async function answers(env: Record<string, string>): Promise<[string, number, string | undefined][]> {
    gateway = await startAttackGateway(kind, { ...env, TOKEN_URL: world.upstream.url });
    const { key } = await gateway.newKey({ token: 'q' });
    const calls: [string, Record<string, string>][] = [
      ['/healthz', {}],
      ['/portal/', {}],
      ['/admin/sign-in', {}],
      ['/dashboard/v1/plans', {}],
      ['/dashboard/v1/session', {}],
      ['/admin/v1/accounts', {}],
      ['/metrics', {}],
      ['/nowhere', {}],
      ['/token/v1/meta', { 'x-tollgate-key': key }],
      ['/token/v1/meta', {}],
      ['/token/v1/../meta', {}],
    ];
    const seen: [string, number, string | undefined][] = [];
    for (const [path, headers] of calls) {
      const res = await rawCall(`${gateway.url}${path}`, { method: 'GET', headers });
      seen.push([path, res.status, res.headers['strict-transport-security'] as string | undefined]);
    }
    const preflight = await rawCall(`${gateway.url}/token/v1/meta`, { method: 'OPTIONS', headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET' } });
    seen.push(['OPTIONS /token/v1/meta', preflight.status, preflight.headers['strict-transport-security'] as string | undefined]);
    return seen;
  }

  it('when PUBLIC_URL is https, then every answer carries Strict-Transport-Security for a year: pages, JSON, refusals, errors and proxied calls', async () => {
    const seen = await answers({ PUBLIC_URL: HTTPS, TRUSTED_PROXIES: 'loopback' });
    expect(seen.find(([path, status]) => path === '/token/v1/meta' && status === 200)).toBeDefined();
    for (const [path, status, hsts] of seen) expect([path, status, hsts]).toEqual([path, status, 'max-age=31536000']);
  });

  it('when PUBLIC_URL is http or unset, then no answer carries it (a browser would keep it for the name)', async () => {
    for (const env of [{}, { PUBLIC_URL: 'http://localhost:8080' }] as Record<string, string>[]) {
      const seen = await answers(env);
      await gateway!.stop();
      gateway = undefined;
      for (const [path, status, hsts] of seen) expect([path, status, hsts]).toEqual([path, status, undefined]);
    }
  });
});
