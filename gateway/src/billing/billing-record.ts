import type { BillingAccess } from '../domain/billing-access';
import type { BillingRecord } from '../data/billing-store';
import type { PaidSubscription } from './billing-provider';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** The record billing keeps of a provider's subscription and the access it gives. */
export function recordOf(paid: PaidSubscription, access: BillingAccess, nowMs: number): BillingRecord {
  return {
    subscription_id: paid.id,
    customer_id: paid.customerId,
    plan: paid.plan,
    price_id: paid.priceId,
    amount: paid.amount,
    currency: paid.currency,
    status: paid.status,
    state: access.state,
    current_period_end: iso(paid.currentPeriodEndMs),
    cancel_at_period_end: paid.cancelAtPeriodEnd,
    next_plan: paid.nextPlan,
    grace_until: iso(access.graceUntilMs),
    test_clock: paid.testClock,
    updated_at: new Date(nowMs).toISOString(),
  };
}

/** The fields that say what a subscription is (all but when it was written). */
export function sameRecord(a: BillingRecord | null | undefined, b: BillingRecord): boolean {
  if (!a) return false;
  return (Object.keys(b) as (keyof BillingRecord)[]).every((field) => field === 'updated_at' || a[field] === b[field]);
}

/** Whether a record is of a subscription still running at the provider (not canceled, not expired unpaid). */
export const runningAtProvider = (record: BillingRecord): boolean => record.status !== 'canceled' && record.status !== 'incomplete_expired';
