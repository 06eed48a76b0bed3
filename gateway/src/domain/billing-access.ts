import type { Subscription } from './admission';

/** A paid subscription's status at the payment provider, in Stripe's words. */
export type ProviderStatus = 'incomplete' | 'incomplete_expired' | 'trialing' | 'active' | 'past_due' | 'unpaid' | 'canceled' | 'paused';
export const PROVIDER_STATUSES: readonly ProviderStatus[] = ['incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'unpaid', 'canceled', 'paused'];

/** What access rules need of a provider's subscription. */
export interface ProviderState {
  plan: string;
  status: ProviderStatus;
  /** When the unpaid invoice that made it past due was issued (ms); null when none is open. */
  paymentFailedAtMs: number | null;
  /** Whether the provider ended it for want of payment (not the person). */
  canceledForPayment: boolean;
}

/**
 * How billing sees one paid subscription now: `processing` (the first payment is not through),
 * `active`, `grace` (a payment failed; calls are still served until `graceUntilMs`), `lapsed`
 * (402 until paid) or `ended` (the person canceled, or the first payment never came).
 */
export type BillingState = 'processing' | 'active' | 'grace' | 'lapsed' | 'ended';

/** What admission is to hold for the API (`unchanged`: leave what the account has), and the state. */
export interface BillingAccess {
  state: BillingState;
  subscription: Subscription | null | 'unchanged';
  graceUntilMs: number | null;
}

const DAY_MS = 86_400_000;

/**
 * The access a provider's subscription gives, decided from its state and the time alone, so a
 * webhook, the read-back after a change and reconciliation all write the same thing whatever order
 * they come in. A past-due subscription keeps its plan for `graceDays` from the unpaid invoice's
 * date; a subscription the person canceled falls back to `fallbackPlan` (the API's free plan), or
 * to none; one the provider canceled for want of payment stays, lapsed, so calls say why.
 */
export function billingAccess(provider: ProviderState, graceDays: number, nowMs: number, fallbackPlan: string | undefined): BillingAccess {
  const { plan } = provider;
  const none = { graceUntilMs: null };
  switch (provider.status) {
    case 'incomplete':
      return { state: 'processing', subscription: 'unchanged', ...none };
    case 'incomplete_expired':
      return { state: 'ended', subscription: 'unchanged', ...none };
    case 'active':
    case 'trialing':
      return { state: 'active', subscription: { plan, status: 'active' }, ...none };
    case 'past_due': {
      const graceUntilMs = (provider.paymentFailedAtMs ?? nowMs) + graceDays * DAY_MS;
      if (nowMs < graceUntilMs) return { state: 'grace', subscription: { plan, status: 'active' }, graceUntilMs };
      return { state: 'lapsed', subscription: { plan, status: 'inactive', lapsed: 'payment_overdue' }, graceUntilMs };
    }
    case 'unpaid':
    case 'paused':
      return { state: 'lapsed', subscription: { plan, status: 'inactive', lapsed: 'unpaid' }, ...none };
    case 'canceled':
      if (provider.canceledForPayment) return { state: 'lapsed', subscription: { plan, status: 'inactive', lapsed: 'canceled' }, ...none };
      return { state: 'ended', subscription: fallbackPlan === undefined ? null : { plan: fallbackPlan, status: 'active' }, ...none };
  }
}
