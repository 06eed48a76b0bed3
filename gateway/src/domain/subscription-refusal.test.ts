import type { Subscription } from './admission';
import type { ApiPlans } from './plans';
import { billedPlanMessage, paidPlanMessage, paymentRefusalDetails, paymentRefusalMessage } from './subscription-refusal';
import type { PaymentRefusal } from './subscription-refusal';

const token: ApiPlans = {
  playground_per_day: 10,
  plans: { free: { monthly_quota: 1, rate_per_second: 1, price: 0, currency: 'EUR' }, pro: { monthly_quota: 1, rate_per_second: 1, price: 2500, currency: 'EUR' } },
};

describe('paymentRefusalMessage', () => {
  it.each<[string, PaymentRefusal, Subscription | undefined, string]>([
    ['no subscription', 'no_subscription', undefined, 'the token API needs a subscription and this account has none: choose a plan (free, pro) at /portal/subscriptions'],
    ['an inactive one', 'no_subscription', { plan: 'pro', status: 'inactive' }, "this account's subscription to the token API's pro plan is inactive: choose a plan (free, pro) at /portal/subscriptions"],
    ['a plan no longer offered', 'unknown_plan', { plan: 'gold', status: 'active' }, "the token API's gold plan, which this account is subscribed to, is no longer offered: choose a plan (free, pro) at /portal/subscriptions"],
    ['the playground used up', 'playground_exhausted', undefined, 'the 10 free test calls a day to the token API are used up for this UTC day and this account has no active subscription to it: choose a plan (free, pro) at /portal/subscriptions, or wait for the next UTC day'],
    ['grace over', 'no_subscription', { plan: 'pro', status: 'inactive', lapsed: 'payment_overdue' }, "this account's token pro subscription is suspended: its last payment failed and the grace period is over; pay the open invoice at /portal/billing and calls are served again within seconds"],
    ['retries exhausted', 'no_subscription', { plan: 'pro', status: 'inactive', lapsed: 'unpaid' }, "this account's token pro subscription is suspended: its payment failed and every retry of the charge was declined; pay the open invoice at /portal/billing and calls are served again within seconds"],
    ['canceled for payment', 'no_subscription', { plan: 'pro', status: 'inactive', lapsed: 'canceled' }, "this account's token pro subscription was canceled because its payment failed; choose a plan again at /portal/subscriptions"],
  ])('when the refusal is %s, then one sentence names the API, the plan or plans, what happened and the page', (_name, outcome, subscription, message) => {
    const said = paymentRefusalMessage(outcome, 'token', token, subscription);
    expect(said).toBe(message);
    expect(said).not.toMatch(/this key|pnpm|\bcli\b|operator/i);
  });

  it('when billing stopped the plan, then the details say which and why, and the page to go to', () => {
    expect(paymentRefusalDetails('token', token, { plan: 'pro', status: 'inactive', lapsed: 'unpaid' })).toEqual({ api: 'token', plans: ['free', 'pro'], plan: 'pro', lapsed: 'unpaid', page: '/portal/billing' });
    expect(paymentRefusalDetails('token', token, undefined)).toEqual({ api: 'token', plans: ['free', 'pro'], page: '/portal/subscriptions' });
  });
});

describe('paidPlanMessage and billedPlanMessage', () => {
  it('when cards are taken, then a paid plan points at the portal; when not, it says so and whom to ask', () => {
    expect(paidPlanMessage('token', 'pro', '25.00 EUR', { enabled: true })).toContain('/portal/subscriptions');
    expect(paidPlanMessage('token', 'pro', '25.00 EUR', { enabled: false, supportEmail: 'a@b.example' })).toBe("the token API's pro plan costs 25.00 EUR a month, and card payments are not set up on this server, so paid plans cannot be taken here yet; to get one, write to a@b.example");
    expect(billedPlanMessage('token', 'pro')).toContain('/portal/billing');
  });
});
