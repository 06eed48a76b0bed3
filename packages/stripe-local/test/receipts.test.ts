import type Stripe from 'stripe';
import type { ReceiptMail } from '../src/objects/charge';
import { CARDS, card, postForm } from './hosted-forms';
import { useStripeLocal } from './start-stripe-local';

const mailed: ReceiptMail[] = [];
const running = useStripeLocal({ accountName: 'Tollgate', mailReceipt: (mail) => void mailed.push(mail) });
const text = (markup: string): string => markup.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('receipts of card payments', () => {
  it('when a person pays at Checkout with 4242, then the charge is listed with its receipt_url, the receipt page shows what was paid with which card, and the receipt is mailed', async () => {
    const { stripe, server } = running();
    const price = await stripe.prices.create({ currency: 'eur', unit_amount: 2500, recurring: { interval: 'month' }, product_data: { name: 'Token Pro' } });
    const session = await stripe.checkout.sessions.create({ mode: 'subscription', line_items: [{ price: price.id, quantity: 1 }], customer_email: 'ada@example.test', success_url: 'http://app.test/done' });
    expect((await postForm(session.url!, card(CARDS.ok))).status).toBe(303);
    await server.settle();
    const customer = (await stripe.checkout.sessions.retrieve(session.id)).customer as string;

    const charges = await stripe.charges.list({ customer });
    expect(charges.data).toHaveLength(1);
    const charge = charges.data[0] as Stripe.Charge;
    expect(charge).toMatchObject({ object: 'charge', amount: 2500, currency: 'eur', paid: true, status: 'succeeded', customer, receipt_email: 'ada@example.test', payment_method_details: { type: 'card', card: { brand: 'visa', last4: '4242' } } });
    expect(charge.id).toMatch(/^ch_/);
    expect(charge.receipt_url).toMatch(/\/receipts\/ch_/);
    expect((await stripe.charges.retrieve(charge.id)).receipt_url).toBe(charge.receipt_url);

    const page = text(await (await fetch(charge.receipt_url!)).text());
    expect(page).toContain('Receipt from Tollgate');
    expect(page).toContain('Amount paid €25.00');
    expect(page).toContain('VISA – 4242');
    expect(page).toContain('1 × Token Pro (at €25.00 / month)');

    expect(mailed).toHaveLength(1);
    expect(mailed[0]).toMatchObject({ to: 'ada@example.test', charge: charge.id, subject: `Your receipt from Tollgate #${charge.receipt_number}` });
    expect(mailed[0]!.text).toContain(`View your receipt: ${charge.receipt_url}`);
  });

  it('when a charge fails (0341), then no charge and no receipt are made', async () => {
    const { stripe } = running();
    const before = mailed.length;
    const price = await stripe.prices.create({ currency: 'eur', unit_amount: 900, recurring: { interval: 'month' }, product_data: { name: 'Token Starter' } });
    const session = await stripe.checkout.sessions.create({ mode: 'subscription', line_items: [{ price: price.id, quantity: 1 }], customer_email: 'bob@example.test', success_url: 'http://app.test/done' });
    expect((await postForm(session.url!, card(CARDS.chargeFails))).status).toBe(402);
    const customers = await stripe.customers.list({ email: 'bob@example.test' });
    expect((await stripe.charges.list({ customer: customers.data[0]!.id })).data).toEqual([]);
    expect(mailed.length).toBe(before);
  });
});
