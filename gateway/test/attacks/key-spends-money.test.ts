import request from 'supertest';
import Stripe from 'stripe';
import { createStripeLocal } from '@tollgate/stripe-local';
import type { StripeLocal } from '@tollgate/stripe-local';
import { createStripeProvider } from '../../src/billing/stripe/stripe-provider';
import type { GatewayFixture } from '../support/gateway-fixture';
import { ATTACK_START, PAID_PLANS, STORE_KINDS, signIn, useAttackWorld, withSession } from './attack-target';

// Issue 35, item 4: a data key alone could start a Checkout, upgrade a paid plan (the card charged at
// once) and open Stripe's customer portal. Keys live in scripts, CI and logs.

jest.setTimeout(120_000);

const world = useAttackWorld();
let local: StripeLocal;
let stripe: Stripe;
let gw: GatewayFixture | undefined;
beforeAll(async () => {
  // Stripe's time is the gateway's (a manual clock), so periods and charges agree with it.
  local = createStripeLocal({ clock: () => gw?.clock.now() ?? ATTACK_START });
  const { hostname, port } = new URL(await local.listen(0));
  stripe = new Stripe('sk_test_tollgate_attacks', { host: hostname, port: Number(port), protocol: 'http', maxNetworkRetries: 0 });
});
afterAll(() => local.close());

describe.each(STORE_KINDS)('money and a leaked key with the %s store', (kind) => {
  let n = 0;
  let email: string;
  beforeEach(async () => {
    gw = await world.gateway(kind, { STRIPE_SECRET_KEY: 'sk_test_tollgate_attacks', STRIPE_API_BASE: local.url, PUBLIC_URL: 'https://portal.example.com' }, PAID_PLANS);
    await createStripeProvider(gw.config.billing!, PAID_PLANS, gw.clock.now).syncCatalogue(PAID_PLANS, 'https://portal.example.com/billing/webhook');
    email = `payer${++n}-${kind}@example.com`;
  });

  /** A signed-in person with a key of their own, paying for token pro by card. */
  async function payingPerson(): Promise<{ session: { cookie: string; csrf: string }; key: string; accountId: string; subscriptionId: string }> {
    const session = await signIn(gw!, world.inbox, email);
    const key = (await request(gw!.app).post('/dashboard/v1/keys').set(withSession(session)).send({ name: 'ci' }).expect(201)).body.data.key as string;
    const started = await request(gw!.app).post('/dashboard/v1/billing/checkout').set(withSession(session)).send({ api: 'token', plan: 'pro' }).expect(200);
    local.completeCheckout(started.body.data.session_id, { number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' });
    const confirmed = await request(gw!.app).get(`/dashboard/v1/billing/checkout/${started.body.data.session_id}`).set(withSession(session)).expect(200);
    return { session, key, accountId: session.accountId, subscriptionId: confirmed.body.data.subscription.subscription_id };
  }
  const byKey = (key: string) => ({ 'x-tollgate-key': key });

  it('when a leaked key alone starts a Checkout, upgrades, cancels or keeps the paid plan, or opens the customer portal, then each is 401 saying a signed-in person is needed, and nothing changes at Stripe', async () => {
    const { key, subscriptionId } = await payingPerson();
    const sessionsBefore = (await stripe.checkout.sessions.list({ limit: 100 })).data.length;
    const attempts: [string, string, object | undefined][] = [
      ['post', '/dashboard/v1/billing/checkout', { api: 'burger', plan: 'pro' }],
      ['put', '/dashboard/v1/billing/subscriptions/token', { plan: 'scale' }],
      ['delete', '/dashboard/v1/billing/subscriptions/token', undefined],
      ['post', '/dashboard/v1/billing/subscriptions/token/keep', undefined],
      ['post', '/dashboard/v1/billing/portal', {}],
    ];
    for (const [method, path, body] of attempts) {
      const res = await request(gw!.app)[method as 'post'](path).set(byKey(key)).send(body);
      expect([method, path, res.status, res.body.error?.details?.reason]).toEqual([method, path, 401, 'session_required']);
      expect(res.body.message).toMatch(/API key cannot .*sign in at \/portal\/sign-in/);
      expect(res.body.data).toBeNull();
    }
    expect((await stripe.checkout.sessions.list({ limit: 100 })).data.length).toBe(sessionsBefore);
    const subscription = await stripe.subscriptions.retrieve(subscriptionId);
    expect([subscription.items.data[0]!.price.unit_amount, subscription.cancel_at_period_end]).toEqual([2500, false]);
    // A cookie of no session beside the key opens nothing either.
    const planted = await request(gw!.app).put('/dashboard/v1/billing/subscriptions/token').set({ ...byKey(key), cookie: `tg_session=${'A'.repeat(43)}` }).send({ plan: 'scale' });
    expect(planted.status).toBe(401);
  });

  it('when the signed-in person upgrades and opens the portal with the session cookie and its CSRF token, then it works; without the token it is 403', async () => {
    const { session, subscriptionId } = await payingPerson();
    const { cookie } = withSession(session);
    expect((await request(gw!.app).put('/dashboard/v1/billing/subscriptions/token').set({ cookie }).send({ plan: 'scale' })).status).toBe(403);
    const upgraded = await request(gw!.app).put('/dashboard/v1/billing/subscriptions/token').set(withSession(session)).send({ plan: 'scale' });
    expect([upgraded.status, upgraded.body.data.plan]).toEqual([200, 'scale']);
    expect((await stripe.subscriptions.retrieve(subscriptionId)).items.data[0]!.price.unit_amount).toBe(9900);
    const portal = await request(gw!.app).post('/dashboard/v1/billing/portal').set(withSession(session)).send({});
    expect([portal.status, portal.body.data.url]).toEqual([200, expect.stringContaining(local.url)]);
  });

  it('when a key reads billing or takes a free plan, then that still works: only what moves money needs the person', async () => {
    const { key } = await payingPerson();
    expect((await request(gw!.app).get('/dashboard/v1/billing/status').set(byKey(key))).body.data.subscriptions).toEqual([expect.objectContaining({ api: 'token', plan: 'pro' })]);
    expect((await request(gw!.app).get('/dashboard/v1/billing').set(byKey(key))).status).toBe(200);
    const free = await request(gw!.app).put('/dashboard/v1/subscriptions/burger').set(byKey(key)).send({ plan: 'free' });
    expect([free.status, free.body.data.plan]).toEqual([200, 'free']);
  });
});
