import Stripe from 'stripe';
import { CARDS, card, postForm } from './hosted-forms';
import { startStripeLocal, useStripeLocal } from './start-stripe-local';

const running = useStripeLocal();

async function monthlyPrice(stripe: Stripe, unitAmount = 575): Promise<Stripe.Price> {
  return stripe.prices.create({ currency: 'usd', unit_amount: unitAmount, recurring: { interval: 'month' }, product_data: { name: 'Burger Starter' } });
}

async function session(stripe: Stripe, price: string, extra: Partial<Stripe.Checkout.SessionCreateParams> = {}): Promise<Stripe.Checkout.Session> {
  return stripe.checkout.sessions.create({
    mode: 'subscription',
    line_items: [{ price, quantity: 1 }],
    success_url: 'http://app.test/billing/done?session_id={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://app.test/billing',
    ...extra,
  });
}

describe('Checkout through the hosted page', () => {
  it('when a person pays with 4242, then they are redirected to success_url and the session, customer, subscription and invoice are as Stripe makes them', async () => {
    const { stripe, url } = running();
    const price = await monthlyPrice(stripe);
    const created = await session(stripe, price.id, {
      customer_email: 'ada@example.test',
      client_reference_id: 'account_42',
      metadata: { account: '42' },
      subscription_data: { metadata: { api: 'burger', plan: 'starter' } },
    });
    expect(created).toMatchObject({ object: 'checkout.session', status: 'open', payment_status: 'unpaid', mode: 'subscription', customer: null, subscription: null, amount_total: 575, currency: 'usd' });
    expect(created.id).toMatch(/^cs_test_/);
    expect(created.url).toBe(`${url}/checkout/${created.id}`);

    const shown = await fetch(created.url!);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-security-policy')).toContain("default-src 'none'");
    const markup = await shown.text();
    expect(markup).toContain('<form method="post"');
    expect(markup).toContain('ada@example.test');
    expect(markup).not.toContain('<script');

    const answer = await postForm(created.url!, card(CARDS.ok));
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`http://app.test/billing/done?session_id=${created.id}`);

    const done = await stripe.checkout.sessions.retrieve(created.id, { expand: ['subscription.latest_invoice', 'customer', 'line_items'] });
    expect(done).toMatchObject({ status: 'complete', payment_status: 'paid', client_reference_id: 'account_42', metadata: { account: '42' }, url: null });
    expect(done.line_items?.data[0]).toMatchObject({ price: { id: price.id }, quantity: 1, amount_total: 575 });
    const customer = done.customer as Stripe.Customer;
    expect(customer).toMatchObject({ object: 'customer', email: 'ada@example.test', livemode: false });
    expect(customer.id).toMatch(/^cus_/);
    const subscription = done.subscription as Stripe.Subscription;
    expect(subscription).toMatchObject({ object: 'subscription', status: 'active', customer: customer.id, metadata: { api: 'burger', plan: 'starter' }, cancel_at_period_end: false });
    expect(subscription.id).toMatch(/^sub_/);
    const item = subscription.items.data[0]!;
    expect(item.id).toMatch(/^si_/);
    expect(item.price.id).toBe(price.id);
    expect(item.current_period_end - item.current_period_start).toBeGreaterThanOrEqual(28 * 86_400);
    const invoice = subscription.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({ object: 'invoice', status: 'paid', amount_due: 575, amount_paid: 575, currency: 'usd', billing_reason: 'subscription_create', attempt_count: 1 });
    expect(invoice.id).toMatch(/^in_/);
    expect(invoice.parent?.subscription_details?.subscription).toBe(subscription.id);
    expect(invoice.lines.data[0]).toMatchObject({ amount: 575, period: { start: item.current_period_start, end: item.current_period_end } });
    expect(typeof subscription.default_payment_method).toBe('string');
    const paymentMethod = await stripe.paymentMethods.retrieve(subscription.default_payment_method as string);
    expect(paymentMethod).toMatchObject({ customer: customer.id, card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 } });

    const again = await fetch(created.url!);
    expect(await again.text()).toContain('Your subscription is active.');
  });

  it('when the card is 0341, then it is saved to a new customer, the page shows the decline, and 4242 then pays for the same customer', async () => {
    const { stripe } = running();
    const price = await monthlyPrice(stripe);
    const created = await session(stripe, price.id);
    const form = { email: 'grace@example.test', billingName: 'Grace', ...card(CARDS.chargeFails) };
    const declined = await postForm(created.url!, form);
    expect(declined.status).toBe(402);
    expect(declined.body).toContain('Your card was declined.');
    expect(declined.body).toContain('value="grace@example.test"');
    expect((await stripe.checkout.sessions.retrieve(created.id)).status).toBe('open');
    const [customer] = (await stripe.customers.list({ email: 'grace@example.test' })).data;
    expect(customer).toBeDefined();
    const saved = await stripe.customers.listPaymentMethods(customer!.id);
    expect(saved.data.map((pm) => pm.card?.last4)).toEqual(['0341']);

    expect((await postForm(created.url!, { ...form, ...card(CARDS.ok) })).status).toBe(303);
    const done = await stripe.checkout.sessions.retrieve(created.id);
    expect(done.customer).toBe(customer!.id);
    expect((await stripe.subscriptions.retrieve(done.subscription as string)).status).toBe('active');
  });

  it('when the card is 9995, then it is declined for insufficient funds and nothing is made', async () => {
    const { stripe } = running();
    const price = await monthlyPrice(stripe);
    const created = await session(stripe, price.id);
    const declined = await postForm(created.url!, { email: 'nofunds@example.test', ...card(CARDS.insufficientFunds) });
    expect(declined.status).toBe(402);
    expect(declined.body).toContain('Your card has insufficient funds.');
    expect((await stripe.customers.list({ email: 'nofunds@example.test' })).data).toEqual([]);
    expect((await stripe.checkout.sessions.retrieve(created.id)).status).toBe('open');
  });

  it.each([
    [{ email: 'x@example.test', ...card('4242 4242 4242 4241') }, 'Your card number is incorrect.'],
    [{ email: 'x@example.test', ...card(CARDS.ok), cardExpiry: '01 / 20' }, "Your card's expiration year is invalid."],
    [{ email: 'x@example.test', ...card(CARDS.ok), cardCvc: '1' }, "Your card's security code is invalid."],
    [{ email: 'not-an-email', ...card(CARDS.ok) }, 'Your email address is invalid.'],
    [{ email: 'x@example.test', ...card('4000 0000 0000 0077') }, 'non test (live) card'],
  ])('when the form is %j, then the page says %s', async (form, message) => {
    const { stripe } = running();
    const created = await session(stripe, (await monthlyPrice(stripe)).id);
    const answer = await postForm(created.url!, form);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.body).toContain(message.replace(/'/g, '&#39;'));
  });

  it('when a session is expired, then its page says so and it cannot be paid', async () => {
    const { stripe } = running();
    const created = await session(stripe, (await monthlyPrice(stripe)).id);
    expect(await stripe.checkout.sessions.expire(created.id)).toMatchObject({ status: 'expired', url: null });
    const answer = await postForm(`${running().url}/checkout/${created.id}`, { email: 'late@example.test', ...card(CARDS.ok) });
    expect(answer.body).toContain('This Checkout Session has expired.');
    expect((await stripe.checkout.sessions.retrieve(created.id)).status).toBe('expired');
  });

  it('when the session names a customer and a billing_cycle_anchor, then the first invoice is prorated to the anchor', async () => {
    const start = Date.parse('2026-03-01T00:00:00Z');
    const { server, stripe } = await startStripeLocal({ clock: () => start });
    try {
      const price = await monthlyPrice(stripe, 2800);
      const customer = await stripe.customers.create({ email: 'anchor@example.test' });
      const anchor = Date.parse('2026-03-16T00:00:00Z') / 1000;
      const created = await session(stripe, price.id, { customer: customer.id, subscription_data: { billing_cycle_anchor: anchor } });
      server.completeCheckout(created.id, { number: CARDS.ok, expiry: '12/34', cvc: '123' });
      const done = await stripe.checkout.sessions.retrieve(created.id, { expand: ['subscription.latest_invoice'] });
      const subscription = done.subscription as Stripe.Subscription;
      const invoice = subscription.latest_invoice as Stripe.Invoice;
      // 15 of the 28 days from 16 February to 16 March.
      expect(invoice.amount_paid).toBe(1500);
      expect(invoice.lines.data[0]?.parent?.subscription_item_details?.proration).toBe(true);
      expect(subscription.billing_cycle_anchor).toBe(anchor);
      expect(subscription.items.data[0]).toMatchObject({ current_period_start: start / 1000, current_period_end: anchor });
      await expect(session(stripe, price.id, { customer: customer.id, subscription_data: { billing_cycle_anchor: start / 1000 - 1 } })).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    } finally {
      await server.close();
    }
  });

  it('when a customer pays for a USD plan, then its recurring billing is in USD: a EUR session or subscription for it is refused, and a new customer can take the EUR one', async () => {
    const { stripe, server } = running();
    const usd = await monthlyPrice(stripe, 575);
    const eur = await stripe.prices.create({ currency: 'eur', unit_amount: 1390, recurring: { interval: 'month' }, product_data: { name: 'Logs Starter' } });
    const customer = await stripe.customers.create({ email: 'two-currencies@example.test' });
    expect(customer.currency).toBeNull();
    const first = await session(stripe, usd.id, { customer: customer.id });
    server.completeCheckout(first.id, { number: CARDS.ok, expiry: '12/34', cvc: '123' });
    expect((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).toMatchObject({ currency: 'usd' });

    const combine = /You cannot combine currencies on a single customer/;
    await expect(session(stripe, eur.id, { customer: customer.id })).rejects.toMatchObject({ type: 'StripeInvalidRequestError', param: 'line_items', message: expect.stringMatching(combine) });
    await expect(stripe.subscriptions.create({ customer: customer.id, items: [{ price: eur.id }], default_payment_method: 'pm_card_visa' })).rejects.toMatchObject({ param: 'items', message: expect.stringMatching(combine) });
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toHaveLength(1);

    const euros = await stripe.customers.create({ email: 'two-currencies@example.test' });
    const second = await session(stripe, eur.id, { customer: euros.id });
    server.completeCheckout(second.id, { number: CARDS.ok, expiry: '12/34', cvc: '123' });
    expect((await stripe.customers.retrieve(euros.id)) as Stripe.Customer).toMatchObject({ currency: 'eur' });
  });
});
