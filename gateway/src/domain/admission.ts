import { ownEntry } from '@tollgate/envelope/core';
import type { ApiPlans } from './plans';

/**
 * Why billing stopped a paid subscription: its payment failed and the grace period is over
 * (`payment_overdue`), every retry of the charge failed (`unpaid`), or the provider canceled it
 * for want of payment (`canceled`).
 */
export type LapseReason = 'payment_overdue' | 'unpaid' | 'canceled';
export const LAPSE_REASONS: readonly LapseReason[] = ['payment_overdue', 'unpaid', 'canceled'];

/** What an account holds for one API. */
export interface Subscription {
  plan: string;
  status: 'active' | 'inactive';
  /** Set (on an inactive subscription) by billing when a payment failed: calls get 402 saying so, with no playground. */
  lapsed?: LapseReason;
  /** Granted by an operator without payment (a comp); absent otherwise. Admission ignores it. */
  comp?: true;
}

/** Every answer the admission step can give; only `admitted` and `playground` charge. */
export type AdmitOutcome =
  | 'admitted'
  | 'playground'
  | 'unknown_key'
  | 'revoked'
  | 'expired'
  | 'rolled'
  | 'suspended'
  | 'no_subscription'
  | 'unknown_plan'
  | 'playground_exhausted'
  | 'rate_limited'
  | 'quota_exceeded';

/** What the store holds for one secret (times in ms, 0 for none): the key it opens and when it stops. */
export interface SecretEntry {
  keyId: string;
  expiresAtMs: number;
  revokedAtMs: number;
  /** Set on a rolled key's previous secret: it works until then. */
  graceUntilMs: number;
}

/** The stored state one admission reads. */
export interface AdmissionInput {
  /** The presented secret's entry; undefined for an unknown secret. */
  secret: SecretEntry | undefined;
  account: { suspended: boolean; subscription?: Subscription } | undefined;
  apiPlans: ApiPlans;
  nowMs: number;
  /** Times (ms) of the calls admitted on this key and API, oldest first; may hold expired ones. */
  secondLog: readonly number[];
  monthUsed: number;
  dayUsed: number;
}

/** The decision, with the counts as they are after it. */
export interface AdmissionDecision {
  outcome: AdmitOutcome;
  /** The active plan (also when it rejected the call). */
  plan?: string;
  subscription?: Subscription;
  /** Calls counted in the charged window (month for a plan, day for the playground). */
  used: number;
  /** Calls in the rolling second ending now. */
  secondCount: number;
  /** Which counter this call increments, if admitted. */
  charge?: 'month' | 'day';
}

/**
 * The admission rule, in the order the Redis script applies it: the secret must be known, its key
 * not revoked, not past a roll's grace period and not expired, its account not suspended; an active subscription to a plan that exists is checked against its monthly
 * quota and then its rate over the rolling second (a sliding log); without one, the API's daily
 * playground allowance is used, and past it the answer is 402. A subscription lapsed for want of
 * payment gets no playground: 402 at once, so its owner learns why. Nothing is charged unless admitted.
 */
export function decideAdmission(input: AdmissionInput): AdmissionDecision {
  const { secret, account, apiPlans, nowMs } = input;
  const empty = { used: 0, secondCount: 0 };
  if (!secret || !account) return { outcome: 'unknown_key', ...empty };
  if (secret.revokedAtMs > 0) return { outcome: 'revoked', ...empty };
  if (secret.graceUntilMs > 0 && nowMs >= secret.graceUntilMs) return { outcome: 'rolled', ...empty };
  if (secret.expiresAtMs > 0 && nowMs >= secret.expiresAtMs) return { outcome: 'expired', ...empty };
  if (account.suspended) return { outcome: 'suspended', ...empty };
  const subscription = account.subscription;
  if (subscription?.status === 'active') {
    const plan = ownEntry(apiPlans.plans, subscription.plan);
    if (!plan) return { outcome: 'unknown_plan', subscription, ...empty };
    const inWindow = input.secondLog.filter((t) => t > nowMs - 1000);
    const base = { plan: subscription.plan, subscription };
    if (input.monthUsed >= plan.monthly_quota) {
      return { outcome: 'quota_exceeded', ...base, used: input.monthUsed, secondCount: inWindow.length };
    }
    if (inWindow.length >= plan.rate_per_second) {
      return { outcome: 'rate_limited', ...base, used: input.monthUsed, secondCount: inWindow.length };
    }
    return {
      outcome: 'admitted',
      ...base,
      used: input.monthUsed + 1,
      secondCount: inWindow.length + 1,
      charge: 'month',
    };
  }
  const base = subscription ? { subscription } : {};
  if (apiPlans.playground_per_day <= 0 || subscription?.lapsed) return { outcome: 'no_subscription', ...base, ...empty };
  if (input.dayUsed >= apiPlans.playground_per_day) {
    return { outcome: 'playground_exhausted', ...base, ...empty, used: input.dayUsed };
  }
  return { outcome: 'playground', ...base, ...empty, used: input.dayUsed + 1, charge: 'day' };
}
