import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';
import { rawCall } from '../support/raw-http';
import type { RawAnswer } from '../support/raw-http';
import { startAttackGateway } from './attack-gateway';
import type { AttackGateway } from './attack-gateway';

jest.setTimeout(60_000);

// What a browser on the portal's origin sends along with an API call: the portal's session and
// CSRF token, and credentials meant for the gateway, none of them the services'.
const AMBIENT = {
  cookie: 'tg_session=the-portal-session; theme=light; __Host-tg_csrf=x',
  authorization: 'Bearer a-token-for-someone-else',
  'x-csrf-token': 'the-portal-csrf-token',
};

describe.each(['sqlite', 'redis'] as const)('credentials between the client and the services, on the %s store', (store) => {
  let upstream: EchoUpstream;
  let gateway: AttackGateway;
  let key: string;
  beforeAll(async () => {
    upstream = await startEchoUpstream();
    // token takes Authorization and may set cookies; burger keeps the defaults (neither).
    gateway = await startAttackGateway(store, { TOKEN_URL: upstream.url, BURGER_URL: upstream.url, FORWARD_AUTHORIZATION: 'token', FORWARD_SET_COOKIE: 'token' });
    ({ key } = await gateway.newKey({ token: 'q', burger: 'q' }));
  });
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
  });
  const seenBy = (res: RawAnswer) => (res.json?.headers ?? {}) as Record<string, string | undefined>;

  it('when a call carries the portal’s cookie, CSRF header and an Authorization, then a service gets none of them by default, and other cookies pass', async () => {
    const res = await rawCall(`${gateway.url}/burger/v1/echo`, { headers: { ...AMBIENT, 'x-tollgate-key': key } });
    expect(res.status).toBe(200);
    const seen = seenBy(res);
    expect(seen.cookie).toBe('theme=light');
    expect(seen.authorization).toBeUndefined();
    expect(seen['x-csrf-token']).toBeUndefined();
    expect(JSON.stringify(seen)).not.toContain('the-portal');
  });

  it('when an API is configured to take Authorization, then its service gets it, and still not the portal’s cookie or CSRF header', async () => {
    const seen = seenBy(await rawCall(`${gateway.url}/token/v1/echo`, { headers: { ...AMBIENT, 'x-tollgate-key': key } }));
    expect(seen.authorization).toBe(AMBIENT.authorization);
    expect(seen.cookie).toBe('theme=light');
    expect(seen['x-csrf-token']).toBeUndefined();
  });

  it('when a service sets cookies, then none reaches the client by default, and a configured API passes its own but never the portal’s tg_session', async () => {
    const closed = await rawCall(`${gateway.url}/burger/v1/cookies`, { headers: { 'x-tollgate-key': key } });
    expect(closed.status).toBe(200);
    expect(closed.headers['set-cookie']).toBeUndefined();
    const open = await rawCall(`${gateway.url}/token/v1/cookies`, { headers: { 'x-tollgate-key': key } });
    expect(open.status).toBe(200);
    expect(open.headers['set-cookie']).toEqual(['theme=dark; Path=/']);
  });
});
