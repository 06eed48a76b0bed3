import Stripe from 'stripe';
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
