import type Stripe from 'stripe';
import { at, clockedCustomer } from './clock-fixtures';
import { CARDS, card, postForm } from './hosted-forms';
import { useStripeLocal } from './start-stripe-local';

const running = useStripeLocal({ accountName: 'Tollgate' });

/** A customer who paid a monthly plan through the hosted Checkout page with `number`. */
async function paidThroughCheckout(stripe: Stripe, number: string): Promise<{ customer: string; subscription: Stripe.Subscription }> {
  const price = await stripe.prices.create({ currency: 'usd', unit_amount: 575, recurring: { interval: 'month' }, product_data: { name: 'Burger Starter' } });
  const created = await stripe.checkout.sessions.create({ mode: 'subscription', line_items: [{ price: price.id, quantity: 1 }], customer_email: 'ada@example.test', success_url: 'http://app.test/done', cancel_url: 'http://app.test/back' });
  expect((await postForm(created.url!, card(number))).status).toBe(303);
  const done = await stripe.checkout.sessions.retrieve(created.id, { expand: ['subscription'] });
  return { customer: done.customer as string, subscription: done.subscription as Stripe.Subscription };
}

const text = (markup: string): string => markup.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('the hosted pages say what Stripe’s say', () => {
  it('when a person paid with 4242 at Checkout, then the customer portal shows that card, and its back link names the business and goes to return_url', async () => {
    const { stripe } = running();
    const { customer } = await paidThroughCheckout(stripe, CARDS.ok);
    const portal = await stripe.billingPortal.sessions.create({ customer, return_url: 'http://app.test/portal/billing' });
    const markup = await (await fetch(portal.url)).text();
    expect(text(markup)).toContain('VISA •••• 4242');
    expect(markup).not.toContain('No card on file');
    expect(markup).toMatch(/<a href="http:\/\/app\.test\/portal\/billing" id="return">← Return to Tollgate<\/a>/);
  });

  it('when an invoice is paid, then its page says "Paid on" and the date once, with no status word repeated', async () => {
    const { stripe } = running();
    const { subscription } = await paidThroughCheckout(stripe, CARDS.ok);
    const invoice = await stripe.invoices.retrieve(subscription.latest_invoice as string);
    const page = text(await (await fetch(invoice.hosted_invoice_url!)).text());
    expect(page).toMatch(/Paid on \d{1,2} [A-Z][a-z]{2} \d{4}/);
    expect(page).not.toMatch(/paid paid/i);
  });
});

describe('the hosted Checkout page of a subscription whose first period ends on the 1st', () => {
  it('when it is shown, then it says what is due today (the prorated first period) and what recurs from when, as the session’s amount_total says', async () => {
    const { stripe } = running();
    const { customer } = await clockedCustomer(running(), at('2026-03-16T12:00:00Z'));
    const price = await stripe.prices.create({ currency: 'eur', unit_amount: 2500, recurring: { interval: 'month' }, product_data: { name: 'Token Pro' } });
    const session = await stripe.checkout.sessions.create({ mode: 'subscription', customer: customer.id, line_items: [{ price: price.id, quantity: 1 }], subscription_data: { billing_cycle_anchor: at('2026-04-01T00:00:00Z') }, success_url: 'http://app.test/done' });
    // 15.5 of March's 31 days.
    expect(session).toMatchObject({ amount_subtotal: 1250, amount_total: 1250 });
    const page = text(await (await fetch(session.url!)).text());
    expect(page).toContain('€25.00 per month');
    expect(page).toContain('Total due today €12.50');
    expect(page).toContain('Then €25.00 per month starting 1 Apr 2026.');
  });
});
