import { planFromHeader as planOfHeader } from '@tollgate/envelope';
import type { ChainInfo } from './chains.js';

/** Logs plans from lowest to highest; the last is the top plan. */
export const PLANS = ['free', 'starter', 'pro', 'business'] as const;
/** A logs plan name. */
export type Plan = (typeof PLANS)[number];

/** A feature a plan may or may not include. */
export type Feature = 'topic_filtering' | 'all_chains';

const FEATURE_FROM: Readonly<Record<Feature, Plan>> = { topic_filtering: 'starter', all_chains: 'pro' };

/**
 * The caller's plan from `x-tollgate-subscription`: no header means a trusted direct caller (top
 * plan); a name we do not know gets the least, so an unexpected plan never unlocks more.
 */
export function planFromHeader(header: string | undefined): Plan {
  return planOfHeader(header, PLANS);
}

/** The lowest plan that includes a feature. */
export function planFor(feature: Feature): Plan {
  return FEATURE_FROM[feature];
}

/** True when `plan` includes `feature`. */
export function includes(plan: Plan, feature: Feature): boolean {
  return PLANS.indexOf(plan) >= PLANS.indexOf(FEATURE_FROM[feature]);
}

/** The lowest plan that includes a chain. */
export function planForChain(chain: ChainInfo): Plan {
  return chain.core ? 'free' : planFor('all_chains');
}

/** True when `plan` includes `chain`. */
export function includesChain(plan: Plan, chain: ChainInfo): boolean {
  return chain.core || includes(plan, 'all_chains');
}
