import { AUTOMATIC } from '../core/context';
import type { Context } from '../core/context';
import { createId } from '../core/create-id';
import { currentPeriod } from '../objects/subscription';
import type { Subscription } from '../objects/subscription';
import { nextBillingDate } from './billing-periods';
import { periodLine } from './invoice-line';
import { openInvoice, payInvoice } from './invoices';
import { enterNextPhase } from './schedule-phases';
import { endSubscription } from './subscription-status';

/**
 * What happens at the end of a subscription's period (`at`): it ends if it was set to, or it moves
 * to the next period (following its schedule, if any) and is invoiced for it with any waiting
 * prorations. The invoice is charged at once, except for an `unpaid` subscription, whose
 * invoices wait to be paid by hand.
 */
export function renewSubscription(ctx: Context, subscription: Subscription, at: number): void {
  const moment = { at, request: AUTOMATIC };
  if (subscription.cancel_at !== null && subscription.cancel_at <= at) {
    endSubscription(ctx, subscription, moment, 'cancellation_requested');
    return;
  }
  const before = ctx.snapshot(subscription);
  if (enterNextPhase(ctx, subscription, moment) === 'ended') return;
  const previous = currentPeriod(subscription);
  const recurring = ctx.store.prices.require(subscription.items.data[0]!.price).recurring!;
  const end = nextBillingDate(subscription.billing_cycle_anchor, recurring, at);
  for (const item of subscription.items.data) {
    item.current_period_start = at;
    item.current_period_end = end;
  }
  const invoiceId = createId('in_');
  subscription.latest_invoice = invoiceId;
  ctx.emit('customer.subscription.updated', subscription, moment, before);

  const lines = subscription.items.data.map((item) => {
    const price = ctx.store.prices.require(item.price);
    return periodLine({ price, product: ctx.store.products.get(price.product), quantity: item.quantity, subscriptionId: subscription.id, itemId: item.id, period: { start: at, end } });
  });
  const pending = ctx.store.pendingLines.get(subscription.id) ?? [];
  ctx.store.pendingLines.delete(subscription.id);
  // Stripe's invoice period for a renewal is the period just ended; the lines name the new one.
  const invoice = openInvoice(ctx, subscription, 'subscription_cycle', [...pending, ...lines], { start: previous.start, end: at }, moment, invoiceId);
  if (invoice.status === 'open' && subscription.status !== 'unpaid') payInvoice(ctx, invoice, moment, { automatic: true });
}

/** An `incomplete` subscription whose first invoice went unpaid for 23 hours: it expires. */
export function expireSubscription(ctx: Context, subscription: Subscription, at: number): void {
  const moment = { at, request: AUTOMATIC };
  const invoice = subscription.latest_invoice ? ctx.store.invoices.get(subscription.latest_invoice) : undefined;
  if (invoice?.status === 'open') {
    invoice.status = 'void';
    invoice.next_payment_attempt = null;
    invoice.status_transitions.voided_at = at;
    ctx.emit('invoice.voided', invoice, moment);
  }
  subscription.status = 'incomplete_expired';
  subscription.ended_at = at;
  ctx.emit('customer.subscription.deleted', subscription, moment);
}
