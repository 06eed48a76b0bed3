import request from 'supertest';
import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';
import { buildGateway } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';
import { signInCode, startSmtpInbox } from '../support/smtp-inbox';
import type { SmtpInbox } from '../support/smtp-inbox';

// Attacks on the portal's sign-in found in review, each pinned by a test that fails without its fix.

jest.setTimeout(60_000);

const START = Date.parse('2026-03-10T12:00:00.000Z');

let upstream: EchoUpstream;
let inbox: SmtpInbox;
let gw: GatewayFixture | undefined;
beforeAll(async () => {
  [upstream, inbox] = await Promise.all([startEchoUpstream(), startSmtpInbox()]);
});
afterEach(async () => {
  await gw?.close();
  gw = undefined;
});
afterAll(async () => {
  await Promise.all([upstream.close(), inbox.close()]);
});

async function build(env: Record<string, string> = {}): Promise<GatewayFixture> {
  gw = await buildGateway({ upstream: upstream.url, start: START, env: { SMTP_URL: inbox.url, ...env } });
  return gw;
}

describe('the link in a sign-in mail (Host-header poisoning)', () => {
  it('when someone asks a code for another address with a Host of their own and no PUBLIC_URL, then the mail carries the code but no link to that host', async () => {
    const app = (await build()).app;
    for (const host of ['evil.example', 'evil.example:443', 'localhost@evil.example', 'evil.example/portal', '127.0.0.1.evil.example']) {
      const email = `victim-${inbox.messages.length}@example.com`;
      const asked = await request(app).post('/dashboard/v1/sign-in').set('host', host).send({ email });
      expect(asked.status).toBe(202);
      const mail = inbox.to(email).at(-1)!;
      expect(signInCode(mail).link).toBeUndefined();
      expect(mail.text).not.toMatch(/evil/);
      expect(mail.text).toMatch(/sign-in page of the Tollgate portal/);
    }
  });

  it('when the Host names a loopback address or the gateway itself, then the link points there (a local try needs no PUBLIC_URL)', async () => {
    const app = (await build()).app;
    await request(app).post('/dashboard/v1/sign-in').set('host', 'localhost:9090').send({ email: 'local@example.com' }).expect(202);
    expect(signInCode(inbox.to('local@example.com').at(-1)!).link).toMatch(/^http:\/\/localhost:9090\/portal\/sign-in\?email=local%40example\.com&token=[\w-]{43}$/);
    // supertest sends the Host it connected to: the gateway's own address and port.
    await request(app).post('/dashboard/v1/sign-in').send({ email: 'own@example.com' }).expect(202);
    expect(signInCode(inbox.to('own@example.com').at(-1)!).link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/portal\/sign-in\?/);
  });
});

describe('the per-client limit on codes and sign-ups (IPv6)', () => {
  it('when one client steps through the addresses of its IPv6 /64, then the codes it asks for are counted together', async () => {
    const app = (await build({ SIGNINS_PER_HOUR: '3', TRUSTED_PROXIES: 'loopback' })).app;
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i++) {
      const res = await request(app).post('/dashboard/v1/sign-in').set('x-forwarded-for', `2001:db8:7:7::${i.toString(16)}`).send({ email: `spread${i}@example.com` });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([202, 202, 202, 429, 429]);
    expect(inbox.to('spread4@example.com')).toHaveLength(0);
    // Another /64 is another client.
    await request(app).post('/dashboard/v1/sign-in').set('x-forwarded-for', '2001:db8:7:8::1').send({ email: 'spread6@example.com' }).expect(202);
  });

  it('when one client signs up through JSON from many addresses of its IPv6 /64, then the sign-ups are counted together', async () => {
    const app = (await build({ SIGNUPS_PER_HOUR: '2', TRUSTED_PROXIES: 'loopback' })).app;
    const statuses: number[] = [];
    for (let i = 1; i <= 3; i++) statuses.push((await request(app).post('/dashboard/v1/signup').set('x-forwarded-for', `2001:db8:9:9:${i}::1`).send({ email: `json${i}@example.com` })).status);
    expect(statuses).toEqual([202, 202, 429]);
  });
});
