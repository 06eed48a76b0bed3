import type Stripe from 'stripe';
import { MID_MARCH, useBillingGateway } from './support/billing-gateway';

jest.setTimeout(60_000);

const gw = useBillingGateway({ start: MID_MARCH, env: { STRIPE_AUTOMATIC_TAX: 'true' } });

describe('taxes with STRIPE_AUTOMATIC_TAX', () => {
  it('when a person in Germany takes a plan and upgrades it, then Checkout used Stripe Tax with the address, and the invoices, the billing page and the upgrade’s preview carry 19% VAT', async () => {
    const a = await gw.account('vat@example.com');
    const started = await gw.json('POST', '/dashboard/v1/billing/checkout', a.session, { api: 'token', plan: 'pro' });
    const session = await gw.stripe.checkout.sessions.retrieve(started.body.data.session_id);
    expect(session).toMatchObject({ automatic_tax: { enabled: true }, billing_address_collection: 'required', tax_id_collection: { enabled: true } });
    gw.local.completeCheckout(session.id, { number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', country: 'DE', city: 'Berlin' });
    await gw.local.settle();

    const page = await gw.json('GET', '/dashboard/v1/billing', a.key);
    // 15.5 of March's 31 days of 25.00 EUR, and 19% on it.
    expect(page.body.data.invoices.map((i: { amount: number; tax: number }) => [i.amount, i.tax])).toEqual([[1250 + 238, 238]]);

    const shown = await gw.json('GET', '/dashboard/v1/billing/subscriptions/token/preview?plan=scale', a.session);
    expect(shown.body.data).toMatchObject({ due_now: 1725 + 328, tax_now: 328, recurring: 5950 + 1131 });
    const changed = await gw.json('PUT', '/dashboard/v1/billing/subscriptions/token', a.session, { plan: 'scale', proration_date: shown.body.data.proration_date });
    const charged = (await gw.stripe.invoices.list({ subscription: changed.body.data.subscription_id, limit: 1 })).data[0] as Stripe.Invoice;
    expect(charged).toMatchObject({ amount_paid: shown.body.data.due_now, total_excluding_tax: 1725 });
  });
});
