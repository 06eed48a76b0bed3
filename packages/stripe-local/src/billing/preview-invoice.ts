import { nowFor } from '../core/context';
import type { Context } from '../core/context';
import { createId } from '../core/create-id';
import { invalidRequest } from '../http/stripe-error';
import type { Customer } from '../objects/customer';
import type { Invoice, InvoiceLine } from '../objects/invoice';
import type { Price } from '../objects/price';
import { currentPeriod } from '../objects/subscription';
import type { Subscription } from '../objects/subscription';
import { nextBillingDate } from './billing-periods';
import { draftInvoice } from './draft-invoice';
import { periodLine, prorationLine } from './invoice-line';
import { planItems, prorationLines } from './item-changes';
import type { ItemChange } from './item-changes';
import { checkCustomerCurrency, checkSubscriptionPrices, firstPeriodAmount } from './start-subscription';
import type { ProrationBehavior } from './update-subscription';

/** `POST /v1/invoices/create_preview`, as stripe-local reads it. */
export interface PreviewRequest {
  customer: Customer;
  subscription: Subscription | null;
  /** `subscription_details[items]`: changes to the subscription's items, or a new one's prices. */
  items: ItemChange[];
  prorationBehavior: ProrationBehavior | undefined;
  /** `subscription_details[proration_date]`: prorate as if the change were made then. */
  prorationDate: number | undefined;
  /** `subscription_details[billing_cycle_anchor]` of a new subscription. */
  billingCycleAnchor: number | undefined;
  /** `subscription_details[cancel_at_period_end]`: `false` previews the renewal of a subscription set to cancel. */
  cancelAtPeriodEnd: boolean | undefined;
  /** `automatic_tax[enabled]`: Stripe Tax for the customer's address (a subscription's own setting otherwise). */
  automaticTax: boolean | undefined;
}

/** A preview's invoice: never stored, so it cannot be paid, listed or retrieved. */
export type PreviewInvoice = Invoice;

/**
 * The invoice a subscription change, or a new subscription, would make, as Stripe previews it:
 * with `always_invoice`, the prorations charged now; otherwise the next renewal's invoice (the
 * prorations waiting for it, and the next period at the new prices); for a new subscription, its
 * first invoice (prorated to `billing_cycle_anchor` unless `proration_behavior=none`).
 */
export function previewInvoice(ctx: Context, request: PreviewRequest): PreviewInvoice {
  const id = `upcoming_in_${createId('', 24)}`;
  return request.subscription ? previewChange(ctx, request, request.subscription, id) : previewStart(ctx, request, id);
}

function previewChange(ctx: Context, request: PreviewRequest, subscription: Subscription, id: string): PreviewInvoice {
  if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') throw invalidRequest('No upcoming invoices for a canceled subscription.', { code: 'invoice_upcoming_none' });
  const now = nowFor(ctx, subscription.customer);
  const period = currentPeriod(subscription);
  const at = request.prorationDate ?? now;
  if (at < period.start || at > period.end) throw invalidRequest('proration_date must be within the current billing period.', { param: 'subscription_details[proration_date]' });
  const planned = request.items.length > 0 ? planItems(ctx, subscription, request.items) : null;
  const behavior = request.prorationBehavior ?? 'create_prorations';
  const prorations = planned && behavior !== 'none' ? prorationLines(ctx, subscription, planned, at) : [];
  const pending = ctx.store.pendingLines.get(subscription.id) ?? [];
  const base = { customer: request.customer, currency: subscription.currency, subscription, automaticTax: request.automaticTax ?? subscription.automatic_tax.enabled };
  if (behavior === 'always_invoice' && prorations.length > 0) {
    return withBalance(draftInvoice(ctx, { ...base, id, reason: 'subscription_update', lines: [...pending, ...prorations], period: { start: at, end: at }, at: now }), request.customer);
  }
  const cancels = request.cancelAtPeriodEnd ?? subscription.cancel_at !== null;
  if (cancels) throw invalidRequest('No upcoming invoices: the subscription ends at the end of its period.', { code: 'invoice_upcoming_none' });
  const next = planned ? planned.flatMap((p) => (p.next ? [{ ...p.next, itemId: p.current?.id ?? '' }] : [])) : subscription.items.data.map((item) => ({ price: ctx.store.prices.require(item.price), quantity: item.quantity, itemId: item.id }));
  const recurring = next[0]!.price.recurring!;
  const end = nextBillingDate(subscription.billing_cycle_anchor, recurring, period.end);
  const renewal = next.map((line) => periodLine({ price: line.price, product: ctx.store.products.get(line.price.product), quantity: line.quantity, subscriptionId: subscription.id, itemId: line.itemId, period: { start: period.end, end } }));
  const lines = [...pending, ...(behavior === 'create_prorations' ? prorations : []), ...renewal];
  return withBalance(draftInvoice(ctx, { ...base, id, reason: 'subscription_cycle', lines, period, at: period.end }), request.customer);
}

function previewStart(ctx: Context, request: PreviewRequest, id: string): PreviewInvoice {
  const prices: Price[] = request.items.map((item) => {
    if (!item.price) throw invalidRequest('A new subscription’s items need a price.', { param: `${item.param}[price]` });
    if (item.id || item.deleted) throw invalidRequest('Without a subscription, items can only name prices.', { param: item.param });
    return item.price;
  });
  checkSubscriptionPrices(prices, 'subscription_details[items]');
  checkCustomerCurrency(request.customer, prices[0]!.currency, 'subscription_details[items]');
  const at = nowFor(ctx, request.customer.id);
  const recurring = prices[0]!.recurring!;
  const anchor = request.billingCycleAnchor !== undefined && request.billingCycleAnchor > at ? request.billingCycleAnchor : at;
  const end = nextBillingDate(anchor, recurring, at);
  const lines: InvoiceLine[] = request.items.map((item, index) => {
    const price = prices[index]!;
    const source = { price, product: ctx.store.products.get(price.product), quantity: item.quantity ?? 1, subscriptionId: '', itemId: '', period: { start: at, end } };
    if (anchor === at) return periodLine(source);
    return prorationLine(source, firstPeriodAmount(source, at, anchor, request.prorationBehavior !== 'none'), at, false);
  });
  const invoice = draftInvoice(ctx, { id, customer: request.customer, currency: prices[0]!.currency, subscription: { id: '', metadata: {} }, reason: 'subscription_create', lines, period: { start: at, end: at }, at, automaticTax: request.automaticTax ?? false });
  return withBalance(invoice, request.customer);
}

// The customer's credit (a negative balance) lowers what would be due, as on a real invoice.
function withBalance(invoice: Invoice, customer: Customer): Invoice {
  const due = Math.max(0, invoice.total + customer.balance);
  return Object.assign(invoice, { amount_due: due, amount_remaining: due, ending_balance: invoice.total + customer.balance - due });
}
