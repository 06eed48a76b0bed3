import type Stripe from 'stripe';
import { MID_MARCH, useBillingGateway } from './support/billing-gateway';
import type { PortalSession } from './support/billing-gateway';

jest.setTimeout(60_000);

const gw = useBillingGateway({ start: MID_MARCH });

/** A verified account paying for token `plan` by card. */
async function subscribed(email: string, plan = 'pro'): Promise<{ id: string; key: string; session: PortalSession; clock: string }> {
  const account = await gw.account(email);
  await gw.pay((await gw.json('POST', '/dashboard/v1/billing/checkout', account.session, { api: 'token', plan })).body.data.url);
  return { ...account, clock: await gw.clockOf(account.id, 'EUR') };
}
const token = async (accountId: string) => (await gw.stores.billingStore.getBilling(accountId))!.subscriptions.token!;
const limit = async (key: string) => (await gw.call(key, '/token/v1/meta')).headers.get('x-ratelimit-requests-limit');

describe('changing a plan paid by card', () => {
  it('when pro is upgraded to scale, then it applies to the next call with the calls used this month counted, and the difference is charged at once', async () => {
    const a = await subscribed('up@example.com');
    for (let i = 0; i < 3; i++) expect((await gw.call(a.key, '/token/v1/meta')).status).toBe(200);
    const changed = await gw.json('PUT', '/dashboard/v1/billing/subscriptions/token', a.session, { plan: 'scale' });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ api: 'token', plan: 'scale', amount: 5950, state: 'active', next_plan: null });
    const call = await gw.call(a.key, '/token/v1/meta');
    expect(call.headers.get('x-ratelimit-requests-limit')).toBe('3250000');
    expect(call.headers.get('x-ratelimit-requests-remaining')).toBe(String(3_250_000 - 4));
    const invoices = await gw.stripe.invoices.list({ subscription: changed.body.data.subscription_id });
    // Half of March is left (the test clock stands at 16 March, 12:00): 5950 − 2500 for 15.5 of 31 days.
    expect(invoices.data[0]).toMatchObject({ billing_reason: 'subscription_update', status: 'paid', amount_paid: 2975 - 1250 });
  });

  it('when scale is downgraded to starter, then it takes effect at the period’s end, can be taken back, and after the renewal the plan is starter', async () => {
    const a = await subscribed('down@example.com', 'scale');
    const down = await gw.json('PUT', '/dashboard/v1/billing/subscriptions/token', a.session, { plan: 'starter' });
    expect(down.body.data).toMatchObject({ plan: 'scale', next_plan: 'starter', current_period_end: '2026-04-01T00:00:00.000Z' });
    expect(await limit(a.key)).toBe('3250000');
    const kept = await gw.json('POST', '/dashboard/v1/billing/subscriptions/token/keep', a.session);
    expect(kept.body.data).toMatchObject({ plan: 'scale', next_plan: null });
    expect((await gw.json('PUT', '/dashboard/v1/billing/subscriptions/token', a.session, { plan: 'starter' })).body.data.next_plan).toBe('starter');

    await gw.advanceDays(a.clock, 16.5);
    expect(await token(a.id)).toMatchObject({ plan: 'starter', amount: 950, next_plan: null, state: 'active', current_period_end: '2026-05-01T00:00:00.000Z' });
    expect(await limit(a.key)).toBe('135000');
    const renewal = (await gw.stripe.invoices.list({ subscription: (await token(a.id)).subscription_id, limit: 1 })).data[0]!;
    expect(renewal).toMatchObject({ billing_reason: 'subscription_cycle', status: 'paid', amount_paid: 950 });
  });

  it('when a plan is cancelled, then it runs to the period’s end (undoable), and then the account falls back to the free plan', async () => {
    const a = await subscribed('cancel@example.com', 'starter');
    const cancelled = await gw.json('DELETE', '/dashboard/v1/billing/subscriptions/token', a.session);
    expect(cancelled.body.data).toMatchObject({ plan: 'starter', cancel_at_period_end: true, state: 'active' });
    expect((await gw.json('POST', '/dashboard/v1/billing/subscriptions/token/keep', a.session)).body.data.cancel_at_period_end).toBe(false);
    // Choosing the free plan is the same cancellation.
    expect((await gw.json('PUT', '/dashboard/v1/billing/subscriptions/token', a.session, { plan: 'free' })).body.data.cancel_at_period_end).toBe(true);
    // The dashboard's own routes leave a plan paid by card alone.
    const byHand = await gw.json('DELETE', '/dashboard/v1/subscriptions/token', a.key);
    expect(byHand.status).toBe(400);
    expect(byHand.body.message).toContain('/portal/billing');

    await gw.advanceDays(a.clock, 16.5);
    expect(await token(a.id)).toMatchObject({ status: 'canceled', state: 'ended' });
    expect((await gw.stores.accountStore.getAccount(a.id))!.subscriptions.token).toEqual({ plan: 'free', status: 'active' });
    expect(await limit(a.key)).toBe('11500');
    expect((await gw.json('GET', '/dashboard/v1/billing/status', a.key)).body.data.subscriptions).toEqual([]);
    // A new checkout is possible once the old one has ended.
    expect((await gw.json('POST', '/dashboard/v1/billing/checkout', a.session, { api: 'token', plan: 'pro' })).status).toBe(200);
  });

  it('when a second checkout is asked for a plan already paid, or a free plan, or by an unproven account, then it is refused with what to do', async () => {
    const a = await subscribed('twice@example.com');
    const again = await gw.json('POST', '/dashboard/v1/billing/checkout', a.session, { api: 'token', plan: 'scale' });
    expect(again).toMatchObject({ status: 409, body: { error: { code: 'CONFLICT' } } });
    expect(again.body.message).toContain('change the plan instead');
    expect((await gw.json('POST', '/dashboard/v1/billing/checkout', a.session, { api: 'token', plan: 'free' })).status).toBe(400);
    expect((await gw.json('POST', '/dashboard/v1/billing/checkout', a.session, { api: 'token', plan: 'gold' })).status).toBe(400);
    expect((await gw.json('POST', '/dashboard/v1/billing/checkout', a.session, { api: 'nope', plan: 'pro' })).status).toBe(400);
    const unproven = await gw.stores.accountStore.createAccount({ email: 'new@example.com', email_verified: false });
    expect((await gw.json('POST', '/dashboard/v1/billing/checkout', await gw.sessionOf(unproven.id), { api: 'token', plan: 'pro' })).status).toBe(403);
    expect((await gw.json('PUT', '/dashboard/v1/billing/subscriptions/burger', a.session, { plan: 'pro' })).status).toBe(404);
  });

  it('when the upgrade’s charge is declined, then nothing changes and the person is told to change the card', async () => {
    const a = await subscribed('declined@example.com');
    const customer = (await gw.stores.billingStore.getBilling(a.id))!.customers.EUR!;
    const failing = await gw.stripe.paymentMethods.attach('pm_card_chargeCustomerFail', { customer });
    await gw.stripe.subscriptions.update((await token(a.id)).subscription_id, { default_payment_method: failing.id });
    const refused = await gw.json('PUT', '/dashboard/v1/billing/subscriptions/token', a.session, { plan: 'scale' });
    expect(refused).toMatchObject({ status: 402, body: { error: { code: 'SUBSCRIPTION_REQUIRED', details: { reason: 'card_declined' } } } });
    expect(refused.body.message).toContain('Manage card and invoices');
    const subscription = (await gw.stripe.subscriptions.retrieve((await token(a.id)).subscription_id)) as Stripe.Subscription;
    expect(subscription.items.data[0]!.price.unit_amount).toBe(2500);
    expect(await limit(a.key)).toBe('650000');
  });
});
