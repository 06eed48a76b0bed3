/** The header the gateway sets to the caller's plan name. */
export const SUBSCRIPTION_HEADER = 'x-tollgate-subscription';

/**
 * The header the gateway sets to `playground` when it admitted a call without a plan (the daily
 * allowance, with the cheapest plan's features in {@link SUBSCRIPTION_HEADER}); absent otherwise.
 */
export const ACCESS_HEADER = 'x-tollgate-access';

/** How the gateway admitted the call: on the playground, or on the plan it names. */
export function accessFromHeader(header: string | undefined): 'plan' | 'playground' {
  return header === 'playground' ? 'playground' : 'plan';
}

/**
 * The caller's plan from `x-tollgate-subscription`, given the API's plans from lowest to highest.
 * No header means the top plan: only trusted callers reach a service that has a proxy secret.
 * A name the service does not know gets the lowest plan, so an unexpected value never unlocks more.
 *
 * @example
 * planFromHeader(req.header(SUBSCRIPTION_HEADER), ['free', 'starter', 'pro', 'scale'] as const);
 */
export function planFromHeader<P extends string>(header: string | undefined, plans: readonly P[]): P {
  if (plans.length === 0) throw new Error('planFromHeader needs at least one plan');
  if (header === undefined || header.trim() === '') return plans[plans.length - 1]!;
  const name = header.trim().toLowerCase();
  return plans.find((p) => p === name) ?? plans[0]!;
}
