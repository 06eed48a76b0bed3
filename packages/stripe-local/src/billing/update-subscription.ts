import type { Context, Moment } from '../core/context';
import { createId } from '../core/create-id';
import type { Metadata } from '../core/read-metadata';
import { cardError, invalidRequest } from '../http/stripe-error';
import { currentPeriod } from '../objects/subscription';
import type { Subscription } from '../objects/subscription';
import { openInvoice, payInvoice } from './invoices';
import { applyItems, planItems, prorationLines } from './item-changes';
import type { ItemChange } from './item-changes';
import { chargeDecline, requireAttached } from './payment-methods';

/** How a price change is charged: on the next invoice, now, or not at all. */
export type ProrationBehavior = 'create_prorations' | 'always_invoice' | 'none';
export const PRORATION_BEHAVIORS: readonly ProrationBehavior[] = ['create_prorations', 'always_invoice', 'none'];

/** The parts of `POST /v1/subscriptions/:id` stripe-local understands. */
export interface SubscriptionUpdate {
  items: ItemChange[];
  prorationBehavior: ProrationBehavior;
  /** Prorate as if the change were made then (what a preview was made with), within the current period. */
  prorationDate?: number;
  paymentBehavior: 'allow_incomplete' | 'error_if_incomplete' | 'default_incomplete';
  cancelAtPeriodEnd?: boolean;
  metadata?: Metadata;
  defaultPaymentMethod?: string;
  description?: string | null;
}

/**
 * Updates a subscription with one `customer.subscription.updated`. Price changes are prorated to
 * the second: the prorations wait for the next invoice (`create_prorations`), or are invoiced
 * and charged now (`always_invoice`; with `error_if_incomplete` a decline changes nothing).
 */
export function updateSubscription(ctx: Context, subscription: Subscription, update: SubscriptionUpdate, moment: Moment): void {
  checkUpdatable(subscription, update);
  const planned = update.items.length > 0 ? planItems(ctx, subscription, update.items) : null;
  const prorateFrom = update.prorationDate ?? moment.at;
  const period = currentPeriod(subscription);
  if (update.prorationDate !== undefined && (prorateFrom < period.start || prorateFrom > period.end)) throw invalidRequest('proration_date must be within the current billing period.', { param: 'proration_date' });
  const lines = planned && update.prorationBehavior !== 'none' ? prorationLines(ctx, subscription, planned, prorateFrom) : [];
  const customer = ctx.store.customers.require(subscription.customer);
  if (update.defaultPaymentMethod) requireAttached(ctx, customer, update.defaultPaymentMethod, 'default_payment_method');
  const invoiceNow = update.prorationBehavior === 'always_invoice' && lines.length > 0;
  const pending = ctx.store.pendingLines.get(subscription.id) ?? [];
  if (invoiceNow && update.paymentBehavior === 'error_if_incomplete') {
    const due = [...pending, ...lines].reduce((sum, line) => sum + line.amount, 0) + customer.balance;
    const decline = due > 0 ? chargeDecline(ctx, update.defaultPaymentMethod ?? subscription.default_payment_method ?? customer.invoice_settings.default_payment_method) : null;
    if (decline) throw cardError(decline);
  }

  const before = ctx.snapshot(subscription);
  if (planned) applyItems(subscription, planned, moment.at, lines);
  if (update.metadata) subscription.metadata = update.metadata;
  if (update.description !== undefined) subscription.description = update.description;
  if (update.defaultPaymentMethod) subscription.default_payment_method = update.defaultPaymentMethod;
  if (update.cancelAtPeriodEnd !== undefined) setCancelAtPeriodEnd(subscription, update.cancelAtPeriodEnd, moment.at);
  const invoiceId = invoiceNow ? createId('in_') : null;
  if (invoiceId) subscription.latest_invoice = invoiceId;
  ctx.emit('customer.subscription.updated', subscription, moment, before);

  if (update.prorationBehavior === 'create_prorations' && lines.length > 0) ctx.store.pendingLines.set(subscription.id, [...pending, ...lines]);
  if (invoiceId) {
    ctx.store.pendingLines.delete(subscription.id);
    const invoice = openInvoice(ctx, subscription, 'subscription_update', [...pending, ...lines], { start: moment.at, end: moment.at }, moment, invoiceId);
    if (invoice.status === 'open' && update.paymentBehavior !== 'default_incomplete') payInvoice(ctx, invoice, moment, { automatic: true });
  }
}

/** Sets or clears the cancellation at the period's end, as Stripe records it. */
export function setCancelAtPeriodEnd(subscription: Subscription, cancel: boolean, at: number): void {
  subscription.cancel_at_period_end = cancel;
  subscription.cancel_at = cancel ? currentPeriod(subscription).end : null;
  subscription.canceled_at = cancel ? at : null;
  subscription.cancellation_details.reason = cancel ? 'cancellation_requested' : null;
}

function checkUpdatable(subscription: Subscription, update: SubscriptionUpdate): void {
  const onlyMetadata = update.items.length === 0 && update.cancelAtPeriodEnd === undefined && !update.defaultPaymentMethod && update.description === undefined;
  if ((subscription.status === 'canceled' || subscription.status === 'incomplete_expired') && !onlyMetadata) {
    throw invalidRequest('A canceled subscription can only update its cancellation_details and metadata.');
  }
  if (subscription.schedule && (update.items.length > 0 || update.cancelAtPeriodEnd !== undefined)) {
    throw invalidRequest(`The subscription is managed by the subscription schedule \`${subscription.schedule}\`, and updating its items or cancellation directly is not allowed. Please update the schedule instead.`);
  }
}
