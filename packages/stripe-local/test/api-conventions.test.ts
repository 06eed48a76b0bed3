import Stripe from 'stripe';
import { useStripeLocal } from './start-stripe-local';

const running = useStripeLocal();

async function raw(path: string, init: RequestInit & { key?: string | null } = {}): Promise<{ status: number; body: { error?: Record<string, unknown> } & Record<string, unknown>; headers: Headers }> {
  const headers = new Headers(init.headers);
  if (init.key !== null) headers.set('Authorization', `Bearer ${init.key ?? 'sk_test_raw'}`);
  if (typeof init.body === 'string' && !headers.has('content-type')) headers.set('Content-Type', 'application/x-www-form-urlencoded');
  const response = await fetch(`${running().url}${path}`, { ...init, headers });
  return { status: response.status, body: (await response.json()) as never, headers: response.headers };
}

describe('idempotency', () => {
  it('when a POST is repeated with its key and body, then the first answer is replayed, marked Idempotent-Replayed', async () => {
    const { stripe } = running();
    const first = await stripe.customers.create({ email: 'once@example.test' }, { idempotencyKey: 'create-once' });
    const second = await stripe.customers.create({ email: 'once@example.test' }, { idempotencyKey: 'create-once' });
    expect(second.id).toBe(first.id);
    expect(second.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(second.lastResponse.headers['original-request']).toBe(first.lastResponse.requestId);
    expect((await stripe.customers.list({ email: 'once@example.test' })).data).toHaveLength(1);
  });

  it('when the key comes again with another body or endpoint, then it is a StripeIdempotencyError', async () => {
    const { stripe } = running();
    await stripe.customers.create({ email: 'a@example.test' }, { idempotencyKey: 'reused' });
    const error = await stripe.customers.create({ email: 'b@example.test' }, { idempotencyKey: 'reused' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(error).toMatchObject({ type: 'StripeIdempotencyError', rawType: 'idempotency_error', statusCode: 400 });
    await expect(stripe.products.create({ name: 'x' }, { idempotencyKey: 'reused' })).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it('when a failed request is repeated with its key, then the same error is replayed', async () => {
    const first = await raw('/v1/prices', { method: 'POST', body: 'currency=usd', headers: { 'Idempotency-Key': 'bad-price' } });
    const second = await raw('/v1/prices', { method: 'POST', body: 'currency=usd', headers: { 'Idempotency-Key': 'bad-price' } });
    expect(first.status).toBe(400);
    expect(second).toMatchObject({ status: 400, body: first.body });
    expect(second.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('lists and expand', () => {
  it('when customers are paged with limit, starting_after and ending_before, then the pages meet and has_more says where the end is', async () => {
    const { stripe } = running();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.unshift((await stripe.customers.create({ email: 'paged@example.test', metadata: { i: String(i) } })).id);
    const first = await stripe.customers.list({ email: 'paged@example.test', limit: 2 });
    expect(first).toMatchObject({ object: 'list', url: '/v1/customers', has_more: true });
    expect(first.data.map((c) => c.id)).toEqual(made.slice(0, 2));
    const second = await stripe.customers.list({ email: 'paged@example.test', limit: 2, starting_after: first.data[1]!.id });
    expect(second.data.map((c) => c.id)).toEqual(made.slice(2, 4));
    const last = await stripe.customers.list({ email: 'paged@example.test', limit: 2, starting_after: second.data[1]!.id });
    expect(last).toMatchObject({ has_more: false });
    expect(last.data.map((c) => c.id)).toEqual(made.slice(4));
    const back = await stripe.customers.list({ email: 'paged@example.test', limit: 2, ending_before: made[4]! });
    expect(back.data.map((c) => c.id)).toEqual(made.slice(2, 4));
    expect(back.has_more).toBe(true);
    const all: string[] = [];
    for await (const customer of stripe.customers.list({ email: 'paged@example.test', limit: 2 })) all.push(customer.id);
    expect(all).toEqual(made);
  });

  it('when a subscription is retrieved with nested expands, then each id becomes its object', async () => {
    const { stripe } = running();
    const price = await stripe.prices.create({ currency: 'usd', unit_amount: 1000, recurring: { interval: 'month' }, product_data: { name: 'Expanded' } });
    const customer = await stripe.customers.create({ email: 'expand@example.test' });
    const created = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], default_payment_method: 'pm_card_visa' });
    const subscription = await stripe.subscriptions.retrieve(created.id, { expand: ['customer', 'latest_invoice', 'default_payment_method', 'items.data.price.product'] });
    expect(subscription.customer).toMatchObject({ id: customer.id, object: 'customer' });
    expect(subscription.latest_invoice).toMatchObject({ object: 'invoice', status: 'paid', amount_paid: 1000 });
    expect(subscription.default_payment_method).toMatchObject({ object: 'payment_method', card: { last4: '4242' } });
    expect(subscription.items.data[0]!.price.product).toMatchObject({ object: 'product', name: 'Expanded' });
    const listed = await stripe.subscriptions.list({ customer: customer.id, expand: ['data.customer'] });
    expect(listed.data[0]!.customer).toMatchObject({ email: 'expand@example.test' });
    await expect(stripe.subscriptions.retrieve(created.id, { expand: ['status'] })).rejects.toMatchObject({ message: 'This property cannot be expanded (status).' });
    await expect(stripe.subscriptions.retrieve(created.id, { expand: ['a.b.c.d.e'] })).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
  });
});

describe('errors as Stripe sends them', () => {
  it('when the key is not a test secret key, then it is 401 and the SDK throws StripeAuthenticationError', async () => {
    const { hostname, port } = new URL(running().url);
    const live = new Stripe('sk_live_abcdefghijklmnop', { host: hostname, port: Number(port), protocol: 'http', maxNetworkRetries: 0 });
    await expect(live.customers.list()).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    const missing = await raw('/v1/customers', { key: null });
    expect(missing.status).toBe(401);
    expect(missing.body.error).toMatchObject({ type: 'invalid_request_error' });
    expect(String(missing.body.error?.message)).toContain('You did not provide an API key');
  });

  it.each([
    ['GET', '/v1/nope'],
    ['PUT', '/v1/customers'],
    ['PATCH', '/v1/customers/cus_1'],
    ['DELETE', '/v1/prices/price_1'],
    ['GET', '/v1/customers/%E0%A4%A'],
    ['GET', '/v1'],
    ['GET', '/nowhere'],
  ])('when %s %s is not an endpoint, then it is 404 "Unrecognized request URL"', async (method, path) => {
    const answer = await raw(path, { method });
    expect(answer.status).toBe(404);
    expect(answer.body.error).toMatchObject({ type: 'invalid_request_error' });
    expect(String(answer.body.error?.message)).toMatch(/^Unrecognized request URL/);
  });

  it.each([
    ['metadata=1&metadata[a]=2', 'metadata[1]'],
    ['email[]=a', 'email'],
    ['email=a&email=b', 'email'],
    ['a[b][c][d][e][f][g][h]=1', undefined],
    ['%ZZ=1', '%ZZ'],
    ['constructor[prototype][x]=1', 'constructor'],
    ['invoice_settings=x', 'invoice_settings'],
    [`metadata[${'k'.repeat(41)}]=v`, 'metadata'],
  ])('when the body is %s, then it is a 400 invalid_request_error', async (body, param) => {
    const answer = await raw('/v1/customers', { method: 'POST', body });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', ...(param ? { param } : {}) });
  });

  it('when invoices are listed for a customer it does not have, then it is resource_missing naming the customer, as Stripe answers, not an empty list', async () => {
    const { stripe } = running();
    const error = await stripe.invoices.list({ customer: 'cus_NeverMade0123456789' }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ code: 'resource_missing', param: 'customer', message: "No such customer: 'cus_NeverMade0123456789'" });
  });

  it('when the body is JSON or too large, then it is refused with Stripe’s error object', async () => {
    const json = await raw('/v1/customers', { method: 'POST', body: '{"email":"a"}', headers: { 'Content-Type': 'application/json' } });
    expect(json.status).toBe(400);
    const large = await raw('/v1/customers', { method: 'POST', body: `description=${'x'.repeat(1_100_000)}` });
    expect(large.status).toBe(413);
    expect(large.body.error).toMatchObject({ type: 'invalid_request_error' });
  });

  it('when a charge is declined, then the SDK throws StripeCardError with the decline code', async () => {
    const { stripe } = running();
    const price = await stripe.prices.create({ currency: 'usd', unit_amount: 500, recurring: { interval: 'month' }, product_data: { name: 'Declined' } });
    const customer = await stripe.customers.create({ email: 'declined@example.test' });
    const error = await stripe.subscriptions
      .create({ customer: customer.id, items: [{ price: price.id }], default_payment_method: 'pm_card_visa_chargeDeclinedInsufficientFunds', payment_behavior: 'error_if_incomplete' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(error).toMatchObject({ statusCode: 402, code: 'card_declined', decline_code: 'insufficient_funds', rawType: 'card_error' });
    expect((await stripe.subscriptions.list({ customer: customer.id, status: 'all' })).data).toEqual([]);

    const [declining] = (await stripe.customers.listPaymentMethods(customer.id)).data;
    const incomplete = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], default_payment_method: declining!.id });
    expect(incomplete.status).toBe('incomplete');
    const invoice = await stripe.invoices.retrieve(incomplete.latest_invoice as string);
    expect(invoice).toMatchObject({ status: 'open', attempt_count: 1, next_payment_attempt: null });
    await expect(stripe.invoices.pay(invoice.id)).rejects.toMatchObject({ type: 'StripeCardError', decline_code: 'insufficient_funds' });
    expect((await stripe.invoices.retrieve(invoice.id)).attempt_count).toBe(2);
    const card = await stripe.paymentMethods.attach('pm_card_mastercard', { customer: customer.id });
    expect(card).toMatchObject({ customer: customer.id, card: { brand: 'mastercard', last4: '4444' } });
    expect(await stripe.invoices.pay(invoice.id, { payment_method: card.id })).toMatchObject({ status: 'paid', attempt_count: 3 });
    expect((await stripe.subscriptions.retrieve(incomplete.id)).status).toBe('active');
  });
});
