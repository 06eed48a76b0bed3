import { AppError } from '@tollgate/envelope/core';
import type { Account } from '../data/account-store';
import type { BillingStore } from '../data/billing-store';
import { firstPeriodCharge } from '../domain/billing-period';
import { apiPlansNamed, planNamed } from '../domain/plans';
import type { PlanTable } from '../domain/plans';
import { PORTAL_BILLING_PAGE } from '../domain/subscription-refusal';
import { asPerson } from './billing-errors';
import type { BillingProvider } from './billing-provider';
import { runningAtProvider } from './billing-record';

/** What taking or changing to a plan costs: today, and each month after. */
export interface PlanPreview {
  api: string;
  plan: string;
  /** The plan paid by card now, or null when there is none (the plan would be taken at Checkout). */
  from_plan: string | null;
  /** `checkout`: paid at Stripe Checkout; `now`: charged at once on confirming; `period_end`: nothing today, the plan changes at the period's end. */
  when: 'checkout' | 'now' | 'period_end';
  currency: string;
  /** Charged today (smallest unit), tax included. */
  due_now: number;
  /** What makes up `due_now`, as the invoice will say it. */
  lines: { description: string; amount: number }[];
  /** The tax within `due_now` (0 without Stripe Tax, or before Checkout knows the address). */
  tax_now: number;
  /** What each later month costs on the plan (tax included where known), from `recurring_from`. */
  recurring: number;
  recurring_from: string;
  /** Send it back with the change (`PUT …/billing/subscriptions/{api}`) to be charged exactly `due_now`; valid for an hour. */
  proration_date: number | null;
}

/** What the preview needs. */
export interface PlanPreviewDeps {
  plans: PlanTable;
  provider: BillingProvider;
  billingStore: BillingStore;
  clock: () => number;
  supportEmail?: string;
}

/**
 * What a plan would cost the account before anything is charged: a change of a plan paid by card is
 * Stripe's invoice preview (the prorations due now, then the renewal on the new price); a plan not
 * paid yet is the first period's share of the month, then the monthly price, as Checkout will charge.
 */
export function createPlanPreview(deps: PlanPreviewDeps): (account: Account, api: string, plan: string) => Promise<PlanPreview> {
  const { plans, provider, billingStore } = deps;
  return (account, api, plan) =>
    asPerson(deps.supportEmail, async () => {
      const target = planNamed(plans, api, plan);
      if (!target) throw new AppError('BAD_REQUEST', `plan must be one of ${Object.keys(apiPlansNamed(plans, api)?.plans ?? {}).join(', ')} for ${api}`, { details: { parameter: 'plan' } });
      const record = (await billingStore.getBilling(account.id))?.subscriptions[api];
      const base = { api, plan, currency: target.currency };
      if (!record || !runningAtProvider(record)) {
        if (target.price === 0) throw new AppError('BAD_REQUEST', `the ${api} API's ${plan} plan is free: nothing is charged for it`, { details: { parameter: 'plan' } });
        const first = firstPeriodCharge(target.price, deps.clock());
        const until = new Date(first.periodEndMs).toISOString().slice(0, 10);
        return { ...base, from_plan: null, when: 'checkout', due_now: first.dueNow, lines: [{ description: `${api} ${plan} until ${until}`, amount: first.dueNow }], tax_now: 0, recurring: target.price, recurring_from: new Date(first.periodEndMs).toISOString(), proration_date: null };
      }
      if (record.status !== 'active' && record.status !== 'trialing') {
        throw new AppError('CONFLICT', `the ${api} API's ${record.plan} plan has an unpaid invoice: pay it at ${PORTAL_BILLING_PAGE} before changing the plan`, { details: { reason: 'payment_due' } });
      }
      if (plan === record.plan) throw new AppError('BAD_REQUEST', `the ${api} API's ${plan} plan is the one this account pays for`, { details: { parameter: 'plan' } });
      const periodEnd = record.current_period_end ?? new Date(deps.clock()).toISOString();
      if (target.price === 0) return { ...base, currency: record.currency, from_plan: record.plan, when: 'period_end', due_now: 0, lines: [], tax_now: 0, recurring: 0, recurring_from: periodEnd, proration_date: null };
      const now = target.price >= record.amount;
      const preview = await provider.previewChange(record.subscription_id, api, plan, now);
      return {
        ...base,
        currency: preview.currency,
        from_plan: record.plan,
        when: now ? 'now' : 'period_end',
        due_now: preview.dueNow,
        lines: preview.lines,
        tax_now: preview.taxNow,
        recurring: preview.recurring,
        recurring_from: new Date(preview.recurringFromMs).toISOString(),
        proration_date: now ? preview.prorationDate : null,
      };
    });
}
