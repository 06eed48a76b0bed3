import type Stripe from 'stripe';
import { card, CARDS, postForm } from './hosted-forms';
import { useStripeLocal } from './start-stripe-local';

const running = useStripeLocal();

async function taxedSession(stripe: Stripe, email: string): Promise<Stripe.Checkout.Session> {
  const price = await stripe.prices.create({ currency: 'eur', unit_amount: 2500, recurring: { interval: 'month' }, product_data: { name: 'Token Pro' } });
  const customer = await stripe.customers.create({ email });
  return stripe.checkout.sessions.create({
    mode: 'subscription',
    customer: customer.id,
    line_items: [{ price: price.id, quantity: 1 }],
    automatic_tax: { enabled: true },
    billing_address_collection: 'required',
    tax_id_collection: { enabled: true },
    customer_update: { address: 'auto', name: 'auto' },
    success_url: 'http://app.test/done',
  });
}

describe('Stripe Tax, from the documented rate table', () => {
  it('when a person in Germany pays a taxed Checkout, then the address is saved and every invoice carries 19% VAT on top', async () => {
    const { stripe } = running();
    const session = await taxedSession(stripe, 'de@example.test');
    expect(session).toMatchObject({ automatic_tax: { enabled: true, status: 'requires_location_input' }, billing_address_collection: 'required', tax_id_collection: { enabled: true } });
    const page = await (await fetch(session.url!)).text();
    expect(page).toContain('id="billingCountry"');
    expect(page).toContain('id="taxId"');
    expect((await postForm(session.url!, { ...card(CARDS.ok), billingCountry: '' })).status).toBe(400);
    expect((await postForm(session.url!, { ...card(CARDS.ok), billingCountry: 'DE', billingLine1: 'Unter den Linden 1', billingPostalCode: '10117', billingCity: 'Berlin' })).status).toBe(303);
    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription.latest_invoice'] });
    expect(done.customer_details?.address).toMatchObject({ country: 'DE', city: 'Berlin' });
    expect(done.total_details?.amount_tax).toBe(475);
    const invoice = (done.subscription as Stripe.Subscription).latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({ subtotal: 2500, total: 2975, amount_paid: 2975, total_excluding_tax: 2500, automatic_tax: { enabled: true, status: 'complete' } });
    expect(invoice.total_taxes).toEqual([expect.objectContaining({ amount: 475, taxability_reason: 'standard_rated', taxable_amount: 2500 })]);
    expect((await stripe.customers.retrieve(done.customer as string)) as Stripe.Customer).toMatchObject({ address: { country: 'DE' } });
    const shown = (await (await fetch(invoice.hosted_invoice_url!)).text()).replace(/<[^>]+>/g, ' ');
    expect(shown).toMatch(/Tax \(19%\)\s+€4\.75/);
  });

  it('when a business in France gives its VAT number, then no VAT is charged (reverse charge); a number of another country is refused', async () => {
    const { stripe } = running();
    const session = await taxedSession(stripe, 'fr@example.test');
    const address = { billingCountry: 'FR', billingCity: 'Paris' };
    expect((await postForm(session.url!, { ...card(CARDS.ok), ...address, taxId: 'DE123456789' })).status).toBe(400);
    expect((await postForm(session.url!, { ...card(CARDS.ok), ...address, taxId: 'FR 12 345678901' })).status).toBe(303);
    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription.latest_invoice'] });
    expect(done.customer_details?.tax_ids).toEqual([{ type: 'eu_vat', value: 'FR12345678901' }]);
    const invoice = (done.subscription as Stripe.Subscription).latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({ total: 2500, total_taxes: [expect.objectContaining({ amount: 0, taxability_reason: 'reverse_charge' })] });
  });

  it('when a taxed session is made for a customer without an address and without customer_update[address]=auto, then it is Stripe’s 400', async () => {
    const { stripe } = running();
    const price = await stripe.prices.create({ currency: 'eur', unit_amount: 100, recurring: { interval: 'month' }, product_data: { name: 'x' } });
    const customer = await stripe.customers.create({ email: 'none@example.test' });
    await expect(stripe.checkout.sessions.create({ mode: 'subscription', customer: customer.id, line_items: [{ price: price.id, quantity: 1 }], automatic_tax: { enabled: true }, success_url: 'http://app.test/done' })).rejects.toMatchObject({ param: 'customer_update[address]' });
  });
});
