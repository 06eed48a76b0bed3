import { eventually } from '../support/eventually';
import { startWebhookReceiver } from '../support/webhook-receiver';
import type { WebhookReceiver } from '../support/webhook-receiver';
import { MID_MARCH, useBillingGateway } from './support/billing-gateway';
import type { BillingGateway, PortalSession } from './support/billing-gateway';

jest.setTimeout(60_000);


/** Posts a hosted page's form as a browser does (no redirect followed). */
async function postForm(url: string, fields: Record<string, string>): Promise<number> {
  return (await fetch(url, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' })).status;
}
const card = (number: string) => ({ cardNumber: number, cardExpiry: '12 / 34', cardCvc: '123' });

/** An account on token pro whose card now fails every charge (changed in the customer portal). */
async function withFailingCard(gw: BillingGateway, email: string): Promise<{ id: string; key: string; session: PortalSession; clock: string }> {
  const account = await gw.account(email);
  await gw.pay((await gw.json('POST', '/dashboard/v1/billing/checkout', account.session, { api: 'token', plan: 'pro' })).body.data.url);
  const portal = await gw.json('POST', '/dashboard/v1/billing/portal', account.session, {});
  expect(portal.body.data.url).toMatch(/\/portal\/bps_/);
  expect(await postForm(`${portal.body.data.url}/payment-method`, card('4000 0000 0000 0341'))).toBe(303);
  return { ...account, clock: await gw.clockOf(account.id, 'EUR') };
}

type Told = { type: string; data: Record<string, unknown> };

/** The events the receiver verified once it has `count` (the worker run until then: billing tells the room off its own path). */
async function toldOnce(gw: BillingGateway, hooks: WebhookReceiver, secret: string, count: number): Promise<Told[]> {
  await eventually(async () => {
    await gw.events.worker.runOnce();
    return hooks.received.length >= count;
  }, `${count} webhook deliveries`);
  return hooks.verified(secret) as Told[];
}

describe('a failed payment', () => {
  const gw = useBillingGateway({ start: MID_MARCH, env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } });
  let hooks: WebhookReceiver;
  beforeAll(async () => {
    hooks = await startWebhookReceiver();
  });
  afterAll(() => hooks.close());

  it('when the renewal fails, then the plan is past due in grace (mail, calls served); when every retry fails, then 402 names the API, plan, what happened and the page; paying in the portal restores it; the account’s webhook endpoint is told each step', async () => {
    const a = await withFailingCard(gw, 'ada@example.com');
    const endpoint = await gw.json('POST', '/dashboard/v1/webhooks', a.key, { url: hooks.url, types: ['payment.failed', 'payment.recovered', 'subscription.changed'] });
    expect(endpoint.status).toBe(201);
    const secret = endpoint.body.data.secret as string;
    await gw.advanceDays(a.clock, 16.5);
    const status = await gw.json('GET', '/dashboard/v1/billing/status', a.key);
    expect(status.body.data.subscriptions).toMatchObject([{ api: 'token', plan: 'pro', status: 'past_due', state: 'grace', grace_until: '2026-04-08T00:00:00.000Z' }]);
    const failed = await gw.mail.next('ada@example.com');
    expect(failed.subject).toBe('Payment failed for your Tollgate token pro plan');
    expect(failed.text).toContain('until 2026-04-08 00:00 UTC');
    expect(failed.text).toContain(`${gw.url}/portal/billing`);
    expect((await gw.call(a.key, '/token/v1/meta')).status).toBe(200);
    const failedHook = await toldOnce(gw, hooks, secret, 1);
    expect(failedHook).toMatchObject([{ type: 'payment.failed', data: { account_id: a.id, api: 'token', plan: 'pro', status: 'past_due', grace_until: '2026-04-08T00:00:00.000Z' } }]);

    await gw.advanceDays(a.clock, 8);
    const refused = await gw.call(a.key, '/token/v1/meta');
    expect(refused.status).toBe(402);
    expect(refused.body.message).toBe('Your token pro plan is suspended: its payment failed and every retry was declined. Pay the open invoice at /portal/billing and calls work again within seconds.');
    expect(refused.body.error).toEqual({ code: 'SUBSCRIPTION_REQUIRED', details: { api: 'token', plans: ['free', 'starter', 'pro', 'scale'], plan: 'pro', lapsed: 'unpaid', page: '/portal/billing' } });
    // No playground for a plan suspended for want of payment: it is said at once.
    expect((await gw.call(a.key, '/token/v1/meta')).status).toBe(402);
    expect(gw.mail.count('ada@example.com')).toBe(1);
    expect((await toldOnce(gw, hooks, secret, 2))[1]).toMatchObject({ type: 'subscription.changed', data: { api: 'token', plan: 'pro', status: 'inactive' } });

    const portal = (await gw.json('POST', '/dashboard/v1/billing/portal', a.session, { currency: 'EUR' })).body.data.url as string;
    expect(await postForm(`${portal}/payment-method`, card('4242 4242 4242 4242'))).toBe(303);
    await gw.local.settle();
    expect((await gw.call(a.key, '/token/v1/meta')).status).toBe(200);
    const recovered = await gw.mail.next('ada@example.com', 1);
    expect(recovered.subject).toBe('Payment received: your Tollgate token pro plan is active');
    expect((await gw.json('GET', '/dashboard/v1/billing/status', a.key)).body.data.subscriptions).toMatchObject([{ status: 'active', state: 'active', grace_until: null }]);
    // The last two are sent side by side: in either order.
    const recoveredHooks = (await toldOnce(gw, hooks, secret, 4)).slice(2).sort((x, y) => x.type.localeCompare(y.type));
    expect(recoveredHooks).toMatchObject([
      { type: 'payment.recovered', data: { api: 'token', plan: 'pro', status: 'active' } },
      { type: 'subscription.changed', data: { api: 'token', plan: 'pro', status: 'active' } },
    ]);
    expect(hooks.received).toHaveLength(4);
    expect(gw.mail.count('ada@example.com')).toBe(2);
  });
});

describe('a grace period that ends before any retry', () => {
  const gw = useBillingGateway({ start: MID_MARCH, env: { BILLING_GRACE_DAYS: '2' } });

  it('when two days pass after the failed renewal with no event, then the grace sweep suspends the plan: 402 saying the grace period is over', async () => {
    const a = await withFailingCard(gw, 'bo@example.com');
    await gw.advanceDays(a.clock, 16);
    expect((await gw.stores.billingStore.getBilling(a.id))!.subscriptions.token).toMatchObject({ state: 'grace', grace_until: '2026-04-03T00:00:00.000Z' });
    await gw.advanceDays(a.clock, 1.75);
    // The first retry is on 4 April: nothing has told the gateway yet.
    expect((await gw.call(a.key, '/token/v1/meta')).status).toBe(200);
    expect(await gw.billing.sweepGrace()).toMatchObject([{ account: a.id, api: 'token', from: { state: 'grace' }, to: { status: 'past_due', state: 'lapsed' } }]);
    const refused = await gw.call(a.key, '/token/v1/meta');
    expect(refused.status).toBe(402);
    expect(refused.body.message).toContain('its last payment failed and the grace period is over');
    expect(await gw.billing.sweepGrace()).toEqual([]);
  });
});

describe('a subscription canceled when the retries ran out', () => {
  const gw = useBillingGateway({ start: MID_MARCH, stripeLocal: { retriesExhausted: 'canceled' } });

  it('when Stripe cancels it for want of payment, then calls get 402 saying so, and a new plan can be taken', async () => {
    const a = await withFailingCard(gw, 'cy@example.com');
    await gw.advanceDays(a.clock, 25);
    const refused = await gw.call(a.key, '/token/v1/meta');
    expect(refused.status).toBe(402);
    expect(refused.body.message).toBe('Your token pro plan was canceled because its payment failed. Choose a plan again at /portal/subscriptions.');
    expect(refused.body.error.details).toMatchObject({ lapsed: 'canceled', page: '/portal/subscriptions' });
    expect((await gw.json('POST', '/dashboard/v1/billing/checkout', a.session, { api: 'token', plan: 'starter' })).status).toBe(200);
  });
});
