import Stripe from 'stripe';
import { API_VERSION } from '../src/api-version';
import { signatureHeader } from '../src/webhooks/signature-header';
import { CARDS } from './hosted-forms';
import { startStripeLocal } from './start-stripe-local';
import type { Running } from './start-stripe-local';
import { startReceiver } from './webhook-receiver';

async function paidCheckout({ stripe, server }: Running, email: string): Promise<Stripe.Checkout.Session> {
  const price = await stripe.prices.create({ currency: 'eur', unit_amount: 950, recurring: { interval: 'month' }, product_data: { name: 'Token Starter' } });
  const session = await stripe.checkout.sessions.create({ mode: 'subscription', line_items: [{ price: price.id, quantity: 1 }], customer_email: email, success_url: 'http://app.test/ok' });
  server.completeCheckout(session.id, { number: CARDS.ok, expiry: '12/34', cvc: '123' });
  return stripe.checkout.sessions.retrieve(session.id);
}

describe('webhooks', () => {
  let running: Running;
  let logged: string[];
  beforeEach(async () => {
    logged = [];
    running = await startStripeLocal({ webhookRetryMs: 5, webhookMaxAttempts: 3, log: (line) => logged.push(line) });
  });
  afterEach(async () => {
    await running.server.close();
  });

  it('when a checkout completes, then each wanted event reaches the receiver signed so that constructEvent accepts it', async () => {
    const { stripe, server } = running;
    const receiver = await startReceiver();
    try {
      const endpoint = await stripe.webhookEndpoints.create({ url: receiver.url, enabled_events: ['checkout.session.completed', 'customer.subscription.created', 'customer.subscription.updated', 'invoice.paid'] });
      expect(endpoint.id).toMatch(/^we_/);
      expect(endpoint.secret).toMatch(/^whsec_/);
      expect((await stripe.webhookEndpoints.retrieve(endpoint.id)).secret).toBeUndefined();
      const session = await paidCheckout(running, 'hooked@example.test');
      await server.deliveriesIdle();

      const events = receiver.received.map((delivery) => stripe.webhooks.constructEvent(delivery.body, delivery.signature, endpoint.secret!));
      expect(events.map((event) => event.type)).toEqual(['customer.subscription.created', 'invoice.paid', 'customer.subscription.updated', 'checkout.session.completed']);
      expect(receiver.received[0]!.userAgent).toContain('Stripe/1.0');
      for (const event of events) expect(event).toMatchObject({ object: 'event', api_version: API_VERSION, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null } });
      const completed = events[3] as Stripe.CheckoutSessionCompletedEvent;
      expect(completed.data.object).toMatchObject({ id: session.id, status: 'complete', subscription: session.subscription, customer: session.customer });
      const updated = events[2] as Stripe.CustomerSubscriptionUpdatedEvent;
      expect(updated.data.object.status).toBe('active');
      expect(updated.data.previous_attributes).toEqual({ status: 'incomplete' });
      const created = events[0] as Stripe.CustomerSubscriptionCreatedEvent;
      expect(created.data.object.status).toBe('incomplete');
      const paid = events[1] as Stripe.InvoicePaidEvent;
      expect(paid.data.object.parent?.subscription_details?.subscription).toBe(session.subscription);

      const stored = await stripe.events.retrieve(completed.id);
      expect(stored).toMatchObject({ id: completed.id, type: 'checkout.session.completed', pending_webhooks: 0 });
      const listed = await stripe.events.list({ type: 'customer.*' });
      expect(listed.data.map((event) => event.type)).toEqual(expect.arrayContaining(['customer.created', 'customer.subscription.created', 'customer.subscription.updated']));
      expect(listed.data.every((event) => event.type.startsWith('customer.'))).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('when the receiver fails, then the event is retried with backoff, each failure logged with the answer, and listed undelivered after the last attempt', async () => {
    const { stripe, server } = running;
    const flaky = await startReceiver((n) => (n === 1 ? 500 : 200));
    const down = await startReceiver(() => 503);
    try {
      await stripe.webhookEndpoints.create({ url: flaky.url, enabled_events: ['customer.created'] });
      await stripe.webhookEndpoints.create({ url: down.url, enabled_events: ['*'] });
      const customer = await stripe.customers.create({ email: 'retry@example.test' }, { idempotencyKey: 'retry-customer' });
      await server.deliveriesIdle();
      expect(flaky.received).toHaveLength(2);
      expect(flaky.received[1]!.body).toBe(flaky.received[0]!.body);
      expect(down.received).toHaveLength(3);
      const event = JSON.parse(flaky.received[0]!.body) as Stripe.Event;
      expect(event).toMatchObject({ type: 'customer.created', data: { object: { id: customer.id } }, request: { idempotency_key: 'retry-customer', id: customer.lastResponse.requestId } });
      const undelivered = await stripe.events.list({ delivery_success: false });
      expect(undelivered.data.map((e) => e.id)).toContain(event.id);
      expect((await stripe.events.retrieve(event.id)).pending_webhooks).toBe(1);
      const about = (url: string) => logged.filter((line) => line.includes(`${event.id} (customer.created) to ${url}`));
      expect(about(flaky.url)).toEqual([`stripe-local: delivering ${event.id} (customer.created) to ${flaky.url} failed, attempt 1 of 3, the next in 5 ms: HTTP 500`]);
      expect(about(down.url)).toEqual([
        `stripe-local: delivering ${event.id} (customer.created) to ${down.url} failed, attempt 1 of 3, the next in 5 ms: HTTP 503`,
        `stripe-local: delivering ${event.id} (customer.created) to ${down.url} failed, attempt 2 of 3, the next in 10 ms: HTTP 503`,
        `stripe-local: gave up delivering ${event.id} (customer.created) to ${down.url} after 3 attempts: HTTP 503`,
      ]);
    } finally {
      await flaky.close();
      await down.close();
    }
  });

  it('when a header is made by generateTestHeaderString or by this server, then both are the same and constructEvent accepts both alike', () => {
    const stripe = new Stripe('sk_test_x');
    const secret = 'whsec_test_secret';
    const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'invoice.paid' }, null, 2);
    const timestamp = Math.floor(Date.now() / 1000);
    const theirs = stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
    const ours = signatureHeader(payload, secret, timestamp);
    expect(ours).toBe(theirs);
    expect(stripe.webhooks.constructEvent(payload, ours, secret)).toEqual(stripe.webhooks.constructEvent(payload, theirs, secret));
    expect(() => stripe.webhooks.constructEvent(payload.replace('invoice', 'invoices'), ours, secret)).toThrow(Stripe.errors.StripeSignatureVerificationError);
    expect(() => stripe.webhooks.constructEvent(payload, signatureHeader(payload, secret, timestamp - 600), secret)).toThrow(Stripe.errors.StripeSignatureVerificationError);
  });

  it('when endpoints are listed, updated and deleted, then they answer as Stripe’s do', async () => {
    const { stripe } = running;
    const endpoint = await stripe.webhookEndpoints.create({ url: 'http://127.0.0.1:9/none', enabled_events: ['invoice.paid'], description: 'billing' });
    expect((await stripe.webhookEndpoints.update(endpoint.id, { disabled: true })).status).toBe('disabled');
    expect((await stripe.webhookEndpoints.list()).data.map((e) => e.id)).toEqual([endpoint.id]);
    expect(await stripe.webhookEndpoints.del(endpoint.id)).toMatchObject({ id: endpoint.id, deleted: true });
    await expect(stripe.webhookEndpoints.create({ url: 'not a url', enabled_events: ['*'] })).rejects.toMatchObject({ param: 'url' });
  });
});
