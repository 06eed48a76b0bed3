import type Stripe from 'stripe';
import { ADMIN_TOKEN, MID_MARCH, useBillingGateway } from './support/billing-gateway';

jest.setTimeout(60_000);

const gw = useBillingGateway({ start: MID_MARCH });

describe('taking a paid plan by card', () => {
  it('when a person checks out token pro mid-month with 4242, then access comes from the webhook, the first invoice is prorated to 1 April, and calls get pro limits', async () => {
    const ada = await gw.account('ada@example.com');
    expect((await gw.call(ada.key, '/token/v1/meta')).headers.get('x-ratelimit-requests-limit')).toBe('10');

    const started = await gw.json('POST', '/dashboard/v1/billing/checkout', ada.session, { api: 'token', plan: 'pro' });
    expect(started.status).toBe(200);
    expect(started.body.data.url).toMatch(/\/checkout\/cs_test_/);
    const session = await gw.stripe.checkout.sessions.retrieve(started.body.data.session_id);
    expect(session).toMatchObject({ mode: 'subscription', client_reference_id: ada.id, metadata: { tollgate_account: ada.id, tollgate_api: 'token', tollgate_plan: 'pro' }, success_url: `${gw.url}/portal/billing?checkout={CHECKOUT_SESSION_ID}` });
    // Nothing yet: the return address alone gives nothing.
    expect((await gw.json('GET', `/dashboard/v1/billing/checkout/${session.id}`, ada.key)).body.data).toEqual({ subscription: null });

    await gw.pay(started.body.data.url);
    const status = await gw.json('GET', '/dashboard/v1/billing/status', ada.key);
    expect(status.body.data).toMatchObject({ card_payments: true, support_email: 'billing@tollgate.test', subscriptions: [{ api: 'token', plan: 'pro', status: 'active', state: 'active', amount: 2500, currency: 'EUR', current_period_end: '2026-04-01T00:00:00.000Z', cancel_at_period_end: false }] });
    const call = await gw.call(ada.key, '/token/v1/meta');
    expect(call.status).toBe(200);
    expect(call.headers.get('x-ratelimit-requests-limit')).toBe('650000');
    expect(gw.upstream.seen.at(-1)?.headers['x-tollgate-subscription']).toBe('pro');

    const subscription = (await gw.stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription.latest_invoice'] })).subscription as Stripe.Subscription;
    const invoice = subscription.latest_invoice as Stripe.Invoice;
    // 15.5 of 31 days of 25.00 EUR.
    expect(invoice.amount_paid).toBe(1250);
    expect(subscription.items.data[0]).toMatchObject({ current_period_end: Date.parse('2026-04-01T00:00:00Z') / 1000 });
    expect(subscription.metadata).toMatchObject({ tollgate_account: ada.id, tollgate_api: 'token', tollgate_plan: 'pro' });

    const page = await gw.json('GET', '/dashboard/v1/billing', ada.key);
    expect(page.body.data).toMatchObject({ currencies: ['EUR'], invoices: [{ id: invoice.id, amount: 1250, currency: 'EUR', status: 'paid', hosted_url: expect.stringContaining('/invoice/'), pdf_url: expect.stringContaining('/pdf') }] });
    expect((await gw.json('GET', `/dashboard/v1/billing/checkout/${session.id}`, ada.key)).body.data.subscription).toMatchObject({ plan: 'pro', state: 'active' });
  });

  it('when a person takes paid burger (USD) and paid logs (EUR), then each currency has its own customer and both plans are active', async () => {
    const bob = await gw.account('bob@example.com');
    for (const [api, plan] of [['burger', 'starter'], ['logs', 'pro']] as const) {
      const started = await gw.json('POST', '/dashboard/v1/billing/checkout', bob.session, { api, plan });
      expect(started.status).toBe(200);
      await gw.pay(started.body.data.url);
    }
    const billing = await gw.stores.billingStore.getBilling(bob.id);
    expect(Object.keys(billing!.customers).sort()).toEqual(['EUR', 'USD']);
    expect(billing!.customers.EUR).not.toBe(billing!.customers.USD);
    expect(billing!.subscriptions).toMatchObject({ burger: { plan: 'starter', currency: 'USD', state: 'active' }, logs: { plan: 'pro', currency: 'EUR', state: 'active' } });
    expect((await gw.call(bob.key, '/burger/v1/meta')).headers.get('x-ratelimit-requests-limit')).toBe('290000');
    expect((await gw.call(bob.key, '/logs/v1/meta')).headers.get('x-ratelimit-requests-limit')).toBe('720000');
    expect((await gw.json('GET', '/admin/billing/summary', ADMIN_TOKEN)).body.data).toMatchObject({ mrr: { USD: 575, EUR: 2500 + 4550 }, subscriptions: { active: 3 } });

    // The operators' console reads the same: the overview's revenue, and the account's billing.
    const signedIn = await fetch(`${gw.url}/admin/console/v1/sign-in/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: ADMIN_TOKEN }) });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    const read = async (route: string) => ((await (await fetch(`${gw.url}/admin/console/v1${route}`, { headers: { cookie } })).json()) as { data: Record<string, unknown> }).data;
    expect((await read('/overview')).billing).toEqual({ paying_subscriptions: 3, mrr: expect.arrayContaining([{ currency: 'USD', amount: 575 }, { currency: 'EUR', amount: 7050 }]) });
    expect((await read(`/accounts/${bob.id}`)).billing).toEqual({
      state: 'active',
      details: expect.objectContaining({ 'customer (EUR)': billing!.customers.EUR, 'customer (USD)': billing!.customers.USD, 'burger: starter': 'active, active', 'logs: pro': 'active, active' }),
    });
    expect((await read(`/accounts/${(await gw.account('cy@example.com')).id}`)).billing).toBeNull();
  });
});
