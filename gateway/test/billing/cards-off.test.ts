import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { validateResponse } from '@tollgate/envelope';
import { BILLING_ROUTES } from '../../src/billing/billing-routes';
import { sha256 } from '../../src/data/session-store';
import { ADMIN_TOKEN, buildGateway } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';
import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';

let upstream: EchoUpstream;
let gw: GatewayFixture;

beforeAll(async () => {
  upstream = await startEchoUpstream();
  gw = await buildGateway({ upstream: upstream.url, env: { SUPPORT_EMAIL: 'sales@example.com' } });
});
afterAll(async () => {
  await gw.close();
  await upstream.close();
});

async function verifiedKey(): Promise<string> {
  return (await verifiedAccount()).key;
}

/** A proven account's key, and a portal session of it made as a sign-in makes one (what moves money takes the session only). */
async function verifiedAccount(): Promise<{ key: string; session: Record<string, string> }> {
  const account = await gw.stores.accountStore.createAccount({ email: `p${Math.random()}@example.com` });
  const key = (await gw.stores.accountStore.createKey(account.id, { name: 'k' }))!.key;
  const [cookie, csrf] = [randomBytes(32).toString('base64url'), randomBytes(32).toString('base64url')];
  const nowMs = gw.clock.now();
  await gw.stores.sessionStore.putSession(sha256(cookie), { account_id: account.id, csrf_token: csrf, created_at: new Date(nowMs).toISOString(), expires_at: new Date(nowMs + 3_600_000).toISOString() });
  return { key, session: { cookie: `tg_session=${cookie}`, 'x-csrf-token': csrf } };
}

describe('a gateway without STRIPE_SECRET_KEY', () => {
  it('when a paid plan is chosen, then it is refused in plain words naming SUPPORT_EMAIL, never a command', async () => {
    const key = await verifiedKey();
    const res = await request(gw.app).put('/dashboard/v1/subscriptions/token').set('x-tollgate-key', key).send({ plan: 'pro' });
    expect(res.status).toBe(402);
    expect(res.body.message).toBe("The token API's pro plan costs 25.00 EUR a month, and card payments are not set up here yet. To get it, write to sales@example.com.");
    expect(res.body.message).not.toMatch(/\bcli\b|pnpm|operator/i);
  });

  it('when the portal asks for billing, then it learns cards are off and whom to ask; every other billing route says the same', async () => {
    const { key, session } = await verifiedAccount();
    const status = await request(gw.app).get('/dashboard/v1/billing/status').set('x-tollgate-key', key);
    expect(status.body.data).toEqual({ card_payments: false, support_email: 'sales@example.com', subscriptions: [] });
    expect(validateResponse(BILLING_ROUTES.status, status.status, status.body)).toEqual([]);
    for (const [method, path] of [['get', '/dashboard/v1/billing'], ['post', '/dashboard/v1/billing/checkout'], ['post', '/dashboard/v1/billing/portal']] as const) {
      const res = await request(gw.app)[method](path).set(method === 'post' ? session : { 'x-tollgate-key': key }).send(method === 'post' ? (path.endsWith('checkout') ? { api: 'token', plan: 'pro' } : {}) : undefined);
      expect([path, res.status, res.body.message]).toEqual([path, 404, 'card payments are not set up on this server, so paid plans cannot be taken here; write to sales@example.com']);
    }
    expect((await request(gw.app).get('/dashboard/v1/billing/status')).status).toBe(401);
  });

  it('when an operator or Stripe calls billing, then it is 404 saying card payments are off', async () => {
    const summary = await request(gw.app).get('/admin/billing/summary').set('authorization', `Bearer ${ADMIN_TOKEN}`);
    expect(summary.status).toBe(404);
    expect(summary.body.message).toContain('set STRIPE_SECRET_KEY');
    expect((await request(gw.app).get('/admin/billing/summary')).status).toBe(401);
    const webhook = await request(gw.app).post('/billing/webhook').set('stripe-signature', 't=1,v1=00').send('{}');
    expect(webhook.status).toBe(404);
  });
});
