import type { BillingRecord } from '../data/billing-store';
import type { PlanTable } from '../domain/plans';
import { isWithdrawn } from './withdrawals';

const plan = { monthly_quota: 50, rate_per_second: 5, price: 900, currency: 'USD' };
const PLANS: PlanTable = { weather: { playground_per_day: 0, plans: { pro: plan, old: { ...plan, offered: false } } } };
const record = (change: Partial<BillingRecord>): BillingRecord => ({
  subscription_id: 'sub_1', customer_id: 'cus_1', plan: 'pro', price_id: 'price_1', amount: 900, currency: 'USD', status: 'active', state: 'active',
  current_period_end: '2026-12-01T00:00:00.000Z', cancel_at_period_end: false, next_plan: null, grace_until: null, test_clock: null, updated_at: '2026-11-01T00:00:00.000Z', ...change,
});

describe('isWithdrawn', () => {
  it.each<[string, boolean, string, Partial<BillingRecord>]>([
    ['a plan the catalogue has', false, 'weather', {}],
    ['a retired plan (offered: false): its holders keep it', false, 'weather', { plan: 'old' }],
    ['a plan the catalogue no longer has', true, 'weather', { plan: 'gold' }],
    ['an API the catalogue no longer has', true, 'maps', {}],
    ['a name every object inherits', true, '__proto__', {}],
    ['a gone plan already ending at its period’s end', false, 'weather', { plan: 'gold', cancel_at_period_end: true }],
    ['a gone plan moving at its period’s end to one that is there', false, 'weather', { plan: 'gold', next_plan: 'pro' }],
    ['a gone plan moving to another gone one', true, 'weather', { plan: 'gold', next_plan: 'silver' }],
    ['a gone plan whose subscription ended', false, 'weather', { plan: 'gold', state: 'ended', status: 'canceled' }],
  ])('when it pays for %s, then it is withdrawn: %s', (_case, expected, api, change) => {
    expect(isWithdrawn(PLANS, api, record(change))).toBe(expected);
  });
});
