import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { createStripeLocal } from '../src/create-stripe-local';
import type { StripeLocal } from '../src/create-stripe-local';
import { CARDS, card, postForm } from './hosted-forms';

// The demo keeps stripe-local's state beside the gateway's store: a restart of the demo must find
// every customer, subscription and invoice the gateway remembers, on the same port.
let dir: string;
const servers: StripeLocal[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stripe-local-state-'));
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(stateFile: string, port = 0): Promise<{ server: StripeLocal; stripe: Stripe; url: string }> {
  const server = createStripeLocal({ stateFile, webhookRetryMs: 5 });
  servers.push(server);
  const url = await server.listen(port);
  const { hostname, port: listened } = new URL(url);
  return { server, url, stripe: new Stripe('sk_test_state', { host: hostname, port: Number(listened), protocol: 'http', maxNetworkRetries: 0 }) };
}

/** A customer who paid a monthly plan through the hosted Checkout page. */
async function paidCustomer(stripe: Stripe): Promise<{ customer: string; subscription: string }> {
  const price = await stripe.prices.create({ currency: 'usd', unit_amount: 1690, recurring: { interval: 'month' }, product_data: { name: 'Burger Pro' }, lookup_key: 'burger:pro' });
  const customer = await stripe.customers.create({ email: 'kept@example.test', metadata: { tollgate_account: 'acc_1' } });
  const session = await stripe.checkout.sessions.create({ mode: 'subscription', customer: customer.id, line_items: [{ price: price.id, quantity: 1 }], success_url: 'http://app.test/ok' });
  expect((await postForm(session.url!, card(CARDS.ok))).status).toBe(303);
  const paid = await stripe.checkout.sessions.retrieve(session.id);
  return { customer: customer.id, subscription: paid.subscription as string };
}

describe('stateFile', () => {
  it('when stripe-local is stopped and started again on its state file, then customers, subscriptions, invoices, prices and webhook endpoints are all there, on the port it had', async () => {
    const file = join(dir, 'stripe-local.json');
    const first = await start(file);
    const { customer, subscription } = await paidCustomer(first.stripe);
    const endpoint = await first.stripe.webhookEndpoints.create({ url: 'http://127.0.0.1:9/hook', enabled_events: ['invoice.paid'] });
    const before = {
      customer: await first.stripe.customers.retrieve(customer),
      subscription: await first.stripe.subscriptions.retrieve(subscription),
      invoices: (await first.stripe.invoices.list({ customer })).data,
      prices: (await first.stripe.prices.list({ lookup_keys: ['burger:pro'] })).data,
    };
    expect(before.invoices).toHaveLength(1);
    await first.server.close();
    servers.splice(0);

    const again = createStripeLocal({ stateFile: file });
    expect(again.savedPort).toBe(Number(new URL(first.url).port));
    await again.close();
    const second = await start(file, again.savedPort!);
    expect(second.url).toBe(first.url);
    expect(await second.stripe.customers.retrieve(customer)).toEqual(before.customer);
    expect(await second.stripe.subscriptions.retrieve(subscription)).toEqual(before.subscription);
    expect((await second.stripe.invoices.list({ customer })).data).toEqual(before.invoices);
    expect((await second.stripe.prices.list({ lookup_keys: ['burger:pro'] })).data).toEqual(before.prices);
    expect(second.server.webhookSecretOf(endpoint.id)).toBe(endpoint.secret);
    const portal = await second.stripe.billingPortal.sessions.create({ customer, return_url: 'http://app.test/billing' });
    expect((await fetch(portal.url)).status).toBe(200);
    // New objects get ids of their own, and the list order puts them first.
    const newer = await second.stripe.customers.create({ email: 'new@example.test' });
    expect((await second.stripe.customers.list({ limit: 2 })).data.map((c) => c.id)).toEqual([newer.id, customer]);
  });

  it('when a change is answered, then it is in the file already (a crash right after loses nothing)', async () => {
    const file = join(dir, 'stripe-local.json');
    const { stripe } = await start(file);
    const customer = await stripe.customers.create({ email: 'at-once@example.test' });
    expect(readFileSync(file, 'utf8')).toContain(customer.id);
  });

  it('when the state file is not a state file, then creating the server fails naming it, instead of starting empty', () => {
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{"version": 99}');
    expect(() => createStripeLocal({ stateFile: file })).toThrow(`stripe-local: ${file} is not a state file of this version (1); move it away to start empty`);
    writeFileSync(file, 'not json');
    expect(() => createStripeLocal({ stateFile: file })).toThrow(`stripe-local: the state file ${file} cannot be read`);
  });
});

describe('webhookSecret', () => {
  it('when set, then every endpoint is made with it, so a gateway can be started with it beforehand', async () => {
    const server = createStripeLocal({ webhookSecret: 'whsec_demo_0123456789abcdef' });
    servers.push(server);
    const url = new URL(await server.listen(0));
    const stripe = new Stripe('sk_test_secret', { host: url.hostname, port: Number(url.port), protocol: 'http', maxNetworkRetries: 0 });
    const endpoint = await stripe.webhookEndpoints.create({ url: 'http://127.0.0.1:9/hook', enabled_events: ['invoice.paid'] });
    expect(endpoint.secret).toBe('whsec_demo_0123456789abcdef');
  });

  it('when it is not whsec_ and 16 characters more, then creating the server fails', () => {
    expect(() => createStripeLocal({ webhookSecret: 'short' })).toThrow('webhookSecret must be whsec_ and at least 16 more characters');
  });
});
