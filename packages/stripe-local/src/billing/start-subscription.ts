import type { Context, Moment } from '../core/context';
import { createId } from '../core/create-id';
import type { Metadata } from '../core/read-metadata';
import { cardError, invalidRequest } from '../http/stripe-error';
import type { Customer } from '../objects/customer';
import type { Invoice } from '../objects/invoice';
import type { Price } from '../objects/price';
import type { Subscription, SubscriptionItem } from '../objects/subscription';
import { nextBillingDate, prorate, shiftByIntervals } from './billing-periods';
import { periodLine, prorationLine } from './invoice-line';
import { openInvoice, payInvoice } from './invoices';
import { chargeDecline } from './payment-methods';
import { newSubscription } from '../objects/subscription';

/** What a new subscription is made of. */
export interface SubscriptionRequest {
  customer: Customer;
  lines: { price: Price; quantity: number }[];
  metadata: Metadata;
  defaultPaymentMethod: string | null;
  /** A later first billing date: the first period runs until then. */
  billingCycleAnchor: number | null;
  /** Whether that first, shorter period is charged in proportion (or free). */
  prorate: boolean;
  paymentBehavior: 'allow_incomplete' | 'error_if_incomplete' | 'default_incomplete';
  /** Stripe Tax on its invoices (`automatic_tax[enabled]`). */
  automaticTax?: boolean;
}

/**
 * Refuses prices a subscription cannot bill together: one-time, mixed intervals or currencies,
 * and inactive among those `added` (a subscription may keep a price archived since).
 */
export function checkSubscriptionPrices(prices: Price[], param: string, added: Price[] = prices): void {
  if (prices.length === 0) throw invalidRequest('At least one recurring price is needed.', { param });
  const [first] = prices as [Price, ...Price[]];
  if (added.some((price) => !price.active)) throw invalidRequest('The price specified is inactive. This field only accepts active prices.', { param });
  for (const price of prices) {
    if (!price.recurring) throw invalidRequest(`The price ${price.id} is not recurring; subscriptions need recurring prices.`, { param });
    if (price.currency !== first.currency) throw invalidRequest('All prices on a subscription must have the same currency.', { param });
    if (price.recurring.interval !== first.recurring?.interval || price.recurring.interval_count !== first.recurring.interval_count) {
      throw invalidRequest('All prices on a subscription must have the same recurring interval and interval_count.', { param });
    }
  }
}

/**
 * Refuses a subscription in another currency than the one the customer is billed in: Stripe ties a
 * customer's recurring billing to the currency of its first subscription.
 */
export function checkCustomerCurrency(customer: Customer, currency: string, param: string): void {
  if (customer.currency !== null && customer.currency !== currency) {
    throw invalidRequest(
      `You cannot combine currencies on a single customer. This customer has an active subscription, subscription schedule, discount, quote, or invoice item with currency ${customer.currency}.`,
      { param },
    );
  }
}

/**
 * What a new subscription's first invoice charges for a line started at `at`: the whole price, or
 * with a later anchor its share of the interval ending there (nothing without prorations).
 */
export function firstPeriodAmount(line: { price: Price; quantity: number }, at: number, anchor: number, prorated: boolean): number {
  const amount = line.price.unit_amount * line.quantity;
  if (anchor <= at) return amount;
  if (!prorated) return 0;
  const recurring = line.price.recurring!;
  const end = nextBillingDate(anchor, recurring, at);
  return prorate(amount, at, { start: shiftByIntervals(end, recurring, -1), end });
}

/**
 * Creates a subscription and its first invoice, and collects it: paid → `active`. A failed
 * charge leaves it `incomplete` with the invoice open, or with `error_if_incomplete` is a card
 * error before anything is made.
 */
export function startSubscription(ctx: Context, request: SubscriptionRequest, moment: Moment): { subscription: Subscription; invoice: Invoice } {
  checkSubscriptionPrices(request.lines.map((line) => line.price), 'items');
  checkCustomerCurrency(request.customer, request.lines[0]!.price.currency, 'items');
  const at = moment.at;
  const recurring = request.lines[0]!.price.recurring!;
  const anchor = request.billingCycleAnchor !== null && request.billingCycleAnchor > at ? request.billingCycleAnchor : at;
  const periodEnd = nextBillingDate(anchor, recurring, at);
  const amountOf = (line: { price: Price; quantity: number }) => firstPeriodAmount(line, at, anchor, request.prorate);
  const due = request.lines.reduce((sum, line) => sum + amountOf(line), 0) + request.customer.balance;
  const paymentMethodId = request.defaultPaymentMethod ?? request.customer.invoice_settings.default_payment_method;
  const decline = due > 0 ? chargeDecline(ctx, paymentMethodId) : null;
  if (decline && request.paymentBehavior === 'error_if_incomplete') throw cardError(decline);

  const subscription = newSubscription(createId('sub_'), at, request.customer, request.lines[0]!.price.currency, anchor);
  request.customer.currency = subscription.currency;
  const items: SubscriptionItem[] = request.lines.map((line) => ({
    id: createId('si_'),
    object: 'subscription_item',
    billing_thresholds: null,
    created: at,
    current_period_end: periodEnd,
    current_period_start: at,
    discounts: [],
    metadata: {},
    price: line.price.id,
    quantity: line.quantity,
    subscription: subscription.id,
    tax_rates: [],
  }));
  subscription.items.data = items;
  subscription.items.total_count = items.length;
  subscription.metadata = { ...request.metadata };
  if (request.automaticTax) subscription.automatic_tax = { disabled_reason: null, enabled: true, liability: { type: 'self' } };
  subscription.default_payment_method = request.defaultPaymentMethod;
  const invoiceId = createId('in_');
  subscription.latest_invoice = invoiceId;
  ctx.store.subscriptions.add(subscription);
  ctx.emit('customer.subscription.created', subscription, moment);

  const lines = request.lines.map((line, index) => {
    const source = { ...line, product: ctx.store.products.get(line.price.product), subscriptionId: subscription.id, itemId: items[index]!.id, period: { start: at, end: periodEnd } };
    return anchor === at ? periodLine(source) : prorationLine(source, amountOf(line), at, false);
  });
  const invoice = openInvoice(ctx, subscription, 'subscription_create', lines, { start: at, end: at }, moment, invoiceId);
  if (invoice.status === 'open' && request.paymentBehavior !== 'default_incomplete') payInvoice(ctx, invoice, moment, { automatic: true });
  return { subscription, invoice };
}
