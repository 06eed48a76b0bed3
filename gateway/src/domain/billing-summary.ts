import { PROVIDER_STATUSES } from './billing-access';
import type { ProviderStatus } from './billing-access';

/** What the summary needs of one paid subscription: its status and its monthly price. */
export interface BilledSubscription {
  status: ProviderStatus;
  amount: number;
  currency: string;
}

/** Monthly recurring revenue per currency (smallest unit) and paid subscriptions by provider status. */
export interface BillingSummary {
  mrr: Record<string, number>;
  subscriptions: Record<ProviderStatus, number>;
}

// What is still billed each month: active ones, and past-due ones being retried (as Stripe counts MRR).
const RECURRING = new Set<ProviderStatus>(['active', 'trialing', 'past_due']);

/** Sums monthly recurring revenue per currency and counts subscriptions by status (every status listed). */
export function summarizeBilling(subscriptions: Iterable<BilledSubscription>): BillingSummary {
  const mrr: Record<string, number> = {};
  const counts = Object.fromEntries(PROVIDER_STATUSES.map((s) => [s, 0])) as Record<ProviderStatus, number>;
  for (const s of subscriptions) {
    counts[s.status] += 1;
    if (RECURRING.has(s.status)) mrr[s.currency] = (mrr[s.currency] ?? 0) + s.amount;
  }
  return { mrr, subscriptions: counts };
}
