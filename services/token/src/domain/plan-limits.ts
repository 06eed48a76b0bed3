import { planFromHeader } from '@tollgate/envelope';

/** Plans in ascending order; the last is the top plan, used when no subscription header is sent. */
export const PLANS = ['free', 'starter', 'pro', 'scale'] as const;

/** A plan name the gateway sends in `x-tollgate-subscription`. */
export type Plan = (typeof PLANS)[number];

/**
 * Tokens per call by plan. Starter's 12 is the spec's; the others are ours: free a quarter of it,
 * pro five times it, and scale 250, about the most EVM ids that fit in Node's default 16 KB
 * request-header limit with room for the gateway's headers.
 */
export const BATCH_LIMITS: Readonly<Record<Plan, number>> = Object.freeze({ free: 3, starter: 12, pro: 60, scale: 250 });

/** The top plan. */
export const TOP_PLAN: Plan = PLANS[PLANS.length - 1]!;

/**
 * The plan a subscription header names: the top plan when there is none (only trusted callers
 * reach the service without the gateway), the free plan's limits for a name we do not know.
 */
export function planOf(header: string | undefined): Plan {
  return planFromHeader(header, PLANS);
}

/** Why a batch is too large for a plan, or undefined when it fits. */
export function batchLimitProblem(plan: Plan, count: number): string | undefined {
  const limit = BATCH_LIMITS[plan];
  if (count <= limit) return undefined;
  const bigger = PLANS.find((p) => BATCH_LIMITS[p] >= count);
  const advice = bigger
    ? `the ${bigger} plan allows up to ${BATCH_LIMITS[bigger]}`
    : `no plan allows more than ${BATCH_LIMITS[TOP_PLAN]} (${TOP_PLAN}); split the list`;
  return `tokens lists ${count} tokens but the ${plan} plan allows at most ${limit} per call; ${advice}`;
}
