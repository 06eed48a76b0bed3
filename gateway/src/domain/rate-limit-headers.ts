import { ownEntry } from '@tollgate/envelope/core';
import type { AdmissionDecision } from './admission';
import type { ApiPlans } from './plans';
import { dayWindow, monthWindow, secondsUntil } from './windows';

/**
 * When the rolling second frees a slot, in the whole seconds both headers use (at least 1): its
 * oldest call leaves it within the second, so it is always 1, and no store reads that call's time.
 */
const SECOND_RESET_SECONDS = 1;

/**
 * Client-facing limit headers for a decision: RapidAPI-style `X-RateLimit-Requests-*` for the
 * billing window (month for a plan, day for the playground) and the IETF `RateLimit-Policy` /
 * `RateLimit` fields (draft-ietf-httpapi-ratelimit-headers) for every window that applies.
 * Undefined when the decision carries no counts (401, 402 without playground).
 */
export function rateLimitHeaders(decision: AdmissionDecision, apiPlans: ApiPlans, nowMs: number): Record<string, string> | undefined {
  if (decision.outcome === 'playground' || decision.outcome === 'playground_exhausted') {
    const limit = apiPlans.playground_per_day;
    const remaining = Math.max(0, limit - decision.used);
    const reset = secondsUntil(dayWindow(nowMs).endMs, nowMs);
    return {
      'X-RateLimit-Requests-Limit': String(limit),
      'X-RateLimit-Requests-Remaining': String(remaining),
      'X-RateLimit-Requests-Reset': String(reset),
      'RateLimit-Policy': `"day";q=${limit};w=86400`,
      RateLimit: `"day";r=${remaining};t=${reset}`,
    };
  }
  const plan = decision.plan === undefined ? undefined : ownEntry(apiPlans.plans, decision.plan);
  if (!plan) return undefined;
  const month = monthWindow(nowMs);
  const monthRemaining = Math.max(0, plan.monthly_quota - decision.used);
  const monthReset = secondsUntil(month.endMs, nowMs);
  const secondRemaining = Math.max(0, plan.rate_per_second - decision.secondCount);
  const monthSeconds = (month.endMs - month.startMs) / 1000;
  return {
    'X-RateLimit-Requests-Limit': String(plan.monthly_quota),
    'X-RateLimit-Requests-Remaining': String(monthRemaining),
    'X-RateLimit-Requests-Reset': String(monthReset),
    'RateLimit-Policy': `"second";q=${plan.rate_per_second};w=1, "month";q=${plan.monthly_quota};w=${monthSeconds}`,
    RateLimit: `"second";r=${secondRemaining};t=${SECOND_RESET_SECONDS}, "month";r=${monthRemaining};t=${monthReset}`,
  };
}

/** `Retry-After` seconds for a 429: when the rolling second frees a slot, or when the month ends. */
export function retryAfterSeconds(decision: AdmissionDecision, nowMs: number): number {
  if (decision.outcome === 'quota_exceeded') return secondsUntil(monthWindow(nowMs).endMs, nowMs);
  return SECOND_RESET_SECONDS;
}
