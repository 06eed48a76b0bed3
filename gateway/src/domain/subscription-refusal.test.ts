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
    ['no subscription', 'no_subscription', undefined, 'The token API needs a plan, and your account has none. Choose a plan (free, pro) at /portal/subscriptions.'],
    ['an inactive one', 'no_subscription', { plan: 'pro', status: 'inactive' }, 'Your token pro plan is inactive. Choose a plan (free, pro) at /portal/subscriptions.'],
    ['a plan no longer offered', 'unknown_plan', { plan: 'gold', status: 'active' }, 'Your token plan, gold, is no longer offered. Choose a plan (free, pro) at /portal/subscriptions.'],
    ['the playground used up', 'playground_exhausted', undefined, 'Your 10 free test calls to the token API are used up for today (UTC). Choose a plan (free, pro) at /portal/subscriptions, or try again tomorrow.'],
    ['grace over', 'no_subscription', { plan: 'pro', status: 'inactive', lapsed: 'payment_overdue' }, 'Your token pro plan is suspended: its last payment failed and the grace period is over. Pay the open invoice at /portal/billing and calls work again within seconds.'],
    ['retries exhausted', 'no_subscription', { plan: 'pro', status: 'inactive', lapsed: 'unpaid' }, 'Your token pro plan is suspended: its payment failed and every retry was declined. Pay the open invoice at /portal/billing and calls work again within seconds.'],
    ['canceled for payment', 'no_subscription', { plan: 'pro', status: 'inactive', lapsed: 'canceled' }, 'Your token pro plan was canceled because its payment failed. Choose a plan again at /portal/subscriptions.'],
  ])('when the refusal is %s, then two sentences name the API, the plan or plans, what happened and the page', (_name, outcome, subscription, message) => {
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
    expect(paidPlanMessage('token', 'pro', '25.00 EUR', { enabled: false, supportEmail: 'a@b.example' })).toBe("The token API's pro plan costs 25.00 EUR a month, and card payments are not set up here yet. To get it, write to a@b.example.");
    expect(billedPlanMessage('token', 'pro')).toContain('/portal/billing');
  });
});
