import { createStripeLocal } from '@tollgate/stripe-local';
import { MID_MARCH, useBillingGateway } from './support/billing-gateway';

jest.setTimeout(60_000);

// The demo restarted with a stripe-local that came back empty (issue 36): the store still holds the
// paid plan and the customer, Stripe has neither. What the person reads must say so in words.
const gw = useBillingGateway({ start: MID_MARCH });

/** What Stripe's own errors look like: none of it may reach a page in a message (data may name ids). */
const RAW = /No such|resource_missing|invalid_request_error|\b(cus|sub|price|in)_[A-Za-z0-9]{8,}/;

describe('when Stripe no longer has the customer the store remembers (a stand-in started empty, or deleted at Stripe)', () => {
  it('then the billing page keeps the plans and says in words why invoices and the card cannot be shown, no billing action shows Stripe’s own error, and the account can still be deleted', async () => {
    const ada = await gw.account('ada@example.com');
    const started = await gw.json('POST', '/dashboard/v1/billing/checkout', ada.session, { api: 'burger', plan: 'pro' });
    await gw.pay(started.body.data.url);
    expect((await gw.json('GET', '/dashboard/v1/billing', ada.key)).body.data.invoices).toHaveLength(1);

    const port = Number(new URL(gw.local.url).port);
    await gw.local.close();
    const fresh = createStripeLocal();
    await fresh.listen(port);
    try {
      const page = await gw.json('GET', '/dashboard/v1/billing', ada.key);
      expect(page.status).toBe(200);
      expect(page.body.data).toMatchObject({ subscriptions: [{ api: 'burger', plan: 'pro', state: 'active' }], invoices: [], missing_customers: ['USD'] });

      const portal = await gw.json('POST', '/dashboard/v1/billing/portal', ada.session, {});
      expect(portal.status).toBe(409);
      expect(portal.body).toMatchObject({ error: { code: 'CONFLICT', details: { reason: 'customer_missing' } } });
      expect(portal.body.message).toBe('Stripe no longer has the card customer this account pays its USD plans with, so its card and invoices cannot be opened here; the plans you have are unchanged: write to billing@tollgate.test');

      const answers = [
        page,
        portal,
        await gw.json('POST', '/dashboard/v1/billing/checkout', ada.session, { api: 'burger', plan: 'scale' }),
        await gw.json('PUT', '/dashboard/v1/billing/subscriptions/burger', ada.session, { plan: 'scale' }),
        await gw.json('DELETE', '/dashboard/v1/billing/subscriptions/burger', ada.session),
        await gw.json('POST', '/dashboard/v1/billing/subscriptions/burger/keep', ada.session),
        await gw.json('GET', `/dashboard/v1/billing/checkout/${started.body.data.session_id}`, ada.key),
      ];
      expect(answers[4]).toMatchObject({ status: 409, body: { error: { code: 'CONFLICT', details: { reason: 'subscription_missing' } } } });
      expect(answers[4]!.body.message).toBe('Stripe no longer has the subscription this plan is paid through, so the plan cannot be changed or cancelled here; the plans you have are unchanged: write to billing@tollgate.test');
      for (const answer of answers) {
        const said = `${answer.body.message} ${JSON.stringify(answer.body.error ?? {})}`;
        expect({ status: answer.status, said }).toEqual({ status: answer.status, said: expect.not.stringMatching(RAW) });
        expect(answer.status).not.toBe(500);
      }

      // Deleting the account has nothing left to cancel or delete at the provider: it goes ahead.
      await expect(gw.billing.closeAccount(ada.id)).resolves.toBeUndefined();
    } finally {
      await fresh.close();
    }
  });
});
