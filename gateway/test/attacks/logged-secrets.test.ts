import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startGatewayProcess } from '../support/gateway-process';
import type { GatewayProcess } from '../support/gateway-process';
import { rawCall } from '../support/raw-http';
import { eventually } from '../support/eventually';
import { STORE_KINDS, useAttackWorld } from './attack-target';
import type { StoreKind } from './attack-target';

// Issue 20, item 6: `/portal/sign-in?email=…&code=…` was written whole to the access log.

jest.setTimeout(120_000);

const ADMIN = 'attack-admin-token-0123456789';
const PROXY = 'attack-proxy-secret-0123456789';

const world = useAttackWorld();
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tollgate-logs-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(STORE_KINDS)('what the gateway logs, with the %s store', (kind: StoreKind) => {
  let gw: GatewayProcess;
  beforeAll(async () => {
    gw = await startGatewayProcess({
      ADMIN_TOKEN: ADMIN,
      PROXY_SECRET: PROXY,
      SMTP_URL: world.inbox.url,
      TOKEN_URL: world.upstream.url,
      LOG_LEVEL: 'info',
      ...(kind === 'redis' ? { REDIS_URL: world.redis.url } : { STORE_PATH: path.join(dir, 'logs.db') }),
    });
  });
  afterAll(() => gw.stop());

  /** The access-log lines (either path's) of requests whose URL starts with `prefix`. */
  const accessLines = (prefix: string): { req: { method: string; url: string } }[] =>
    gw.output.map((line) => JSON.parse(line) as { req?: { method: string; url: string } }).filter((l): l is { req: { method: string; url: string } } => l.req?.url.startsWith(prefix) === true);

  it('when secrets travel in query strings and headers on every path, then no log line holds one, and each URL is logged with them redacted', async () => {
    const made = await rawCall(`${gw.url}/admin/v1/keys`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify({ owner: `logs-${kind}@example.com`, subscriptions: { token: 'free' } }) });
    const key = (made.json!.data as { key: string }).key;
    const secrets = {
      code: '918273',
      token: 'LinkTokenLinkTokenLinkTokenLinkTokenLinkTok',
      key,
      cookie: 'CookieValueCookieValueCookieValueCookieVal',
      csrf: 'CsrfTokenCsrfTokenCsrfTokenCsrfTokenCsrfTok',
      admin: ADMIN,
      bearer: 'BearerValueBearerValue',
    };
    const headers = { 'x-tollgate-key': key, authorization: `Bearer ${secrets.bearer}`, cookie: `tg_session=${secrets.cookie}`, 'x-csrf-token': secrets.csrf };
    // The portal page and the dashboard (Express), the API (the fast path), the admin API.
    await rawCall(`${gw.url}/portal/sign-in?email=ada%40example.com&code=${secrets.code}&token=${secrets.token}`, { headers });
    await rawCall(`${gw.url}/dashboard/v1/session?session=${secrets.cookie}`, { headers });
    await rawCall(`${gw.url}/token/v1/prices?coins=eth&key=${key}&x-tollgate-key=${key}&code=${secrets.code}`, { headers });
    await rawCall(`${gw.url}/token/v1/prices?api_key=${key}`, { headers: { ...headers, 'x-tollgate-key': 'tg_wrong' } });
    await rawCall(`${gw.url}/admin/v1/accounts?limit=1&access_token=${secrets.admin}`, { headers: { ...headers, authorization: `Bearer ${ADMIN}` } });
    await eventually(async () => accessLines('/admin/v1/accounts').length > 0 && accessLines('/token/v1/prices').length === 2, 'the access-log lines');

    expect(accessLines('/portal/sign-in').map((l) => l.req.url)).toEqual(['/portal/sign-in?email=ada%40example.com&code=[redacted]&token=[redacted]']);
    expect(accessLines('/dashboard/v1/session').map((l) => l.req.url)).toEqual(['/dashboard/v1/session?session=[redacted]']);
    expect(accessLines('/token/v1/prices').map((l) => l.req.url)).toEqual(['/token/v1/prices?coins=eth&key=[redacted]&x-tollgate-key=[redacted]&code=[redacted]', '/token/v1/prices?api_key=[redacted]']);
    expect(accessLines('/admin/v1/accounts').map((l) => l.req.url)).toEqual(['/admin/v1/accounts?limit=1&access_token=[redacted]']);
    const log = gw.output.join('\n');
    for (const [what, secret] of Object.entries(secrets)) expect([what, log.includes(secret)]).toEqual([what, false]);
    expect(log).not.toContain(PROXY);
  });
});
