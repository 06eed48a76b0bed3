import type Stripe from 'stripe';
import { advance, at, clockedCustomer, monthly } from './clock-fixtures';
import { useStripeLocal } from './start-stripe-local';

const running = useStripeLocal();

describe('invoices.createPreview (POST /v1/invoices/create_preview)', () => {
  it('when an upgrade with always_invoice is previewed, then the preview holds exactly the prorations the update then charges, and nothing is stored or charged', async () => {
    const { stripe } = running();
    const { clock, customer } = await clockedCustomer(running(), at('2026-01-01T00:00:00Z'));
    const starter = await monthly(running(), 1000, 'Starter');
    const pro = await monthly(running(), 3000, 'Pro');
    const subscription = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: starter.id }] });
    await advance(running(), clock.id, at('2026-01-16T00:00:00Z'));
    const item = subscription.items.data[0]!.id;
    const before = await stripe.invoices.list({ customer: customer.id });

    const prorationDate = at('2026-01-16T00:00:00Z');
    const preview = await stripe.invoices.createPreview({ customer: customer.id, subscription: subscription.id, subscription_details: { items: [{ id: item, price: pro.id }], proration_behavior: 'always_invoice', proration_date: prorationDate } });
    expect(preview.id).toMatch(/^upcoming_in_/);
    expect(preview).toMatchObject({ object: 'invoice', status: 'draft', billing_reason: 'subscription_update', currency: 'usd', total: 1032, amount_due: 1032, hosted_invoice_url: null });
    expect(preview.lines.data.map((line) => [line.amount, line.parent?.subscription_item_details?.proration])).toEqual([[-516, true], [1548, true]]);
    expect((await stripe.invoices.list({ customer: customer.id })).data.map((i) => i.id)).toEqual(before.data.map((i) => i.id));
    expect((await stripe.subscriptions.retrieve(subscription.id)).items.data[0]!.price.id).toBe(starter.id);

    const renewal = await stripe.invoices.createPreview({ customer: customer.id, subscription: subscription.id, subscription_details: { items: [{ id: item, price: pro.id }], proration_behavior: 'none' } });
    expect(renewal).toMatchObject({ billing_reason: 'subscription_cycle', total: 3000, created: at('2026-02-01T00:00:00Z') });
    expect(renewal.lines.data[0]!.period).toEqual({ start: at('2026-02-01T00:00:00Z'), end: at('2026-03-01T00:00:00Z') });

    const upgraded = await stripe.subscriptions.update(subscription.id, { items: [{ id: item, price: pro.id }], proration_behavior: 'always_invoice', proration_date: prorationDate, expand: ['latest_invoice'] });
    expect((upgraded.latest_invoice as Stripe.Invoice).amount_paid).toBe(preview.amount_due);
  });

  it('when a new subscription anchored to the 1st is previewed, then its first invoice is the prorated part of the month', async () => {
    const { stripe } = running();
    const { customer } = await clockedCustomer(running(), at('2026-03-16T12:00:00Z'));
    const starter = await monthly(running(), 3100, 'Anchored');
    const preview = await stripe.invoices.createPreview({ customer: customer.id, subscription_details: { items: [{ price: starter.id }], billing_cycle_anchor: { type: 'timestamp', timestamp: at('2026-04-01T00:00:00Z') } } });
    // 15.5 of March's 31 days.
    expect(preview).toMatchObject({ billing_reason: 'subscription_create', total: 1550, amount_due: 1550 });
  });

  it('when a preview names what is not there or not allowed, then it is Stripe’s 400 naming the parameter', async () => {
    const { stripe } = running();
    const { customer } = await clockedCustomer(running(), at('2026-05-01T00:00:00Z'));
    const refused = (params: Stripe.InvoiceCreatePreviewParams) => stripe.invoices.createPreview(params).then(() => undefined, (err: Stripe.errors.StripeError) => [err.type, err.param]);
    expect(await refused({ customer: customer.id })).toEqual(['StripeInvalidRequestError', 'subscription_details[items]']);
    expect(await refused({ customer: 'cus_nothere', subscription_details: { items: [{ price: 'price_nothere' }] } })).toEqual(['StripeInvalidRequestError', 'customer']);
    expect(await refused({ customer: customer.id, subscription_details: { items: [{ price: 'price_nothere' }] } })).toEqual(['StripeInvalidRequestError', 'subscription_details[items][0][price]']);
  });
});
