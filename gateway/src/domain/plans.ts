import { ownEntry } from '@tollgate/envelope/core';

/** Limits and price of one plan; prices are in the smallest currency unit (cents). */
export interface Plan {
  monthly_quota: number;
  rate_per_second: number;
  price: number;
  currency: string;
  /** false: kept for the accounts that hold it, not taken anew (the catalogue's retired plans); absent: offered. */
  offered?: boolean;
}

/** One API's plans and the daily playground allowance for keys without an active subscription. */
export interface ApiPlans {
  /** What people read (the catalogue's title; a `PLANS_FILE` has none): Stripe's product name too. */
  title?: string;
  playground_per_day: number;
  plans: Record<string, Plan>;
}

/** Every API the gateway serves, by name: the `PLANS_FILE` shape (the catalogue's APIs are of it too: domain/catalogue.ts). */
export type PlanTable = Record<string, ApiPlans>;

/**
 * The plan whose features a playground call gets upstream: the API's cheapest plan (first listed on a
 * tie), because services treat a call without a subscription header as the top plan.
 */
export function playgroundPlanName(api: ApiPlans): string {
  const entries = Object.entries(api.plans);
  return entries.reduce((best, entry) => (entry[1].price < best[1].price ? entry : best), entries[0] as [string, Plan])[0];
}

/**
 * The plans of the API named `api`: an own entry of the table only, so a caller's `__proto__`,
 * `constructor` or `toString` never finds what every object inherits. Every lookup by a name that
 * came from outside (a request, a command line, a provider's metadata) goes through here.
 */
export function apiPlansNamed(plans: PlanTable, api: string): ApiPlans | undefined {
  return ownEntry(plans, api);
}

/** The plan named `plan` of the API named `api`, own entries only (see {@link apiPlansNamed}). */
export function planNamed(plans: PlanTable, api: string, plan: string): Plan | undefined {
  const apiPlans = ownEntry(plans, api);
  return apiPlans && ownEntry(apiPlans.plans, plan);
}

/** Why a plan name cannot be subscribed to: the API is unknown, or the plan is not one of its plans. */
export interface PlanProblem {
  unknown: 'api' | 'plan';
  message: string;
}

/** What an unknown API name is told: the APIs there are. */
export function unknownApiMessage(plans: PlanTable, api: string): string {
  return `unknown API '${api}'; APIs: ${Object.keys(plans).join(', ')}`;
}

/**
 * Checks that `plan` is a plan of `api`; the problem, naming what there is, or undefined when it is.
 * Pure, so the admin routes (as 400 or 404) and the CLI (as a usage error) say the same thing.
 */
export function planProblem(plans: PlanTable, api: string, plan: string, field = 'plan'): PlanProblem | undefined {
  const apiPlans = apiPlansNamed(plans, api);
  if (!apiPlans) return { unknown: 'api', message: unknownApiMessage(plans, api) };
  if (!planNamed(plans, api, plan)) return { unknown: 'plan', message: `${field} must be one of ${Object.keys(apiPlans.plans).join(', ')} for ${api}` };
  return undefined;
}
