import type { LapseReason, Subscription } from './admission';
import type { ApiPlans } from './plans';

/** The portal pages a refused caller is sent to. */
export const PORTAL_SUBSCRIPTIONS_PAGE = '/portal/subscriptions';
export const PORTAL_BILLING_PAGE = '/portal/billing';

/** Why a call was refused with 402, as admission decided it. */
export type PaymentRefusal = 'no_subscription' | 'unknown_plan' | 'playground_exhausted';

const LAPSES: Record<LapseReason, { what: string; fix: string }> = {
  payment_overdue: { what: 'is suspended: its last payment failed and the grace period is over', fix: `pay the open invoice at ${PORTAL_BILLING_PAGE} and calls are served again within seconds` },
  unpaid: { what: 'is suspended: its payment failed and every retry of the charge was declined', fix: `pay the open invoice at ${PORTAL_BILLING_PAGE} and calls are served again within seconds` },
  canceled: { what: 'was canceled because its payment failed', fix: `choose a plan again at ${PORTAL_SUBSCRIPTIONS_PAGE}` },
};

/**
 * The one sentence a 402 says: which API, which plan (or which plans there are), what happened, and
 * the portal page that fixes it. It speaks of the account (every key of it shares the
 * subscriptions) and never of an operator's command.
 */
export function paymentRefusalMessage(outcome: PaymentRefusal, api: string, apiPlans: ApiPlans, subscription: Subscription | undefined): string {
  const plans = Object.keys(apiPlans.plans).join(', ');
  const choose = `choose a plan (${plans}) at ${PORTAL_SUBSCRIPTIONS_PAGE}`;
  if (outcome === 'unknown_plan') {
    return `the ${api} API's ${subscription?.plan ?? ''} plan, which this account is subscribed to, is no longer offered: ${choose}`;
  }
  const lapse = subscription?.lapsed ? LAPSES[subscription.lapsed] : undefined;
  if (lapse) return `this account's ${api} ${subscription?.plan ?? ''} subscription ${lapse.what}; ${lapse.fix}`;
  if (outcome === 'playground_exhausted') {
    return `the ${apiPlans.playground_per_day} free test calls a day to the ${api} API are used up for this UTC day and this account has no active subscription to it: ${choose}, or wait for the next UTC day`;
  }
  if (subscription) return `this account's subscription to the ${api} API's ${subscription.plan} plan is inactive: ${choose}`;
  return `the ${api} API needs a subscription and this account has none: ${choose}`;
}

/** A 402's details, for programs: the API, its plans, the portal page to go to and, when billing stopped the plan, which and why. */
export function paymentRefusalDetails(api: string, apiPlans: ApiPlans, subscription: Subscription | undefined): Record<string, unknown> {
  const plans = Object.keys(apiPlans.plans);
  if (subscription?.lapsed) return { api, plans, plan: subscription.plan, lapsed: subscription.lapsed, page: subscription.lapsed === 'canceled' ? PORTAL_SUBSCRIPTIONS_PAGE : PORTAL_BILLING_PAGE };
  return { api, plans, page: PORTAL_SUBSCRIPTIONS_PAGE };
}

/**
 * What choosing a paid plan without a card says: with billing on, where the card is taken; without
 * it, that card payments are not set up on this server and whom to ask.
 */
export function paidPlanMessage(api: string, plan: string, price: string, billing: { enabled: boolean; supportEmail?: string }): string {
  const costs = `the ${api} API's ${plan} plan costs ${price} a month`;
  if (billing.enabled) return `${costs} and is paid by card: take it on the portal's Subscriptions page (${PORTAL_SUBSCRIPTIONS_PAGE}), which opens a secure card payment page (POST /dashboard/v1/billing/checkout)`;
  const ask = billing.supportEmail ? `write to ${billing.supportEmail}` : 'ask the people who run this server';
  return `${costs}, and card payments are not set up on this server, so paid plans cannot be taken here yet; to get one, ${ask}`;
}

/** What changing a card-paid plan outside billing says: it is changed or ended on the billing page, which stops the charges too. */
export function billedPlanMessage(api: string, plan: string): string {
  return `the ${api} API's ${plan} plan is paid by card: change or cancel it on the portal's Billing page (${PORTAL_BILLING_PAGE}), so the card stops being charged too`;
}
