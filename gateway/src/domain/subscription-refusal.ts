import type { LapseReason, Subscription } from './admission';
import type { ApiPlans } from './plans';

/** The portal pages a refused caller is sent to. */
export const PORTAL_SUBSCRIPTIONS_PAGE = '/portal/subscriptions';
export const PORTAL_BILLING_PAGE = '/portal/billing';

/** Why a call was refused with 402, as admission decided it. */
export type PaymentRefusal = 'no_subscription' | 'unknown_plan' | 'playground_exhausted';

const LAPSES: Record<LapseReason, (api: string, plan: string) => string> = {
  payment_overdue: (api, plan) => `Your ${api} ${plan} plan is suspended: its last payment failed and the grace period is over. Pay the open invoice at ${PORTAL_BILLING_PAGE} and calls work again within seconds.`,
  unpaid: (api, plan) => `Your ${api} ${plan} plan is suspended: its payment failed and every retry was declined. Pay the open invoice at ${PORTAL_BILLING_PAGE} and calls work again within seconds.`,
  canceled: (api, plan) => `Your ${api} ${plan} plan was canceled because its payment failed. Choose a plan again at ${PORTAL_SUBSCRIPTIONS_PAGE}.`,
};

/**
 * What a 402 says, in two sentences at most: which API, which plan (or which plans there are),
 * what happened, and the portal page that fixes it. It speaks of the account (every key of it
 * shares the subscriptions) and never of an operator's command.
 */
export function paymentRefusalMessage(outcome: PaymentRefusal, api: string, apiPlans: ApiPlans, subscription: Subscription | undefined): string {
  const choose = `Choose a plan (${Object.keys(apiPlans.plans).join(', ')}) at ${PORTAL_SUBSCRIPTIONS_PAGE}`;
  if (outcome === 'unknown_plan') return `Your ${api} plan, ${subscription?.plan ?? ''}, is no longer offered. ${choose}.`;
  if (subscription?.lapsed) return LAPSES[subscription.lapsed](api, subscription.plan);
  if (outcome === 'playground_exhausted') return `Your ${apiPlans.playground_per_day} free test calls to the ${api} API are used up for today (UTC). ${choose}, or try again tomorrow.`;
  if (subscription) return `Your ${api} ${subscription.plan} plan is inactive. ${choose}.`;
  return `The ${api} API needs a plan, and your account has none. ${choose}.`;
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
  const costs = `The ${api} API's ${plan} plan costs ${price} a month`;
  if (billing.enabled) return `${costs} and is paid by card. Take it on the Subscriptions page (${PORTAL_SUBSCRIPTIONS_PAGE}), which opens a secure card payment page.`;
  const ask = billing.supportEmail ? `write to ${billing.supportEmail}` : 'ask the people who run this service';
  return `${costs}, and card payments are not set up here yet. To get it, ${ask}.`;
}

/** What changing a card-paid plan outside billing says: it is changed or ended on the billing page, which stops the charges too. */
export function billedPlanMessage(api: string, plan: string): string {
  return `Your ${api} ${plan} plan is paid by card. Change or cancel it on the Billing page (${PORTAL_BILLING_PAGE}), so the card stops being charged too.`;
}
