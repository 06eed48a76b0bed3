import type Stripe from 'stripe';
import { planNamed } from '../../domain/plans';
import type { PlanTable } from '../../domain/plans';
import { PREVIEW_VALID_S, StalePreviewError } from '../billing-provider';
import type { ChangePreview, PaidSubscription } from '../billing-provider';
import { currentPrice } from './stripe-catalogue';
import { stripeCall } from './stripe-client';
import { SUBSCRIPTION_EXPAND } from './stripe-subscriptions';
import type { SubscriptionReader } from './stripe-subscriptions';

const idOf = (value: string | { id: string }): string => (typeof value === 'string' ? value : value.id);
/** The tax an invoice carries (Stripe Tax's lines, 0 without it). */
export const taxOf = (invoice: Stripe.Invoice): number => (invoice.total_taxes ?? []).reduce((sum, tax) => sum + tax.amount, 0);

/** A plan with no current price at Stripe (the catalogue was not synced since the plan table changed). */
export class PriceMissingError extends Error {
  constructor(readonly api: string, readonly plan: string) {
    super(`the ${api} ${plan} plan has no current price at Stripe`);
    this.name = 'PriceMissingError';
  }
}

/** Plan changes and cancellations on Stripe; each answers the subscription as Stripe has it after. */
export interface StripeChanges {
  priceOf(api: string, plan: string): Promise<string>;
  previewChange(subscriptionId: string, api: string, plan: string, now: boolean): Promise<ChangePreview>;
  changePlanNow(subscriptionId: string, api: string, plan: string, prorationDate?: number): Promise<PaidSubscription>;
  changePlanAtPeriodEnd(subscriptionId: string, api: string, plan: string): Promise<PaidSubscription>;
  cancelAtPeriodEnd(subscriptionId: string): Promise<PaidSubscription>;
  cancelNow(subscriptionId: string): Promise<void>;
  keepCurrentPlan(subscriptionId: string): Promise<PaidSubscription>;
}

/**
 * Upgrades are an item's price changed now with `always_invoice` (the prorated difference charged at
 * once; `error_if_incomplete`, so a declined card changes nothing); downgrades are a Subscription
 * Schedule whose next phase, from the period's end, bills the cheaper price; cancellations are
 * `cancel_at_period_end`. A schedule is released before anything else changes the subscription
 * (Stripe refuses direct changes to a scheduled one), which is also how a downgrade is taken back.
 */
