import type { Context } from '../core/context';
import type { Params } from '../core/params';
import { readMetadata } from '../core/read-metadata';
import { invalidRequest, missingParam } from '../http/stripe-error';
import type { Recurring } from '../objects/price';
import type { Subscription } from '../objects/subscription';
import type { SchedulePhase } from '../objects/subscription-schedule';
import { nextBillingDate, shiftByIntervals } from './billing-periods';
import { checkSubscriptionPrices } from './start-subscription';

const PRORATIONS = ['create_prorations', 'none', 'always_invoice'] as const;

/**
 * A schedule's `phases[]`, checked for what stripe-local can carry out: the first phase is the
 * one in effect (same start, same prices as the subscription now), each next phase starts where
 * the one before ends, and every phase ends on one of the subscription's billing dates (given as
 * `end_date` or as a `duration`; the last phase runs one billing interval when neither is given).
 * Prices change only at those billing dates, so no phase needs prorations.
 */
export function readPhases(ctx: Context, subscription: Subscription, entries: Params[], firstStart: number): SchedulePhase[] {
  if (entries.length === 0) throw missingParam('phases');
  const recurring = ctx.store.prices.require(subscription.items.data[0]!.price).recurring!;
  let start = firstStart;
  return entries.map((entry, index) => {
    entry.allow('items', 'start_date', 'end_date', 'duration', 'proration_behavior', 'metadata');
    const startDate = entry.integer('start_date') ?? start;
    if (startDate !== start) {
      throw invalidRequest(index === 0 ? `The first phase must start when the current phase started (${start}).` : `Each phase must start when the one before ends (${start}).`, { param: entry.name('start_date') });
    }
    const items = entry.list('items').map((item) => {
      item.allow('price', 'quantity', 'metadata');
      return { price: ctx.store.prices.require(item.requireString('price'), item.name('price')), quantity: item.integer('quantity') ?? 1, metadata: readMetadata(item) };
    });
    if (items.length === 0) throw missingParam(entry.name('items'));
    checkSubscriptionPrices(items.map((item) => item.price), entry.name('items'));
    if (items[0]!.price.recurring!.interval !== recurring.interval || items[0]!.price.recurring!.interval_count !== recurring.interval_count) {
      throw invalidRequest('Phases must bill at the subscription’s interval.', { param: entry.name('items') });
    }
    if (index === 0 && !sameItems(subscription, items)) {
      throw invalidRequest('The current phase must keep the subscription’s prices; change the prices of a later phase, or update the subscription for a change now.', { param: entry.name('items') });
    }
    const end = endOf(entry, start, subscription.billing_cycle_anchor, recurring, index === entries.length - 1);
    const phase: SchedulePhase = {
      add_invoice_items: [],
      application_fee_percent: null,
      billing_cycle_anchor: null,
      collection_method: null,
      currency: items[0]!.price.currency,
      default_payment_method: null,
      default_tax_rates: [],
      description: null,
      discounts: [],
      end_date: end,
      invoice_settings: null,
      items: items.map((item) => ({ billing_thresholds: null, discounts: [], metadata: item.metadata, plan: item.price.id, price: item.price.id, quantity: item.quantity, tax_rates: [] })),
      metadata: readMetadata(entry),
      on_behalf_of: null,
      proration_behavior: entry.oneOf('proration_behavior', PRORATIONS) ?? 'create_prorations',
      start_date: start,
      transfer_data: null,
      trial_end: null,
    };
    start = end;
    return phase;
  });
}

function endOf(entry: Params, start: number, anchor: number, recurring: Recurring, last: boolean): number {
  const duration = entry.object('duration')?.allow('interval', 'interval_count');
  let endDate = entry.integer('end_date');
  if (endDate !== undefined && duration) throw invalidRequest('You may only specify one of these parameters: duration, end_date.', { param: entry.name('duration') });
  if (duration) {
    const interval = duration.oneOf('interval', ['day', 'week', 'month', 'year'] as const);
    if (!interval) throw missingParam(duration.name('interval'));
    endDate = shiftByIntervals(start, { interval, interval_count: duration.integer('interval_count') ?? 1 }, 1);
  }
  // The last phase runs one billing interval when it says nothing.
  if (endDate === undefined && last) endDate = nextBillingDate(anchor, recurring, start);
  if (endDate === undefined) throw missingParam(entry.name('end_date'));
  const billingDate = nextBillingDate(anchor, recurring, endDate - 1);
  if (endDate <= start || billingDate !== endDate) {
    throw invalidRequest(`stripe-local changes phases on billing dates only; ${endDate} is not one after ${start} (the next is ${nextBillingDate(anchor, recurring, Math.max(start, endDate - 1))}).`, { param: entry.name('end_date') });
  }
  return endDate;
}

function sameItems(subscription: Subscription, items: { price: { id: string }; quantity: number }[]): boolean {
  const current = subscription.items.data;
  return current.length === items.length && current.every((item, index) => item.price === items[index]!.price.id && item.quantity === items[index]!.quantity);
}
