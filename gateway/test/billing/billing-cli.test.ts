import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import Stripe from 'stripe';
import { createStripeLocal } from '@tollgate/stripe-local';
import type { StripeLocal } from '@tollgate/stripe-local';
import { createRedisStores } from '../../src/data/redis/redis-stores';
import { BUILT_IN_PLANS } from '../../src/domain/plans';
import { disconnectRedis, useCloseAfterEach } from '../support/close-after-each';
import { runGatewayScript, startGatewayProcess } from '../support/gateway-process';
import { startRedisServer } from '../support/redis-server';
import type { RedisServer } from '../support/redis-server';

jest.setTimeout(90_000);

let local: StripeLocal;
let stripe: Stripe;
let redis: RedisServer;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  local = createStripeLocal();
  const url = await local.listen(0);
  const { hostname, port } = new URL(url);
  stripe = new Stripe('sk_test_cli_tests', { host: hostname, port: Number(port), protocol: 'http', maxNetworkRetries: 0 });
  redis = await startRedisServer();
  dir = mkdtempSync(path.join(tmpdir(), 'tollgate-billing-cli-'));
  env = { STRIPE_SECRET_KEY: 'sk_test_cli_tests', STRIPE_API_BASE: url, PUBLIC_URL: 'https://api.example.com' };
});
afterAll(async () => {
  await local.close();
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
});
const closeAfterEach = useCloseAfterEach();

type Synced = { products: { api: string; created: boolean }[]; prices: { api: string; plan: string; id: string; action: string; archived?: string }[]; webhook: { url: string; created: boolean; secret?: string; note: string }; missing: string[] };
async function sync(extra: Record<string, string> = {}): Promise<Synced> {
  const run = await runGatewayScript('src/cli.ts', ['billing', 'sync', '--json'], { ...env, ...extra });
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(run.stdout) as Synced;
}
const paidCount = Object.values(BUILT_IN_PLANS).flatMap((api) => Object.values(api.plans)).filter((p) => p.price > 0).length;

describe('tollgate billing sync', () => {
  it('when run on an empty Stripe account, then the gateway at start names every paid plan without its price; sync makes one product per API, one price per paid plan and the webhook endpoint, printing its secret once; run again, it keeps them all', async () => {
    const before = await startGatewayProcess({ ...env, LOG_LEVEL: 'info' });
    let missing = '';
    for (let i = 0; i < 100 && !missing; i++) {
      missing = before.output.find((line) => line.includes('paid plans without their price')) ?? '';
      if (!missing) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await before.stop();
    expect(missing).toContain('burger starter, burger pro, burger scale, token starter');

    const first = await sync();
    expect(first.products.map((p) => [p.api, p.created])).toEqual([['burger', true], ['token', true], ['logs', true]]);
    expect(first.prices).toHaveLength(paidCount);
    expect(new Set(first.prices.map((p) => p.action))).toEqual(new Set(['created']));
    expect(first.webhook).toMatchObject({ url: 'https://api.example.com/billing/webhook', created: true, secret: expect.stringMatching(/^whsec_/) });
    expect(first.missing).toEqual([]);
    const price = await stripe.prices.retrieve(first.prices.find((p) => p.api === 'token' && p.plan === 'pro')!.id);
    expect(price).toMatchObject({ unit_amount: 2500, currency: 'eur', lookup_key: 'tollgate:token:pro', recurring: { interval: 'month' }, metadata: { tollgate_api: 'token', tollgate_plan: 'pro' } });

    const again = await sync();
    expect(again.products.every((p) => !p.created)).toBe(true);
    expect(again.prices.map((p) => p.action)).toEqual(Array(paidCount).fill('kept'));
    expect(again.webhook.created).toBe(false);
    expect(again.webhook.secret).toBeUndefined();
    expect(again.webhook.note).toContain('printed when it was made');
  });

  it('when a plan’s amount changes in the plan table, then sync makes a new price under the lookup key and archives the old one, and a subscriber stays on the old price', async () => {
    const old = (await stripe.prices.list({ lookup_keys: ['tollgate:token:pro'] })).data[0]!;
    const customer = await stripe.customers.create({ email: 'early@example.com' });
    const subscription = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: old.id }], default_payment_method: 'pm_card_visa' });
    const plans = structuredClone(BUILT_IN_PLANS);
    plans.token!.plans.pro!.price = 2700;
    writeFileSync(path.join(dir, 'plans.json'), JSON.stringify(plans));
    const changed = await sync({ PLANS_FILE: path.join(dir, 'plans.json') });
    const pro = changed.prices.find((p) => p.api === 'token' && p.plan === 'pro')!;
    expect(pro).toMatchObject({ action: 'replaced', archived: old.id });
    expect(changed.prices.filter((p) => p.action !== 'kept')).toHaveLength(1);
    expect(await stripe.prices.retrieve(pro.id)).toMatchObject({ unit_amount: 2700, lookup_key: 'tollgate:token:pro', active: true });
    expect(await stripe.prices.retrieve(old.id)).toMatchObject({ active: false, lookup_key: null });
    expect((await stripe.subscriptions.retrieve(subscription.id)).items.data[0]!.price.id).toBe(old.id);
    expect((await sync({ PLANS_FILE: path.join(dir, 'plans.json') })).prices.every((p) => p.action === 'kept')).toBe(true);
  });

  it('when card payments are off, then the billing commands say how to turn them on', async () => {
    const run = await runGatewayScript('src/cli.ts', ['billing', 'sync', '--json'], {});
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('card payments are off: set STRIPE_SECRET_KEY');
  });
});

