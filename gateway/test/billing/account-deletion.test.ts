import type Stripe from 'stripe';
import { signInCode } from '../support/smtp-inbox';
import { MID_MARCH, useBillingGateway } from './support/billing-gateway';

jest.setTimeout(60_000);

const gw = useBillingGateway({ start: MID_MARCH });

/** A JSON call with the portal's session cookie and CSRF token. */
async function portal(method: string, route: string, session: { cookie: string; csrf: string } | null, body?: unknown): Promise<{ status: number; body: ReturnType<typeof JSON.parse>; setCookie: string | null }> {
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json' };
  if (session) Object.assign(headers, { cookie: `tg_session=${session.cookie}`, 'x-csrf-token': session.csrf });
  const res = await fetch(gw.url + route, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json(), setCookie: res.headers.get('set-cookie') };
}

/** Signs an address in through its mailed code. */
async function signIn(email: string): Promise<{ cookie: string; csrf: string }> {
  const before = gw.mail.count(email);
  expect((await portal('POST', '/dashboard/v1/sign-in', null, { email })).status).toBe(202);
  const { code } = signInCode(await gw.mail.next(email, before));
  const res = await portal('POST', '/dashboard/v1/sign-in/verify', null, { email, code });
  expect(res.status).toBe(200);
  return { cookie: /tg_session=([^;]+)/.exec(res.setCookie ?? '')![1]!, csrf: res.body.data.csrf_token };
}

describe('deleting an account that pays by card', () => {
  it('when an account paying for a plan is exported and deleted, then the export holds the paid plan, the subscription is canceled at the provider and its customer deleted there, and its key answers 401', async () => {
    const email = 'paying@example.com';
    const account = await gw.account(email);
    await gw.pay((await gw.json('POST', '/dashboard/v1/billing/checkout', account.session, { api: 'token', plan: 'pro' })).body.data.url);
    const record = (await gw.stores.billingStore.getBilling(account.id))!.subscriptions.token!;
    expect(record).toMatchObject({ plan: 'pro', status: 'active' });
    expect((await gw.call(account.key, '/token/v1/meta')).status).toBe(200);

    const session = await signIn(email);
    const exported = await portal('GET', '/dashboard/v1/account/export', session);
    expect(exported.body.data.billing.subscriptions.token).toMatchObject({ plan: 'pro', subscription_id: record.subscription_id });
    expect(exported.body.data.subscriptions.token).toMatchObject({ plan: 'pro', status: 'active' });

    const before = gw.mail.count(email);
    expect((await portal('POST', '/dashboard/v1/account/delete', session, {})).status).toBe(202);
    const { code } = signInCode(await gw.mail.next(email, before));
    const deleted = await portal('POST', '/dashboard/v1/account/delete/confirm', session, { code });
    expect([deleted.status, deleted.body.data]).toEqual([200, { deleted: true, account_id: account.id }]);

    const subscription = await gw.stripe.subscriptions.retrieve(record.subscription_id);
    expect(subscription.status).toBe('canceled');
    expect((await gw.stripe.customers.list({ limit: 100 })).data.map((c: Stripe.Customer) => c.id)).not.toContain(record.customer_id);
    expect((await gw.call(account.key, '/token/v1/meta')).status).toBe(401);
    expect(await gw.stores.billingStore.getBilling(account.id)).toBeUndefined();
    // What the provider says after (the subscription's end) finds no account, and is acknowledged.
    await gw.local.settle();
    expect(await gw.stores.billingStore.accountOfCustomer(record.customer_id)).toBeUndefined();
  });
});
