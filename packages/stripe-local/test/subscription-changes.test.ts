import Stripe from 'stripe';
import { advance, at, clockedCustomer, monthly } from './clock-fixtures';
import { useStripeLocal } from './start-stripe-local';

const running = useStripeLocal();

// A customer on a clock at `start`, subscribed to Starter (1000) or Pro (3000) a month.
async function subscribedOnClock(start: string, plan: 'starter' | 'pro') {
  const { clock, customer } = await clockedCustomer(running(), at(start));
  const starter = await monthly(running(), 1000, 'Starter');
  const pro = await monthly(running(), 3000, 'Pro');
  const subscription = await running().stripe.subscriptions.create({ customer: customer.id, items: [{ price: (plan === 'starter' ? starter : pro).id }] });
  return { clock, customer, starter, pro, subscription };
}

describe('plan changes and cancellations on a test clock', () => {
  it('when a plan is upgraded mid-period with always_invoice, then a proration invoice is made and paid at once', async () => {
    const { stripe } = running();
    const { clock, pro, subscription } = await subscribedOnClock('2026-01-01T00:00:00Z', 'starter');
    expect(subscription.items.data[0]).toMatchObject({ current_period_start: at('2026-01-01T00:00:00Z'), current_period_end: at('2026-02-01T00:00:00Z') });
    await advance(running(), clock.id, at('2026-01-16T00:00:00Z'));

    const upgraded = await stripe.subscriptions.update(subscription.id, {
      items: [{ id: subscription.items.data[0]!.id, price: pro.id }],
      proration_behavior: 'always_invoice',
      expand: ['latest_invoice'],
    });
    expect(upgraded.status).toBe('active');
    expect(upgraded.items.data[0]).toMatchObject({ id: subscription.items.data[0]!.id, price: { id: pro.id }, current_period_end: at('2026-02-01T00:00:00Z') });
    const invoice = upgraded.latest_invoice as Stripe.Invoice;
    // 16 of January's 31 days are left: 1000 × 16/31 = 516 back, 3000 × 16/31 = 1548 due.
    expect(invoice).toMatchObject({ billing_reason: 'subscription_update', status: 'paid', amount_paid: 1032, total: 1032 });
    expect(invoice.lines.data.map((line) => [line.amount, line.parent?.subscription_item_details?.proration])).toEqual([
      [-516, true],
      [1548, true],
    ]);
    expect(invoice.lines.data[1]!.description).toMatch(/^Remaining time on 1 × Pro/);
  });

  it('when a plan is upgraded in a first period shortened by billing_cycle_anchor, then the change is prorated against a whole month, as the first invoice was', async () => {
    const { stripe } = running();
    const { clock, customer } = await clockedCustomer(running(), at('2026-01-16T00:00:00Z'));
    const starter = await monthly(running(), 3100, 'Anchored Starter');
    const pro = await monthly(running(), 6200, 'Anchored Pro');
    const subscription = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: starter.id }], billing_cycle_anchor: at('2026-02-01T00:00:00Z'), expand: ['latest_invoice'] });
    // 16 of January's 31 days: 3100 × 16/31.
    expect((subscription.latest_invoice as Stripe.Invoice).amount_paid).toBe(1600);
    await advance(running(), clock.id, at('2026-01-24T00:00:00Z'));

    const upgraded = await stripe.subscriptions.update(subscription.id, { items: [{ id: subscription.items.data[0]!.id, price: pro.id }], proration_behavior: 'always_invoice', expand: ['latest_invoice'] });
    // 8 of 31 days left: 3100 × 8/31 = 800 back (what was paid for them), 6200 × 8/31 = 1600 due.
    expect((upgraded.latest_invoice as Stripe.Invoice).lines.data.map((line) => line.amount)).toEqual([-800, 1600]);
    expect(upgraded.items.data[0]).toMatchObject({ current_period_start: at('2026-01-16T00:00:00Z'), current_period_end: at('2026-02-01T00:00:00Z') });
  });

  it('when a plan is upgraded with create_prorations, then the prorations wait for the renewal invoice', async () => {
    const { stripe } = running();
    const { clock, pro, subscription } = await subscribedOnClock('2026-04-01T00:00:00Z', 'starter');
    await advance(running(), clock.id, at('2026-04-16T00:00:00Z'));
    const updated = await stripe.subscriptions.update(subscription.id, { items: [{ id: subscription.items.data[0]!.id, price: pro.id }] });
    expect(updated.latest_invoice).toBe(subscription.latest_invoice);
    await advance(running(), clock.id, at('2026-05-01T12:00:00Z'));
    const renewed = await stripe.subscriptions.retrieve(subscription.id, { expand: ['latest_invoice'] });
    const invoice = renewed.latest_invoice as Stripe.Invoice;
    // 15 of April's 30 days: 500 back, 1500 due, then May at 3000.
    expect(invoice).toMatchObject({ billing_reason: 'subscription_cycle', status: 'paid', total: 4000, period_start: at('2026-04-01T00:00:00Z'), period_end: at('2026-05-01T00:00:00Z') });
    expect(invoice.lines.data.map((line) => line.amount)).toEqual([-500, 1500, 3000]);
    expect(renewed.items.data[0]).toMatchObject({ current_period_start: at('2026-05-01T00:00:00Z'), current_period_end: at('2026-06-01T00:00:00Z') });
  });

  it('when a subscription’s price is archived, then the subscription keeps it, renews and changes quantity, but no new subscription takes it', async () => {
    const { stripe } = running();
    const { clock, customer, starter, subscription } = await subscribedOnClock('2026-08-01T00:00:00Z', 'starter');
    await stripe.prices.update(starter.id, { active: false });
    const more = await stripe.subscriptions.update(subscription.id, { items: [{ id: subscription.items.data[0]!.id, quantity: 2 }], proration_behavior: 'none' });
    expect(more.items.data[0]).toMatchObject({ quantity: 2, price: { id: starter.id, active: false } });
    await advance(running(), clock.id, at('2026-09-01T01:00:00Z'));
    expect(await stripe.subscriptions.retrieve(subscription.id, { expand: ['latest_invoice'] })).toMatchObject({ status: 'active', latest_invoice: { total: 2000, status: 'paid' } });
    await expect(stripe.subscriptions.create({ customer: customer.id, items: [{ price: starter.id }] })).rejects.toMatchObject({ message: expect.stringContaining('inactive') });
  });

  it('when cancel_at_period_end is set and the clock passes the period end, then the subscription is canceled then', async () => {
    const { stripe } = running();
    const { clock, customer } = await clockedCustomer(running(), at('2026-01-31T00:00:00Z'));
    const subscription = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: (await monthly(running(), 500, 'Basic')).id }] });
    const end = at('2026-02-28T00:00:00Z');
    const canceling = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    expect(canceling).toMatchObject({ status: 'active', cancel_at_period_end: true, cancel_at: end, cancellation_details: { reason: 'cancellation_requested' } });
    await advance(running(), clock.id, at('2026-02-27T00:00:00Z'));
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('active');
    await advance(running(), clock.id, at('2026-03-05T00:00:00Z'));
    const ended = await stripe.subscriptions.retrieve(subscription.id);
    expect(ended).toMatchObject({ status: 'canceled', ended_at: end, canceled_at: at('2026-01-31T00:00:00Z') });
    expect((await stripe.invoices.list({ subscription: subscription.id })).data).toHaveLength(1);
    const deleted = await stripe.events.list({ type: 'customer.subscription.deleted' });
    expect(deleted.data.some((event) => (event.data.object as Stripe.Subscription).id === subscription.id && event.created === end)).toBe(true);
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toEqual([]);
    expect((await stripe.subscriptions.list({ customer: customer.id, status: 'all' })).data.map((s) => s.id)).toEqual([subscription.id]);
    await expect(stripe.subscriptions.update(subscription.id, { cancel_at_period_end: false })).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
  });

  it('when a subscription is canceled with DELETE, then it ends now with customer.subscription.deleted', async () => {
    const { stripe } = running();
    const { customer } = await clockedCustomer(running(), at('2026-06-10T00:00:00Z'));
    const subscription = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: (await monthly(running(), 700, 'Now')).id }] });
    const canceled = await stripe.subscriptions.cancel(subscription.id, { cancellation_details: { comment: 'moving on' } });
    expect(canceled).toMatchObject({ status: 'canceled', ended_at: at('2026-06-10T00:00:00Z'), cancellation_details: { comment: 'moving on', reason: 'cancellation_requested' } });
    await expect(stripe.subscriptions.cancel(subscription.id)).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
  });

  it('when a downgrade is scheduled for the period end, then the renewal bills the lower price and the schedule is released after', async () => {
    const { stripe } = running();
    const { clock, starter, pro, subscription } = await subscribedOnClock('2026-03-01T00:00:00Z', 'pro');
    const schedule = await stripe.subscriptionSchedules.create({ from_subscription: subscription.id });
    expect(schedule).toMatchObject({ status: 'active', subscription: subscription.id, end_behavior: 'release', current_phase: { start_date: at('2026-03-01T00:00:00Z'), end_date: at('2026-04-01T00:00:00Z') } });
    expect(schedule.id).toMatch(/^sub_sched_/);
    const phases = await stripe.subscriptionSchedules.update(schedule.id, {
      phases: [
        { items: [{ price: pro.id, quantity: 1 }], start_date: schedule.phases[0]!.start_date, end_date: schedule.phases[0]!.end_date },
        { items: [{ price: starter.id, quantity: 1 }], duration: { interval: 'month', interval_count: 1 } },
      ],
    });
    expect(phases.phases.map((phase) => [phase.start_date, phase.end_date])).toEqual([
      [at('2026-03-01T00:00:00Z'), at('2026-04-01T00:00:00Z')],
      [at('2026-04-01T00:00:00Z'), at('2026-05-01T00:00:00Z')],
    ]);
    await expect(stripe.subscriptions.update(subscription.id, { items: [{ id: subscription.items.data[0]!.id, price: starter.id }] })).rejects.toMatchObject({ message: expect.stringContaining('managed by the subscription schedule') });
    await expect(stripe.subscriptionSchedules.update(schedule.id, { phases: [{ items: [{ price: starter.id }], end_date: at('2026-04-15T00:00:00Z') }] })).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);

    await advance(running(), clock.id, at('2026-04-02T00:00:00Z'));
    const downgraded = await stripe.subscriptions.retrieve(subscription.id, { expand: ['latest_invoice'] });
    expect(downgraded.items.data[0]!.price.id).toBe(starter.id);
    expect(downgraded.latest_invoice).toMatchObject({ total: 1000, status: 'paid', billing_reason: 'subscription_cycle' });
    expect(downgraded.schedule).toBe(schedule.id);
    await advance(running(), clock.id, at('2026-05-02T00:00:00Z'));
    expect(await stripe.subscriptionSchedules.retrieve(schedule.id)).toMatchObject({ status: 'released', released_subscription: subscription.id, subscription: null });
    const released = await stripe.subscriptions.retrieve(subscription.id, { expand: ['latest_invoice'] });
    expect(released).toMatchObject({ status: 'active', schedule: null, latest_invoice: { total: 1000 } });
  });
});