describe('tollgate billing reconcile', () => {
  it('when Stripe has a subscription the store does not, then reconcile (on the shared Redis) applies it and prints what it changed; run again, it changes nothing', async () => {
    const client = closeAfterEach(new Redis(redis.url), disconnectRedis);
    const { accountStore, billingStore } = createRedisStores(client, { clock: Date.now });
    const account = await accountStore.createAccount({ email: 'missed@example.com' });
    const customer = await stripe.customers.create({ email: 'missed@example.com' });
    await billingStore.rememberCustomer(account.id, 'USD', customer.id);
    const price = (await stripe.prices.list({ lookup_keys: ['tollgate:burger:scale'] })).data[0]!;
    const subscription = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], default_payment_method: 'pm_card_visa' });

    const run = await runGatewayScript('src/cli.ts', ['billing', 'reconcile', '--json'], { ...env, REDIS_URL: redis.url });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const printed = JSON.parse(run.stdout) as { checked: number; changed: unknown[]; unknown_customers: { customer: string }[] };
    expect(printed.changed).toEqual([{ account: account.id, api: 'burger', subscription: subscription.id, from: null, to: { plan: 'scale', status: 'active', state: 'active' } }]);
    expect(printed.unknown_customers.map((u) => u.customer)).toContain((await stripe.customers.list({ email: 'early@example.com' })).data[0]!.id);
    expect((await accountStore.getAccount(account.id))!.subscriptions.burger).toEqual({ plan: 'scale', status: 'active' });

    const again = JSON.parse((await runGatewayScript('src/cli.ts', ['billing', 'reconcile', '--json'], { ...env, REDIS_URL: redis.url })).stdout) as { changed: unknown[] };
    expect(again.changed).toEqual([]);

    const shown = await runGatewayScript('src/cli.ts', ['billing', 'account', account.id, '--json'], { ...env, REDIS_URL: redis.url });
    expect(JSON.parse(shown.stdout)).toMatchObject({ account_id: account.id, customers: { USD: customer.id }, subscriptions: [{ api: 'burger', plan: 'scale', status: 'active', current_period_end: expect.any(String) }], comp: [] });
    const summary = await runGatewayScript('src/cli.ts', ['billing', 'summary', '--json'], { ...env, REDIS_URL: redis.url });
    expect(JSON.parse(summary.stdout)).toMatchObject({ mrr: { USD: 3940 }, subscriptions: { active: 1 } });
    const unknown = await runGatewayScript('src/cli.ts', ['billing', 'account', 'acc_000000000000000000000000', '--json'], { ...env, REDIS_URL: redis.url });
    expect([unknown.code, unknown.stderr.trim()]).toEqual([1, 'gateway cli: no account with id acc_000000000000000000000000']);
  });
});
