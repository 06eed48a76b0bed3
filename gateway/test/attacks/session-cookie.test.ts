import request from 'supertest';
import { startGatewayProcess } from '../support/gateway-process';
import { STORE_KINDS, lastCode, sessionCookieSet, useAttackWorld } from './attack-target';

// Issue 20, item 7: behind a TLS-terminating proxy not named in TRUSTED_PROXIES, the session cookie went out without Secure.

jest.setTimeout(120_000);

const world = useAttackWorld();

// The proxy in front is not the one that calls: the gateway sees plain HTTP and believes no X-Forwarded-Proto.
const UNSEEN_PROXY = { TRUSTED_PROXIES: '192.0.2.1' };

describe.each(STORE_KINDS)('the session cookie with the %s store', (kind) => {
  let n = 0;
  /** Signs in over plain HTTP (typed code, or the link) and signs out: the attributes of both cookies. */
  async function cookies(env: Record<string, string>, by: 'code' | 'link' = 'code'): Promise<{ set: string[]; cleared: string[] }> {
    const gw = await world.gateway(kind, env);
    const email = `cookie${++n}-${kind}@example.com`;
    const tls = { 'x-forwarded-proto': 'https' };
    await request(gw.app).post('/dashboard/v1/sign-in').set(tls).send({ email }).expect(202);
    const { code, token } = lastCode(world.inbox, email);
    const signedIn = by === 'code' ? await request(gw.app).post('/dashboard/v1/sign-in/verify').set(tls).send({ email, code }) : await request(gw.app).post('/dashboard/v1/sign-in/link').set(tls).send({ email, token });
    const set = sessionCookieSet(signedIn)!;
    const out = await request(gw.app).delete('/dashboard/v1/session').set(tls).set('cookie', `tg_session=${set.value}`).set('x-csrf-token', signedIn.body.data.csrf_token);
    return { set: set.attributes, cleared: sessionCookieSet(out)!.attributes };
  }

  it('when PUBLIC_URL is https, then the cookie is Secure (set and cleared) though the request came as plain HTTP from an unseen proxy', async () => {
    for (const by of ['code', 'link'] as const) {
      const { set, cleared } = await cookies({ ...UNSEEN_PROXY, PUBLIC_URL: 'https://portal.example.com' }, by);
      expect([by, set, cleared]).toEqual([by, expect.arrayContaining(['Secure', 'HttpOnly', 'SameSite=Lax']), expect.arrayContaining(['Secure', 'HttpOnly'])]);
    }
  });

  it('when PUBLIC_URL is http or unset, then a plain-HTTP request gets no Secure cookie (a local try still signs in)', async () => {
    for (const env of [UNSEEN_PROXY, { ...UNSEEN_PROXY, PUBLIC_URL: 'http://localhost:8080' }]) {
      const { set } = await cookies(env);
      expect(set).not.toContain('Secure');
    }
  });
});

describe('the start-up line about PUBLIC_URL and TRUSTED_PROXIES', () => {
  const warnings = async (env: Record<string, string>): Promise<string[]> => {
    const gw = await startGatewayProcess({ SMTP_URL: world.inbox.url, ...env });
    await gw.stop();
    return gw.output.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((l) => l.level === 40 && l.msg.startsWith('PUBLIC_URL')).map((l) => l.msg);
  };

  it('when PUBLIC_URL is https and no proxy is trusted, then the gateway says at start that the cookie is Secure from PUBLIC_URL and clients count as the proxy; with TRUSTED_PROXIES, nothing', async () => {
    expect(await warnings({ PUBLIC_URL: 'https://portal.example.com' })).toEqual([expect.stringMatching(/^PUBLIC_URL is https but TRUSTED_PROXIES is not set: .*marked Secure because of PUBLIC_URL.*set TRUSTED_PROXIES/)]);
    expect(await warnings({ PUBLIC_URL: 'https://portal.example.com', TRUSTED_PROXIES: '10.0.0.0/8' })).toEqual([]);
  });
});
