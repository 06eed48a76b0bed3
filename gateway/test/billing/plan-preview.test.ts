import type Stripe from 'stripe';
import { MID_MARCH, useBillingGateway } from './support/billing-gateway';

jest.setTimeout(60_000);

const gw = useBillingGateway({ start: MID_MARCH });

/** A verified account paying for token `plan` by card (its test clock at 16 March, 12:00). */
async function subscribed(email: string, plan: string) {
  const account = await gw.account(email);
  await gw.pay((await gw.json('POST', '/dashboard/v1/billing/checkout', account.session, { api: 'token', plan })).body.data.url);
  return { ...account, clock: await gw.clockOf(account.id, 'EUR') };
}

describe('what a plan costs, shown before anything is charged', () => {
  it('when an upgrade is previewed and confirmed with its proration_date, then the card is charged exactly what the preview said, and later months cost the new price', async () => {
    const a = await subscribed('preview-up@example.com', 'pro');
    const before = await gw.stripe.invoices.list({ customer: (await gw.stores.billingStore.getBilling(a.id))!.customers.EUR! });
    const shown = await gw.json('GET', '/dashboard/v1/billing/subscriptions/token/preview?plan=scale', a.key);
    expect(shown.status).toBe(200);
    // 15.5 of March's 31 days left: 5950 − 2500 for half the month.
    expect(shown.body.data).toMatchObject({ api: 'token', plan: 'scale', from_plan: 'pro', when: 'now', currency: 'EUR', due_now: 1725, tax_now: 0, recurring: 5950, recurring_from: '2026-04-01T00:00:00.000Z' });
    expect(shown.body.data.lines.map((line: { amount: number }) => line.amount)).toEqual([-1250, 2975]);
    // Previewing charged nothing and changed nothing.
    expect((await gw.stripe.invoices.list({ customer: before.data[0]!.customer as string })).data).toHaveLength(before.data.length);
    expect((await gw.stores.billingStore.getBilling(a.id))!.subscriptions.token).toMatchObject({ plan: 'pro' });

    await gw.advanceDays(a.clock, 0.01);
    const changed = await gw.json('PUT', '/dashboard/v1/billing/subscriptions/token', a.session, { plan: 'scale', proration_date: shown.body.data.proration_date });
    expect(changed.body.data).toMatchObject({ plan: 'scale', amount: 5950 });
    const charged = (await gw.stripe.invoices.list({ subscription: changed.body.data.subscription_id, limit: 1 })).data[0] as Stripe.Invoice;
    expect(charged).toMatchObject({ billing_reason: 'subscription_update', status: 'paid', amount_paid: shown.body.data.due_now });
  });

  it('when a downgrade is previewed, then nothing is due today and the cheaper price runs from the period’s end', async () => {
    const a = await subscribed('preview-down@example.com', 'scale');
    const shown = await gw.json('GET', '/dashboard/v1/billing/subscriptions/token/preview?plan=starter', a.session);
    expect(shown.body.data).toMatchObject({ when: 'period_end', due_now: 0, lines: [], recurring: 950, recurring_from: '2026-04-01T00:00:00.000Z', proration_date: null });
  });

  it('when a plan not paid yet is previewed, then it is the share of the month to the 1st that Checkout charges, then the monthly price', async () => {
    const a = await gw.account('preview-new@example.com');
    const shown = await gw.json('GET', '/dashboard/v1/billing/subscriptions/token/preview?plan=pro', a.session);
    expect(shown.body.data).toMatchObject({ from_plan: null, when: 'checkout', due_now: 1250, recurring: 2500, recurring_from: '2026-04-01T00:00:00.000Z' });
    const session = await gw.stripe.checkout.sessions.retrieve((await gw.json('POST', '/dashboard/v1/billing/checkout', a.session, { api: 'token', plan: 'pro' })).body.data.session_id);
    expect(session.amount_total).toBe(shown.body.data.due_now);
  });

  it('when a confirmed preview is over an hour old, or dated ahead, then nothing is charged and the person is asked to look again (409)', async () => {
    const a = await subscribed('preview-stale@example.com', 'pro');
    const shown = await gw.json('GET', '/dashboard/v1/billing/subscriptions/token/preview?plan=scale', a.session);
    for (const date of [shown.body.data.proration_date - 3601, shown.body.data.proration_date + 600]) {
      const refused = await gw.json('PUT', '/dashboard/v1/billing/subscriptions/token', a.session, { plan: 'scale', proration_date: date });
      expect(refused).toMatchObject({ status: 409, body: { error: { code: 'CONFLICT' } } });
      expect(refused.body.error.details.reason).toBe('preview_stale');
    }
    expect((await gw.stores.billingStore.getBilling(a.id))!.subscriptions.token).toMatchObject({ plan: 'pro' });
    for (const query of ['', '?plan=gold', '?plan=pro', '?plan=scale&extra=1']) {
      expect((await gw.json('GET', `/dashboard/v1/billing/subscriptions/token/preview${query}`, a.session)).status).toBe(400);
    }
  });
});
