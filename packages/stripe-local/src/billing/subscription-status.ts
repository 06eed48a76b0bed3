import type { Context, Moment } from '../core/context';
import type { Invoice } from '../objects/invoice';
import type { Subscription, SubscriptionStatus } from '../objects/subscription';

/** The statuses a paid invoice can lift back to `active`. */
const OWING: readonly SubscriptionStatus[] = ['incomplete', 'past_due', 'unpaid'];

/** The customer's invoices still open. */
export function openInvoices(ctx: Context, customerId: string): Invoice[] {
  return ctx.store.invoices.all().filter((invoice) => invoice.customer === customerId && invoice.status === 'open');
}

/** Sets a subscription's status, with `customer.subscription.updated`. */
export function setStatus(ctx: Context, subscription: Subscription, status: SubscriptionStatus, moment: Moment): void {
  const before = ctx.snapshot(subscription);
  subscription.status = status;
  ctx.emit('customer.subscription.updated', subscription, moment, before);
}

/** After an invoice stops being open: the subscription is active again once nothing is owed. */
export function onInvoiceSettled(ctx: Context, invoice: Invoice, moment: Moment): void {
  const open = openInvoices(ctx, invoice.customer);
  const customer = ctx.store.customers.get(invoice.customer);
  if (customer?.delinquent && open.length === 0) {
    const before = ctx.snapshot(customer);
    customer.delinquent = false;
    ctx.emit('customer.updated', customer, moment, before);
  }
  const subscription = ctx.store.subscriptions.get(invoice.parent.subscription_details.subscription);
  if (!subscription || !OWING.includes(subscription.status)) return;
  if (open.some((other) => other.parent.subscription_details.subscription === subscription.id)) return;
  setStatus(ctx, subscription, 'active', moment);
}

/** After a failed charge: the customer is delinquent and an active subscription is `past_due`. */
export function onPaymentFailed(ctx: Context, invoice: Invoice, moment: Moment): void {
  const customer = ctx.store.customers.get(invoice.customer);
  if (customer && !customer.delinquent) {
    const before = ctx.snapshot(customer);
    customer.delinquent = true;
    ctx.emit('customer.updated', customer, moment, before);
  }
  const subscription = ctx.store.subscriptions.get(invoice.parent.subscription_details.subscription);
  if (subscription?.status === 'active') setStatus(ctx, subscription, 'past_due', moment);
}

/** After the last retry failed: `unpaid`, or canceled, as the server was configured. */
export function onRetriesExhausted(ctx: Context, invoice: Invoice, moment: Moment): void {
  const subscription = ctx.store.subscriptions.get(invoice.parent.subscription_details.subscription);
  if (!subscription || (subscription.status !== 'past_due' && subscription.status !== 'active')) return;
  if (ctx.settings.retriesExhausted === 'canceled') endSubscription(ctx, subscription, moment, 'payment_failed');
  else setStatus(ctx, subscription, 'unpaid', moment);
}

/**
 * Cancels a subscription now (`customer.subscription.deleted`). Its open invoices stay open but are
 * no longer retried; a schedule it follows is canceled with it.
 */
export function endSubscription(ctx: Context, subscription: Subscription, moment: Moment, reason: 'cancellation_requested' | 'payment_failed'): void {
  subscription.status = 'canceled';
  subscription.canceled_at ??= moment.at;
  subscription.ended_at = moment.at;
  subscription.cancellation_details.reason = reason;
  for (const invoice of openInvoices(ctx, subscription.customer)) {
    if (invoice.parent.subscription_details.subscription === subscription.id) invoice.next_payment_attempt = null;
  }
  const schedule = subscription.schedule ? ctx.store.schedules.get(subscription.schedule) : undefined;
  if (schedule && (schedule.status === 'active' || schedule.status === 'not_started')) {
    schedule.status = 'canceled';
    schedule.canceled_at = moment.at;
    ctx.emit('subscription_schedule.canceled', schedule, moment);
  }
  ctx.emit('customer.subscription.deleted', subscription, moment);
}