export function createStripeChanges(stripe: Stripe, plans: PlanTable, reader: SubscriptionReader, automaticTax = false): StripeChanges {
  const retrieve = (id: string): Promise<Stripe.Subscription> => stripeCall(() => stripe.subscriptions.retrieve(id, { expand: SUBSCRIPTION_EXPAND }));
  const answer = async (subscription: Stripe.Subscription): Promise<PaidSubscription> => {
    const paid = await reader.translate(subscription);
    if (!paid) throw new Error(`subscription ${subscription.id} is not on a Tollgate price`);
    return paid;
  };
  // Releasing keeps the subscription on the price it has now and ends any phase to come.
  const unscheduled = async (subscription: Stripe.Subscription): Promise<Stripe.Subscription> => {
    const schedule = subscription.schedule;
    if (!schedule) return subscription;
    await stripeCall(() => stripe.subscriptionSchedules.release(typeof schedule === 'string' ? schedule : schedule.id));
    return retrieve(subscription.id);
  };
  const priceOf = async (api: string, plan: string): Promise<string> => {
    const limits = planNamed(plans, api, plan);
    const price = limits ? await currentPrice(stripe, { api, plan, amount: limits.price, currency: limits.currency }) : undefined;
    if (!price) throw new PriceMissingError(api, plan);
    return price.id;
  };
  const update = async (id: string, params: Stripe.SubscriptionUpdateParams): Promise<PaidSubscription> =>
    answer(await stripeCall(() => stripe.subscriptions.update(id, { ...params, expand: SUBSCRIPTION_EXPAND })));

  return {
    priceOf,
    // Stripe's invoice preview, twice: the prorations charged now, and the renewal on the new price.
    async previewChange(subscriptionId, api, plan, now) {
      const price = await priceOf(api, plan);
      const subscription = await retrieve(subscriptionId);
      const prorationDate = Math.floor((await answer(subscription)).nowMs / 1000);
      const base = { customer: idOf(subscription.customer), subscription: subscription.id, ...(automaticTax ? { automatic_tax: { enabled: true } } : {}) };
      const items = [{ id: subscription.items.data[0]!.id, price }];
      const today = now ? await stripeCall(() => stripe.invoices.createPreview({ ...base, subscription_details: { items, proration_behavior: 'always_invoice', proration_date: prorationDate, cancel_at_period_end: false } })) : undefined;
      const renewal = await stripeCall(() => stripe.invoices.createPreview({ ...base, subscription_details: { items, proration_behavior: 'none', cancel_at_period_end: false } }));
      return {
        dueNow: today?.amount_due ?? 0,
        currency: subscription.currency.toUpperCase(),
        lines: today?.lines.data.map((line) => ({ description: line.description ?? '', amount: line.amount })) ?? [],
        taxNow: today ? taxOf(today) : 0,
        recurring: renewal.total,
        recurringFromMs: (renewal.lines.data[0]?.period.start ?? renewal.created) * 1000,
        prorationDate,
      };
    },
    async changePlanNow(subscriptionId, api, plan, prorationDate) {
      const price = await priceOf(api, plan);
      const subscription = await unscheduled(await retrieve(subscriptionId));
      if (prorationDate !== undefined) {
        const nowS = Math.floor((await answer(subscription)).nowMs / 1000);
        if (prorationDate > nowS || prorationDate < nowS - PREVIEW_VALID_S) throw new StalePreviewError();
      }
      const item = subscription.items.data[0]!;
      return update(subscription.id, {
        items: [{ id: item.id, price }],
        ...(prorationDate === undefined ? {} : { proration_date: prorationDate }),
        proration_behavior: 'always_invoice',
        payment_behavior: 'error_if_incomplete',
        cancel_at_period_end: false,
      });
    },
    async changePlanAtPeriodEnd(subscriptionId, api, plan) {
      const price = await priceOf(api, plan);
      let subscription = await retrieve(subscriptionId);
      if (subscription.cancel_at_period_end) subscription = await stripeCall(() => stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: false, expand: SUBSCRIPTION_EXPAND }));
      const current = subscription.schedule;
      const schedule = current && typeof current !== 'string' ? current : await stripeCall(() => stripe.subscriptionSchedules.create({ from_subscription: subscriptionId }));
      const item = subscription.items.data[0]!;
      const start = schedule.current_phase?.start_date ?? item.current_period_start;
      await stripeCall(() =>
        stripe.subscriptionSchedules.update(schedule.id, {
          end_behavior: 'release',
          phases: [
            { items: [{ price: item.price.id, quantity: item.quantity ?? 1 }], start_date: start, end_date: item.current_period_end },
            { items: [{ price, quantity: 1 }], duration: { interval: 'month', interval_count: 1 } },
          ],
        }),
      );
      return answer(await retrieve(subscriptionId));
    },
    async cancelAtPeriodEnd(subscriptionId) {
      const subscription = await unscheduled(await retrieve(subscriptionId));
      return update(subscription.id, { cancel_at_period_end: true });
    },
    async cancelNow(subscriptionId) {
      const subscription = await unscheduled(await retrieve(subscriptionId));
      await stripeCall(() => stripe.subscriptions.cancel(subscription.id));
    },
    async keepCurrentPlan(subscriptionId) {
      const subscription = await unscheduled(await retrieve(subscriptionId));
      if (!subscription.cancel_at_period_end) return answer(subscription);
      return update(subscription.id, { cancel_at_period_end: false });
    },
  };
}
