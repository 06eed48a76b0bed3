import fc from 'fast-check';
import { PROVIDER_STATUSES, billingAccess } from './billing-access';
import type { ProviderState } from './billing-access';

const DAY = 86_400_000;
const failedAt = Date.parse('2026-04-01T00:00:00Z');
const state = (over: Partial<ProviderState>): ProviderState => ({ plan: 'pro', status: 'active', paymentFailedAtMs: null, canceledForPayment: false, ...over });

describe('billingAccess', () => {
  it.each<[string, Partial<ProviderState>, number, object]>([
    ['an active subscription', {}, failedAt, { state: 'active', subscription: { plan: 'pro', status: 'active' }, graceUntilMs: null }],
    ['a trial', { status: 'trialing' }, failedAt, { state: 'active', subscription: { plan: 'pro', status: 'active' } }],
    ['the first payment not through yet', { status: 'incomplete' }, failedAt, { state: 'processing', subscription: 'unchanged' }],
    ['a first payment that never came', { status: 'incomplete_expired' }, failedAt, { state: 'ended', subscription: 'unchanged' }],
    ['past due, inside the grace period', { status: 'past_due', paymentFailedAtMs: failedAt }, failedAt + 7 * DAY - 1, { state: 'grace', subscription: { plan: 'pro', status: 'active' }, graceUntilMs: failedAt + 7 * DAY }],
    ['past due, at the end of the grace period', { status: 'past_due', paymentFailedAtMs: failedAt }, failedAt + 7 * DAY, { state: 'lapsed', subscription: { plan: 'pro', status: 'inactive', lapsed: 'payment_overdue' } }],
    ['past due with no open invoice known: grace from now', { status: 'past_due' }, failedAt, { state: 'grace', graceUntilMs: failedAt + 7 * DAY }],
    ['unpaid: the retries ran out', { status: 'unpaid', paymentFailedAtMs: failedAt }, failedAt, { state: 'lapsed', subscription: { plan: 'pro', status: 'inactive', lapsed: 'unpaid' } }],
    ['canceled for want of payment', { status: 'canceled', canceledForPayment: true }, failedAt, { state: 'lapsed', subscription: { plan: 'pro', status: 'inactive', lapsed: 'canceled' } }],
    ['canceled by the person', { status: 'canceled' }, failedAt, { state: 'ended', subscription: { plan: 'free', status: 'active' } }],
  ])('%s', (_name, over, nowMs, expected) => {
    expect(billingAccess(state(over), 7, nowMs, 'free')).toMatchObject(expected);
  });

  it('when a plan the person canceled ends on an API without a free plan, then the subscription is dropped', () => {
    expect(billingAccess(state({ status: 'canceled' }), 7, failedAt, undefined)).toEqual({ state: 'ended', subscription: null, graceUntilMs: null });
  });

  it('when a grace period is 0 days, then a failed payment lapses at once', () => {
    expect(billingAccess(state({ status: 'past_due', paymentFailedAtMs: failedAt }), 0, failedAt, 'free').state).toBe('lapsed');
  });

  it('for any status, time and grace, then calls are served exactly when the state is active or grace, and a served subscription is on the paid plan', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PROVIDER_STATUSES), fc.integer({ min: 0, max: 60 }), fc.integer({ min: -30 * DAY, max: 90 * DAY }), fc.boolean(), (status, grace, offset, forPayment) => {
        const access = billingAccess(state({ status, paymentFailedAtMs: failedAt, canceledForPayment: forPayment }), grace, failedAt + offset, 'free');
        const served = typeof access.subscription === 'object' && access.subscription?.status === 'active';
        if (access.state === 'active' || access.state === 'grace') expect(access.subscription).toEqual({ plan: 'pro', status: 'active' });
        if (access.state === 'lapsed') expect(served).toBe(false);
        if (access.state === 'grace') expect(failedAt + offset).toBeLessThan(access.graceUntilMs!);
      }),
    );
  });
});
