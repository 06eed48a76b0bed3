import type Stripe from 'stripe';
import { startRedisServer } from '../support/redis-server';
import type { RedisServer } from '../support/redis-server';
import { MID_MARCH, startBillingGateway } from '../billing/support/billing-gateway';
import type { BillingGateway } from '../billing/support/billing-gateway';

// Issue 35, item 15: two checkouts of one API paid at once left a second subscription renewing,
// seen only in a log line. One open checkout per account and API: starting one expires the one
// before, and one that was already paid makes the new one a 409. Through the real stripe SDK
// against stripe-local.

jest.setTimeout(120_000);

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(() => redis.stop());

describe.each(['sqlite', 'redis'] as const)('two checkouts of one API with the %s store', (kind) => {
  let gw: BillingGateway;
  const open = async (webhooks: 'delivered' | 'manual' = 'delivered') => {
    gw = await startBillingGateway({ start: MID_MARCH, webhooks, engine: kind === 'redis' ? { kind, url: redis.url } : { kind } });
  };
  afterEach(() => gw?.close());

  /** The customer's subscriptions at Stripe that go on renewing. */
  const renewing = async (accountId: string): Promise<Stripe.Subscription[]> => {
    const customer = (await gw.stores.billingStore.getBilling(accountId))!.customers.EUR!;
    const all = await gw.stripe.subscriptions.list({ customer, status: 'all' });
    return all.data.filter((s) => s.status !== 'canceled' && s.status !== 'incomplete_expired');
  };
  /** Pays a checkout as a person on its hosted page would; false when the page refuses it. */
  const tryToPay = async (url: string): Promise<boolean> => {
    try {
      await gw.pay(url);
      return true;
    } catch (err) {
      expect((err as Error).message).toMatch(/This Checkout Session is expired; it cannot be paid/);
      return false;
    }
  };

  it('when two checkouts of token pro are started at once in two tabs and both are paid, then one is paid, the other’s page refuses the card, and one subscription renews', async () => {
    await open();
    const ada = await gw.account(`ada-${kind}@example.com`);
    const started = await Promise.all([1, 2].map(() => gw.json('POST', '/dashboard/v1/billing/checkout', ada.session, { api: 'token', plan: 'pro' })));
    expect(started.map((s) => s.status)).toEqual([200, 200]);
    const paid = await Promise.all(started.map((s) => tryToPay(s.body.data.url)));
    expect(paid.filter(Boolean)).toHaveLength(1);
    expect(await renewing(ada.id)).toHaveLength(1);
    const sessions = await Promise.all(started.map((s) => gw.stripe.checkout.sessions.retrieve(s.body.data.session_id)));
    expect(sessions.map((s) => s.status).sort()).toEqual(['complete', 'expired']);
    expect((await gw.json('GET', '/dashboard/v1/billing/status', ada.key)).body.data.subscriptions).toMatchObject([{ api: 'token', plan: 'pro', state: 'active' }]);
  });

  it('when a checkout is paid and another is started before the payment’s webhook arrived, then the new one is 409 and expired, and one subscription renews', async () => {
    // No webhook reaches the gateway here: the store knows nothing of the payment.
    await open('manual');
    const bob = await gw.account(`bob-${kind}@example.com`);
    const first = await gw.json('POST', '/dashboard/v1/billing/checkout', bob.session, { api: 'token', plan: 'pro' });
    await gw.pay(first.body.data.url);
    expect((await gw.stores.billingStore.getBilling(bob.id))!.subscriptions).toEqual({});
    const second = await gw.json('POST', '/dashboard/v1/billing/checkout', bob.session, { api: 'token', plan: 'pro' });
    expect([second.status, second.body.error]).toEqual([409, { code: 'CONFLICT', details: { reason: 'already_billed', api: 'token', plan: 'pro' } }]);
    expect(second.body.message).toContain('in another checkout');
    expect(await renewing(bob.id)).toHaveLength(1);
    const stillOpen = await gw.stripe.checkout.sessions.list({ customer: (await gw.stores.billingStore.getBilling(bob.id))!.customers.EUR!, status: 'open' });
    expect(stillOpen.data).toEqual([]);
  });

  it('when a second subscription of the API is made at Stripe anyway, then the gateway cancels it at once and records it in the audit log; the first goes on', async () => {
    await open();
    const dee = await gw.account(`dee-${kind}@example.com`);
    await gw.pay((await gw.json('POST', '/dashboard/v1/billing/checkout', dee.session, { api: 'token', plan: 'pro' })).body.data.url);
    const kept = (await gw.stores.billingStore.getBilling(dee.id))!.subscriptions.token!;
    const stray = await gw.stripe.subscriptions.create({ customer: kept.customer_id, items: [{ price: kept.price_id }], metadata: { tollgate_account: dee.id, tollgate_api: 'token', tollgate_plan: 'pro' } });
    await gw.local.settle();
    expect((await renewing(dee.id)).map((s) => s.id)).toEqual([kept.subscription_id]);
    expect((await gw.stripe.subscriptions.retrieve(stray.id)).status).toBe('canceled');
    const audit = await gw.stores.auditLog.list({ accountId: dee.id, limit: 20 });
    expect(audit.items.filter((e) => e.action === 'billing.duplicate_canceled')).toEqual([
      expect.objectContaining({ actor: { type: 'system', id: 'billing', via: 'billing' }, target: 'token', details: { kept: kept.subscription_id, canceled: stray.id, plan: 'pro', amount: 2500, currency: 'EUR' } }),
    ]);
    expect((await gw.stores.billingStore.getBilling(dee.id))!.subscriptions.token).toMatchObject({ subscription_id: kept.subscription_id, state: 'active' });
  });

  it('when a paid plan ended and the person checks out again, then the old completed checkout does not stand in the way', async () => {
    await open();
    const cy = await gw.account(`cy-${kind}@example.com`);
    const first = await gw.json('POST', '/dashboard/v1/billing/checkout', cy.session, { api: 'token', plan: 'pro' });
    await gw.pay(first.body.data.url);
    const [running] = await renewing(cy.id);
    await gw.stripe.subscriptions.cancel(running!.id);
    await gw.local.settle();
    const again = await gw.json('POST', '/dashboard/v1/billing/checkout', cy.session, { api: 'token', plan: 'pro' });
    expect(again.status).toBe(200);
    await gw.pay(again.body.data.url);
    expect(await renewing(cy.id)).toHaveLength(1);
  });
});
