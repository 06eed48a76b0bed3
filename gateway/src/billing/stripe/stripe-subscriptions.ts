import type Stripe from 'stripe';
import type { ProviderStatus } from '../../domain/billing-access';
import type { PaidSubscription } from '../billing-provider';
import { isMissing, stripeCall } from './stripe-client';

/** What reading a subscription expands: its schedule names the plan coming at the period's end. */
export const SUBSCRIPTION_EXPAND = ['schedule'];

const idOf = (value: string | { id: string } | null | undefined): string | null => (value === null || value === undefined ? null : typeof value === 'string' ? value : value.id);

/** Reads Stripe subscriptions in the gateway's terms; prices' plans are cached (a price never changes its amount or metadata). */
export interface SubscriptionReader {
  read(subscriptionId: string): Promise<PaidSubscription | undefined>;
  /** A subscription object Stripe answered, in the gateway's terms; undefined when it is not for a Tollgate price. */
  translate(subscription: Stripe.Subscription): Promise<PaidSubscription | undefined>;
  /** The time of a customer's test clock, or the wall clock. */
  customerNow(customerId: string): Promise<number>;
}

/** A price's API and plan, from the metadata the catalogue sync gives it. */
function planOfPrice(price: Stripe.Price): { api: string; plan: string } | undefined {
  const api = price.metadata?.tollgate_api;
  const plan = price.metadata?.tollgate_plan;
  return api && plan ? { api, plan } : undefined;
}

/** The reader over one SDK; `clock` is the wall clock, used for subscriptions not on a test clock. */
export function createSubscriptionReader(stripe: Stripe, clock: () => number): SubscriptionReader {
  const plans = new Map<string, { api: string; plan: string } | undefined>();
  const planOf = async (price: string | Stripe.Price): Promise<{ api: string; plan: string } | undefined> => {
    const id = typeof price === 'string' ? price : price.id;
    if (!plans.has(id)) plans.set(id, planOfPrice(typeof price === 'string' ? await stripeCall(() => stripe.prices.retrieve(id)) : price));
    return plans.get(id);
  };
  const clockNow = async (clockId: string | null): Promise<number> => (clockId ? (await stripeCall(() => stripe.testHelpers.testClocks.retrieve(clockId))).frozen_time * 1000 : clock());

  // The plan of the phase that starts when the current period ends, if a schedule has one.
  const nextPlan = async (subscription: Stripe.Subscription, periodEnd: number | null): Promise<string | null> => {
    const schedule = subscription.schedule;
    if (!schedule || typeof schedule === 'string' || periodEnd === null) return null;
    const next = schedule.phases.find((phase) => phase.start_date === periodEnd);
    const price = next?.items[0]?.price;
    return price ? ((await planOf(price as string | Stripe.Price))?.plan ?? null) : null;
  };

  // When the oldest open invoice of a past-due subscription was issued: its grace runs from then.
  const failedAt = async (subscription: Stripe.Subscription): Promise<number | null> => {
    if (subscription.status !== 'past_due') return null;
    const open = await stripeCall(() => stripe.invoices.list({ subscription: subscription.id, status: 'open', limit: 100 }));
    const oldest = Math.min(...open.data.map((invoice) => invoice.created));
    return Number.isFinite(oldest) ? oldest * 1000 : null;
  };

  const translate = async (subscription: Stripe.Subscription): Promise<PaidSubscription | undefined> => {
    const item = subscription.items.data[0];
    if (!item) return undefined;
    const owner = await planOf(item.price);
    if (!owner) return undefined;
    const periodEnd = item.current_period_end ? item.current_period_end * 1000 : null;
    const testClock = idOf(subscription.test_clock);
    const next = await nextPlan(subscription, periodEnd === null ? null : periodEnd / 1000);
    return {
      id: subscription.id,
      customerId: idOf(subscription.customer) ?? '',
      api: owner.api,
      plan: owner.plan,
      priceId: item.price.id,
      amount: (item.price.unit_amount ?? 0) * (item.quantity ?? 1),
      currency: item.price.currency.toUpperCase(),
      status: subscription.status as ProviderStatus,
      currentPeriodEndMs: periodEnd,
      cancelAtPeriodEnd: subscription.cancel_at_period_end,
      nextPlan: next === owner.plan ? null : next,
      paymentFailedAtMs: await failedAt(subscription),
      canceledForPayment: subscription.status === 'canceled' && subscription.cancellation_details?.reason === 'payment_failed',
      testClock,
      nowMs: await clockNow(testClock),
    };
  };

  return {
    translate,
    async read(subscriptionId) {
      try {
        return await translate(await stripeCall(() => stripe.subscriptions.retrieve(subscriptionId, { expand: SUBSCRIPTION_EXPAND })));
      } catch (err) {
        if (isMissing(err)) return undefined;
        throw err;
      }
    },
    async customerNow(customerId) {
      const customer = await stripeCall(() => stripe.customers.retrieve(customerId));
      return clockNow('deleted' in customer && customer.deleted ? null : idOf((customer as Stripe.Customer).test_clock));
    },
  };
}
