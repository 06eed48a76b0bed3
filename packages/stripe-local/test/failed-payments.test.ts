import Stripe from 'stripe';
import { advance, at, clockedCustomer, monthly } from './clock-fixtures';
import { CARDS, card, postForm } from './hosted-forms';
import { startStripeLocal, useStripeLocal } from './start-stripe-local';

const running = useStripeLocal();
const DAY = 86_400;

describe('failed renewals, retries and the portal', () => {
  it('when a renewal fails on a 0341 card, then the subscription is past_due until a good card in the portal pays the invoice', async () => {
    const { stripe, server } = running();
    const { clock, customer } = await clockedCustomer(running(), at('2026-01-10T00:00:00Z'));
    const price = await monthly(running(), 1690, 'Burger Pro');
    const checkout = await stripe.checkout.sessions.create({ mode: 'subscription', customer: customer.id, line_items: [{ price: price.id }], success_url: 'http://app.test/ok' });
    expect((await postForm(checkout.url!, card(CARDS.ok))).status).toBe(303);
    const subscriptionId = (await stripe.checkout.sessions.retrieve(checkout.id)).subscription as string;

    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: 'http://app.test/account' });
    expect(portal).toMatchObject({ object: 'billing_portal.session', customer: customer.id, return_url: 'http://app.test/account' });
    expect(portal.id).toMatch(/^bps_/);
    const saved = await postForm(`${portal.url}/payment-method`, card(CARDS.chargeFails));
    expect(saved).toMatchObject({ status: 303, location: `/portal/${portal.id}?done=card` });
    const withBadCard = await stripe.subscriptions.retrieve(subscriptionId, { expand: ['default_payment_method'] });
    expect(withBadCard.default_payment_method).toMatchObject({ card: { last4: '0341' } });

    await advance(running(), clock.id, at('2026-02-10T06:00:00Z'));
    const pastDue = await stripe.subscriptions.retrieve(subscriptionId, { expand: ['latest_invoice'] });
    expect(pastDue.status).toBe('past_due');
    const invoice = pastDue.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({ status: 'open', billing_reason: 'subscription_cycle', attempt_count: 1, amount_due: 1690, next_payment_attempt: at('2026-02-10T00:00:00Z') + 3 * DAY });
    expect(invoice.hosted_invoice_url).toBe(`${running().url}/invoice/${invoice.id}`);
    expect((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).toMatchObject({ delinquent: true });
    const failed = await stripe.events.list({ type: 'invoice.payment_failed' });
    expect(failed.data.some((event) => (event.data.object as Stripe.Invoice).id === invoice.id)).toBe(true);

    const page = await (await fetch(portal.url)).text();
    expect(page).toContain('Payment due');
    expect(page).toContain('1 unpaid invoice');
    expect(page).toContain('href="http://app.test/account"');
    const declined = await postForm(`${portal.url}/payment-method`, card(CARDS.insufficientFunds));
    expect(declined.status).toBe(402);
    expect(declined.body).toContain('Your card has insufficient funds.');
    const fixed = await postForm(`${portal.url}/payment-method`, card(CARDS.ok));
    expect(fixed.status).toBe(303);
    await server.settle();

    expect(await stripe.invoices.retrieve(invoice.id)).toMatchObject({ status: 'paid', amount_paid: 1690, attempt_count: 2, next_payment_attempt: null });
    expect((await stripe.subscriptions.retrieve(subscriptionId)).status).toBe('active');
    expect(((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).delinquent).toBe(false);
    expect(await (await fetch(`${portal.url}?done=card`)).text()).toContain('Your card was saved.');
  });

  it('when every retry fails, then the invoice is tried on days 3, 5 and 7 and the subscription becomes unpaid', async () => {
    const { stripe } = running();
    const { clock, customer } = await clockedCustomer(running(), at('2026-03-01T00:00:00Z'));
    const subscription = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: (await monthly(running(), 900, 'Retry')).id }] });
    const failing = await stripe.paymentMethods.attach('pm_card_chargeCustomerFail', { customer: customer.id });
    await stripe.subscriptions.update(subscription.id, { default_payment_method: failing.id });
    const renewal = at('2026-04-01T00:00:00Z');

    await advance(running(), clock.id, renewal + 4 * DAY);
    let invoice = (await stripe.invoices.list({ subscription: subscription.id, status: 'open' })).data[0]!;
    expect(invoice).toMatchObject({ attempt_count: 2, next_payment_attempt: renewal + 5 * DAY });
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('past_due');

    await advance(running(), clock.id, renewal + 8 * DAY);
    invoice = await stripe.invoices.retrieve(invoice.id);
    expect(invoice).toMatchObject({ status: 'open', attempt_count: 4, next_payment_attempt: null });
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('unpaid');

    await advance(running(), clock.id, at('2026-05-02T00:00:00Z'));
    const open = await stripe.invoices.list({ subscription: subscription.id, status: 'open' });
    expect(open.data.map((i) => i.attempt_count)).toEqual([0, 4]);

    const hosted = await postForm(open.data[1]!.hosted_invoice_url!, card(CARDS.ok));
    expect(hosted).toMatchObject({ status: 303, location: `/invoice/${open.data[1]!.id}` });
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('unpaid');
    await stripe.invoices.pay(open.data[0]!.id, { payment_method: (await stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id })).id });
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('active');
  });

  it('when the server cancels on exhausted retries, then the last failure cancels the subscription', async () => {
    const own = await startStripeLocal({ retriesExhausted: 'canceled', retryDays: [1] });
    try {
      const { customer, clock } = await clockedCustomer(own, at('2026-03-01T00:00:00Z'), 'pm_card_chargeCustomerFail');
      const subscription = await own.stripe.subscriptions.create({ customer: customer.id, items: [{ price: (await monthly(own, 900, 'Cancel')).id }], billing_cycle_anchor: at('2026-03-02T00:00:00Z'), proration_behavior: 'none' });
      expect(subscription.status).toBe('active');
      await advance(own, clock.id, at('2026-03-04T00:00:00Z'));
      expect(await own.stripe.subscriptions.retrieve(subscription.id)).toMatchObject({ status: 'canceled', cancellation_details: { reason: 'payment_failed' }, ended_at: at('2026-03-03T00:00:00Z') });
    } finally {
      await own.server.close();
    }
  });

  it('when a clock is advanced, then it reads advancing and then ready, and a second advance while advancing is refused', async () => {
    // The second advance must arrive while the first runs: 100 ms was too short on a loaded machine (see the README).
    const own = await startStripeLocal({ testClockDelayMs: 3_000 });
    try {
      const { stripe, server } = own;
      const clock = await stripe.testHelpers.testClocks.create({ frozen_time: at('2026-01-01T00:00:00Z') });
      const advancing = await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: at('2026-01-02T00:00:00Z') });
      expect(advancing).toMatchObject({ status: 'advancing', frozen_time: clock.frozen_time, status_details: { advancing: { target_frozen_time: at('2026-01-02T00:00:00Z') } } });
      await expect(stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: at('2026-01-03T00:00:00Z') })).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      await server.clocksIdle();
      expect(await stripe.testHelpers.testClocks.retrieve(clock.id)).toMatchObject({ status: 'ready', frozen_time: at('2026-01-02T00:00:00Z') });
      await expect(stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: at('2026-01-01T00:00:00Z') })).rejects.toMatchObject({ param: 'frozen_time' });
    } finally {
      await own.server.close();
    }
  });

  it('when the portal opens on a cancel flow, then confirming cancels at period end and returns to the flow’s URL', async () => {
    const { stripe } = running();
    const { customer } = await clockedCustomer(running(), at('2026-07-01T00:00:00Z'));
    const subscription = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: (await monthly(running(), 500, 'Flow')).id }] });
    const portal = await stripe.billingPortal.sessions.create({
      customer: customer.id,
      flow_data: { type: 'subscription_cancel', subscription_cancel: { subscription: subscription.id }, after_completion: { type: 'redirect', redirect: { return_url: 'http://app.test/canceled' } } },
    });
    expect(await (await fetch(portal.url)).text()).toContain('Cancel this plan at the end of the period?');
    const answer = await postForm(`${portal.url}/cancel`, { subscription: subscription.id });
    expect(answer).toMatchObject({ status: 303, location: 'http://app.test/canceled' });
    expect(await stripe.subscriptions.retrieve(subscription.id)).toMatchObject({ status: 'active', cancel_at_period_end: true });
    expect((await postForm(`${portal.url}/renew`, { subscription: subscription.id })).status).toBe(303);
    expect((await stripe.subscriptions.retrieve(subscription.id)).cancel_at_period_end).toBe(false);
  });
});
