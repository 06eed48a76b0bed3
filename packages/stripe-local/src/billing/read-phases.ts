import type { Context } from '../core/context';
import type { Params } from '../core/params';
import { readMetadata } from '../core/read-metadata';
import { invalidRequest, missingParam } from '../http/stripe-error';
import type { Recurring } from '../objects/price';
import type { Subscription } from '../objects/subscription';
import type { SchedulePhase } from '../objects/subscription-schedule';
import { nextBillingDate } from './billing-periods';
import { checkSubscriptionPrices } from './start-subscription';

const PRORATIONS = ['create_prorations', 'none', 'always_invoice'] as const;

/**
 * A schedule's `phases[]`, checked for what stripe-local can carry out: the first phase is the
 * one in effect (same start, same prices as the subscription now), each next phase starts where
 * the one before ends, and every phase ends on one of the subscription's billing dates (given as
 * `end_date` or as `iterations` of the billing interval; the last phase runs one interval when
 * neither is given). Prices change only at those billing dates, so no phase needs prorations.
 */
export function readPhases(ctx: Context, subscription: Subscription, entries: Params[], firstStart: number): SchedulePhase[] {
  if (entries.length === 0) throw missingParam('phases');
  const recurring = ctx.store.prices.require(subscription.items.data[0]!.price).recurring!;
  let start = firstStart;
  return entries.map((entry, index) => {
    entry.allow('items', 'start_date', 'end_date', 'iterations', 'proration_behavior', 'metadata');
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
  const endDate = entry.integer('end_date');
  const iterations = entry.integer('iterations') ?? (endDate === undefined && last ? 1 : undefined);
  if (endDate !== undefined && iterations !== undefined) throw invalidRequest('You may only specify one of these parameters: end_date, iterations.', { param: entry.name('iterations') });
  if (iterations !== undefined) {
    if (iterations < 1 || iterations > 100) throw invalidRequest('iterations must be between 1 and 100.', { param: entry.name('iterations') });
    let end = start;
    for (let i = 0; i < iterations; i++) end = nextBillingDate(anchor, recurring, end);
    return end;
  }
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
