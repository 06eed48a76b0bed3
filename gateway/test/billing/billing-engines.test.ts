import type Stripe from 'stripe';
import { startRedisCluster } from '../support/redis-cluster';
import type { RedisCluster } from '../support/redis-cluster';
import { startRedisServer } from '../support/redis-server';
import type { RedisServer } from '../support/redis-server';
import { ADMIN_TOKEN, MID_MARCH, startBillingGateway } from './support/billing-gateway';
import type { BillingGateway, Engine } from './support/billing-gateway';

jest.setTimeout(120_000);

let redis: RedisServer;
let cluster: RedisCluster;

beforeAll(async () => {
  [redis, cluster] = await Promise.all([startRedisServer(), startRedisCluster()]);
});
afterAll(async () => {
  await Promise.all([redis?.stop(), cluster?.stop()]);
});

const ENGINES: [string, () => Engine][] = [
  ['the embedded SQLite store', () => ({ kind: 'sqlite' })],
  ['Redis', () => ({ kind: 'redis', url: redis.url })],
  ['a Redis Cluster', () => ({ kind: 'cluster', seeds: cluster.seeds })],
];

const postForm = async (url: string, number: string): Promise<number> =>
  (await fetch(url, { method: 'POST', body: new URLSearchParams({ cardNumber: number, cardExpiry: '12 / 34', cardCvc: '123' }), redirect: 'manual' })).status;

describe.each(ENGINES)('billing on %s', (_name, engine) => {
  let gw: BillingGateway;
  beforeAll(async () => {
    gw = await startBillingGateway({ start: MID_MARCH, engine: engine() });
  });
  afterAll(() => gw?.close());

  it('when a person pays, changes plan, misses a payment and pays it, then the store follows each step, once per event, and the summary adds up', async () => {
    const a = await gw.account('ada@example.com');
    const checkout = await gw.json('POST', '/dashboard/v1/billing/checkout', a.session, { api: 'token', plan: 'pro' });
    await gw.pay(checkout.body.data.url);
    expect((await gw.call(a.key, '/token/v1/meta')).headers.get('x-ratelimit-requests-limit')).toBe('650000');

    // Every event again: nothing is applied twice.
    const customer = (await gw.stores.billingStore.getBilling(a.id))!.customers.EUR!;
    const events: Stripe.Event[] = [];
    for await (const event of gw.stripe.events.list({ limit: 100 })) if ((event.data.object as { customer?: string }).customer === customer) events.push(event);
    for (const event of events) expect(['duplicate', 'ignored']).toContain((await gw.deliver(event)).body.data.outcome);

    expect((await gw.json('PUT', '/dashboard/v1/billing/subscriptions/token', a.session, { plan: 'scale' })).body.data.plan).toBe('scale');
    expect((await gw.call(a.key, '/token/v1/meta')).headers.get('x-ratelimit-requests-limit')).toBe('3250000');

    const portal = (await gw.json('POST', '/dashboard/v1/billing/portal', a.session, {})).body.data.url as string;
    expect(await postForm(`${portal}/payment-method`, '4000 0000 0000 0341')).toBe(303);
    const clock = await gw.clockOf(a.id, 'EUR');
    await gw.advanceDays(clock, 16.5);
    expect((await gw.stores.billingStore.getBilling(a.id))!.subscriptions.token).toMatchObject({ status: 'past_due', state: 'grace' });
    expect((await gw.mail.next('ada@example.com')).subject).toContain('Payment failed');
    expect((await gw.call(a.key, '/token/v1/meta')).status).toBe(200);
    await gw.advanceDays(clock, 8);
    expect((await gw.call(a.key, '/token/v1/meta')).status).toBe(402);
    expect((await gw.stores.accountStore.getAccount(a.id))!.subscriptions.token).toEqual({ plan: 'scale', status: 'inactive', lapsed: 'unpaid' });

    expect(await postForm(`${portal}/payment-method`, '4242 4242 4242 4242')).toBe(303);
    await gw.local.settle();
    expect((await gw.call(a.key, '/token/v1/meta')).status).toBe(200);
    expect((await gw.billing.reconcile()).changed).toEqual([]);
    expect((await gw.json('GET', '/admin/billing/summary', ADMIN_TOKEN)).body.data).toMatchObject({ mrr: { EUR: 5950 }, subscriptions: { active: 1, past_due: 0, unpaid: 0 } });
  });
});
