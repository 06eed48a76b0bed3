import { AppError, SUBSCRIPTION_HEADER } from '@tollgate/envelope';
import type { Request } from 'express';
import { findChain, CHAINS, type ChainInfo } from '../domain/chains.js';
import { includes, includesChain, planFor, planForChain, planFromHeader, type Plan } from '../domain/plans.js';
import { badInput } from '../domain/query-input.js';


/** The caller's plan (top plan when the header is absent: a trusted direct caller). */
export function planOf(req: Request): Plan {
  return planFromHeader(req.header(SUBSCRIPTION_HEADER));
}

/** Finds `chain=` and checks the plan includes it; 400 listing chains, or 403 naming the plan. */
export function chainFor(value: string, plan: Plan): ChainInfo {
  const chain = findChain(value);
  if (!chain) throw badInput('chain', `chain must be one of ${CHAINS.map((c) => c.slug).join(', ')} (or their chain ids)`);
  if (!includesChain(plan, chain)) {
    const required = planForChain(chain);
    throw new AppError('FORBIDDEN', `chain ${chain.slug} is included from the ${required} plan; the ${plan} plan covers ${CHAINS.filter((c) => c.core).map((c) => c.slug).join(', ')}`, {
      details: { parameter: 'chain', plan, required_plan: required },
    });
  }
  return chain;
}

/** Checks the plan includes topic filtering before `parameter` is used; 403 naming the plan. */
export function requireTopicFiltering(plan: Plan, parameter: string): void {
  if (includes(plan, 'topic_filtering')) return;
  const required = planFor('topic_filtering');
  throw new AppError('FORBIDDEN', `${parameter} is topic filtering, included from the ${required} plan; the ${plan} plan returns every log of an address`, {
    details: { parameter, plan, required_plan: required },
  });
}
