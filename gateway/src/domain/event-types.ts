/**
 * What an account can be told, by mail and by webhook. `webhook.test` is sent only when a person
 * asks for it on one endpoint; the others are facts about the account.
 */
export const EVENT_TYPES = [
  'quota.threshold_reached',
  'quota.reset',
  'key.expiring',
  'key.revoked',
  'subscription.changed',
  'payment.failed',
  'payment.recovered',
  'subscription.canceled',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** Every type a webhook delivery can carry. */
export type DeliveredType = EventType | 'webhook.test';

/** Event types mailed unless the account switches them off; `quota.reset` is off until switched on. */
export const MAILED_BY_DEFAULT: Readonly<Record<EventType, boolean>> = Object.freeze({
  'quota.threshold_reached': true,
  'quota.reset': false,
  'key.expiring': true,
  'key.revoked': true,
  'subscription.changed': true,
  // Always mailed, by billing itself (ALWAYS_MAILED); the events room never mails them.
  'payment.failed': false,
  'payment.recovered': false,
  'subscription.canceled': true,
});

/**
 * What billing mails itself, whatever the account's settings (billing/billing-mail.ts): a payment
 * that failed (until when calls are served, where to pay) and one that came through after it. They
 * are about money and access, as Stripe's own payment mails are, so they cannot be switched off;
 * the events room never mails them, which would say it twice.
 */
export const ALWAYS_MAILED: readonly EventType[] = Object.freeze(['payment.failed', 'payment.recovered']);

/**
 * What is mailed to the team's owners and billing members (data/team-recipients.ts) rather than its
 * contact address: plan changes are money, as billing's own payment mails are.
 */
export const MAILED_TO_BILLING: readonly EventType[] = Object.freeze(['subscription.changed', 'subscription.canceled']);

/** A change to a paid plan billing tells the events room of (through a callback the composition passes). */
export interface PaymentNotice {
  type: 'payment.failed' | 'payment.recovered' | 'subscription.canceled';
  accountId: string;
  api: string;
  plan: string;
  data?: Record<string, unknown>;
}

/** Thresholds (percent of the monthly quota) every API alerts at unless the account sets its own. */
export const DEFAULT_THRESHOLDS: readonly number[] = Object.freeze([80, 100]);
/** At most this many thresholds per API. */
export const MAX_THRESHOLDS = 5;
/** Days before a key's expiry that `key.expiring` is sent. */
export const EXPIRY_NOTICE_DAYS: readonly number[] = Object.freeze([7, 1]);

/** The call count at which `threshold` percent of `quota` is reached (at least 1). */
export function crossingCount(quota: number, threshold: number): number {
  return Math.max(1, Math.ceil((quota * threshold) / 100));
}

/**
 * Waits before each retry of a webhook delivery (ms): after the first attempt fails, 5 s, then
 * 5 min, 30 min, 2 h, 5 h, 10 h and 10 h; eight attempts over about 28 hours, then it is given up.
 */
export const RETRY_DELAYS_MS: readonly number[] = Object.freeze([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
/** An endpoint whose deliveries fail for this long without one success is disabled and its owner mailed. */
export const DISABLE_AFTER_MS = 3 * 86_400_000;

/** What happened to one API call, as the usage stream says it. */
export type UsageOutcome = 'served' | 'rate_limited' | 'quota_exceeded' | 'no_subscription' | 'upstream_error' | 'refunded' | 'refused' | 'store_unavailable';

/** The outcome of a finished call from its admission decision and the status it was answered with. */
export function usageOutcome(decision: string, status: number): UsageOutcome {
  switch (decision) {
    case 'admitted':
    case 'playground':
    case 'fail_open':
      return 'served';
    case 'refunded':
      return status >= 500 && status !== 499 ? 'upstream_error' : 'refunded';
    case 'rate_limited':
    case 'quota_exceeded':
      return decision;
    case 'no_subscription':
    case 'unknown_plan':
    case 'playground_exhausted':
      return 'no_subscription';
    case 'store_unavailable':
      return 'store_unavailable';
    default:
      return 'refused';
  }
}
