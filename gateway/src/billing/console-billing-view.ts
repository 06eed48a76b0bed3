import { NO_BILLING } from '../data/billing-view';
import type { AccountBilling, BillingView } from '../data/billing-view';
import type { Billing } from './create-billing';
import type { AccountBillingView } from './billing-views';

// The account's worst state first: what an operator needs to see before the rest.
const STATE_ORDER = ['unpaid', 'past_due', 'incomplete', 'active', 'trialing', 'canceled', 'incomplete_expired', 'paused'];

function accountBilling(view: AccountBillingView): AccountBilling {
  const running = view.subscriptions.filter((s) => s.state !== 'ended');
  const statuses = running.map((s) => s.status as string).sort((a, b) => STATE_ORDER.indexOf(a) - STATE_ORDER.indexOf(b));
  const details: AccountBilling['details'] = {};
  for (const [currency, customer] of Object.entries(view.customers)) details[`customer (${currency})`] = customer;
  for (const s of view.subscriptions) {
    details[`${s.api}: ${s.plan}`] = `${s.status}, ${s.state}${s.grace_until ? ` until ${s.grace_until}` : ''}${s.cancel_at_period_end ? ', ends at the period end' : ''}${s.next_plan ? `, then ${s.next_plan}` : ''}`;
    details[`${s.api}: subscription`] = s.subscription_id;
    if (s.current_period_end) details[`${s.api}: period ends`] = s.current_period_end;
  }
  for (const c of view.comp) details[`${c.api}: ${c.plan}`] = 'comp (granted by an operator, not billed)';
  return { state: statuses[0] ?? (view.comp.length ? 'comp' : 'ended'), details };
}

/** Billing as the operators' console reads it: the summary and each account's state from the billing room. */
export function consoleBillingView(billing: Billing): BillingView {
  if (!billing.enabled) return NO_BILLING;
  return {
    async summary() {
      const { mrr, subscriptions } = await billing.billingSummary();
      return {
        paying_subscriptions: subscriptions.active + subscriptions.trialing + subscriptions.past_due,
        mrr: Object.entries(mrr).map(([currency, amount]) => ({ currency, amount })),
      };
    },
    async account(accountId) {
      const view = await billing.accountBilling(accountId);
      // An account that never paid nor was granted a paid plan has no billing to show.
      const none = !view || (Object.keys(view.customers).length === 0 && view.subscriptions.length === 0 && view.comp.length === 0);
      return none ? undefined : accountBilling(view);
    },
  };
}
