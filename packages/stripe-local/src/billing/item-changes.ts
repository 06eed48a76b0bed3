import type { Context } from '../core/context';
import { createId } from '../core/create-id';
import { invalidRequest } from '../http/stripe-error';
import type { InvoiceLine } from '../objects/invoice';
import type { Price } from '../objects/price';
import { currentPeriod } from '../objects/subscription';
import type { Subscription, SubscriptionItem } from '../objects/subscription';
import { prorate, shiftByIntervals } from './billing-periods';
import { prorationLine } from './invoice-line';
import { checkSubscriptionPrices } from './start-subscription';

/** One entry of `items[]` in a subscription update. */
export interface ItemChange {
  id?: string;
  price?: Price;
  quantity?: number;
  deleted?: boolean;
  /** `items[0]`, for errors. */
  param: string;
}

/** An item as it is (`current`) and as it will be (`next`, absent when deleted). */
export interface PlannedItem {
  current?: SubscriptionItem;
  next?: { price: Price; quantity: number };
}

/** The subscription's items after the changes, checked as Stripe checks them. */
export function planItems(ctx: Context, subscription: Subscription, changes: ItemChange[]): PlannedItem[] {
  const planned: PlannedItem[] = subscription.items.data.map((item) => ({ current: item, next: { price: ctx.store.prices.require(item.price), quantity: item.quantity } }));
  for (const change of changes) {
    const entry = change.id ? planned.find((p) => p.current?.id === change.id) : undefined;
    if (change.id && !entry) throw invalidRequest(`No such subscription item: '${change.id}'`, { param: `${change.param}[id]`, code: 'resource_missing' });
    if (change.deleted) {
      if (!entry) throw invalidRequest('An item to delete needs its id.', { param: `${change.param}[id]` });
      delete entry.next;
      continue;
    }
    if (entry?.next) entry.next = { price: change.price ?? entry.next.price, quantity: change.quantity ?? entry.next.quantity };
    else if (change.price) planned.push({ next: { price: change.price, quantity: change.quantity ?? 1 } });
    else throw invalidRequest('A new item needs a price.', { param: `${change.param}[price]` });
  }
  const remaining = planned.flatMap((p) => (p.next ? [p.next.price] : []));
  if (remaining.length === 0) throw invalidRequest('A subscription needs at least one item; cancel it instead.', { param: 'items' });
  checkSubscriptionPrices(remaining, 'items', changes.flatMap((change) => (change.price && !change.deleted ? [change.price] : [])));
  const current = ctx.store.prices.require(subscription.items.data[0]!.price).recurring!;
  const next = remaining[0]!.recurring!;
  if (next.interval !== current.interval || next.interval_count !== current.interval_count) {
    throw invalidRequest('stripe-local does not change a subscription’s billing interval; cancel it and start another.', { param: 'items' });
  }
  return planned;
}

/** What changes cost for the rest of the period from `at`: a credit for the old, a charge for the new. */
export function prorationLines(ctx: Context, subscription: Subscription, planned: PlannedItem[], at: number): InvoiceLine[] {
  const period = currentPeriod(subscription);
  // Prorated against a whole interval ending at the period's end: a first period shortened by a
  // billing_cycle_anchor was charged in proportion to one, so its unused part is credited alike.
  const recurring = ctx.store.prices.get(subscription.items.data[0]?.price ?? '')?.recurring;
  const whole = recurring ? { start: Math.min(period.start, shiftByIntervals(period.end, recurring, -1)), end: period.end } : period;
  const lines: InvoiceLine[] = [];
  for (const { current, next } of planned) {
    const oldPrice = current ? ctx.store.prices.require(current.price) : undefined;
    if (oldPrice && current && next && oldPrice.id === next.price.id && current.quantity === next.quantity) continue;
    const itemId = current?.id ?? '';
    const source = { subscriptionId: subscription.id, itemId, period };
    if (oldPrice && current) {
      const amount = prorate(oldPrice.unit_amount * current.quantity, at, whole);
      lines.push(prorationLine({ ...source, price: oldPrice, product: ctx.store.products.get(oldPrice.product), quantity: current.quantity }, amount, at, true));
    }
    if (next) {
      const amount = prorate(next.price.unit_amount * next.quantity, at, whole);
      lines.push(prorationLine({ ...source, price: next.price, product: ctx.store.products.get(next.price.product), quantity: next.quantity }, amount, at, false));
    }
  }
  return lines;
}

/** Makes the planned items the subscription's items; new ones share the current period. */
export function applyItems(subscription: Subscription, planned: PlannedItem[], at: number, lines: InvoiceLine[] = []): void {
  const period = currentPeriod(subscription);
  const items: SubscriptionItem[] = [];
  for (const { current, next } of planned) {
    if (!next) continue;
    const item: SubscriptionItem = current ?? {
      id: createId('si_'),
      object: 'subscription_item',
      billing_thresholds: null,
      created: at,
      current_period_end: period.end,
      current_period_start: period.start,
      discounts: [],
      metadata: {},
      price: next.price.id,
      quantity: next.quantity,
      subscription: subscription.id,
      tax_rates: [],
    };
    // A new item's proration lines were made before it had an id.
    if (!current) for (const line of lines) if (line.parent.subscription_item_details.subscription_item === '' && line.pricing.price_details.price === next.price.id) line.parent.subscription_item_details.subscription_item = item.id;
    item.price = next.price.id;
    item.quantity = next.quantity;
    items.push(item);
  }
  subscription.items.data = items;
  subscription.items.total_count = items.length;
}
