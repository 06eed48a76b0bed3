import type { Context, Moment } from '../core/context';
import type { BillingReason, Invoice, InvoiceLine } from '../objects/invoice';
import type { Subscription } from '../objects/subscription';
import type { Decline } from '../http/stripe-error';
import { recordCharge } from './charges';
import { draftInvoice } from './draft-invoice';
import { chargeDecline } from './payment-methods';
import { onInvoiceSettled, onPaymentFailed, onRetriesExhausted } from './subscription-status';

/**
 * Makes a subscription's invoice and finalizes it (`invoice.created`, `invoice.finalized`): it is
 * numbered, gets its hosted page and PDF, and the customer's balance is applied. An invoice with
 * nothing due is paid at once; otherwise the caller collects it with {@link payInvoice}.
 */
export function openInvoice(ctx: Context, subscription: Subscription, reason: BillingReason, lines: InvoiceLine[], period: { start: number; end: number }, moment: Moment, id: string): Invoice {
  const customer = ctx.store.customers.require(subscription.customer);
  const invoice = draftInvoice(ctx, { id, customer, currency: subscription.currency, subscription, reason, lines, period, at: moment.at, automaticTax: subscription.automatic_tax.enabled });
  const { total } = invoice;
  invoice.webhooks_delivered_at = moment.at;
  ctx.store.invoices.add(invoice);
  ctx.emit('invoice.created', invoice, moment);
  // A credit (negative balance) lowers what is due; what is left of it stays with the customer.
  const due = Math.max(0, total + customer.balance);
  customer.balance = total + customer.balance - due;
  Object.assign(invoice, { amount_due: due, amount_remaining: due, ending_balance: customer.balance, status: 'open', effective_at: moment.at });
  invoice.number = `${customer.invoice_prefix}-${String(customer.next_invoice_sequence++).padStart(4, '0')}`;
  invoice.hosted_invoice_url = `${ctx.baseUrl()}/invoice/${id}`;
  invoice.invoice_pdf = `${ctx.baseUrl()}/invoice/${id}/pdf`;
  invoice.status_transitions.finalized_at = moment.at;
  ctx.emit('invoice.finalized', invoice, moment);
  if (due === 0) markPaid(ctx, invoice, moment);
  return invoice;
}

/** How an attempt to collect an invoice is made. */
export interface PaymentAttempt {
  /** Charge this payment method instead of the subscription's or the customer's default. */
  paymentMethodId?: string;
  /** An attempt of the retry schedule (the first at finalization, then the retries). */
  automatic?: boolean;
  /** Paid outside Stripe: marked paid without a charge. */
  outOfBand?: boolean;
}

/** Charges an open invoice; `null` when it is paid, otherwise the decline. */
export function payInvoice(ctx: Context, invoice: Invoice, moment: Moment, attempt: PaymentAttempt = {}): Decline | null {
  const subscription = ctx.store.subscriptions.get(invoice.parent.subscription_details.subscription);
  const customer = ctx.store.customers.require(invoice.customer);
  const paymentMethodId = attempt.paymentMethodId ?? subscription?.default_payment_method ?? customer.invoice_settings.default_payment_method;
  const decline = invoice.amount_due === 0 || attempt.outOfBand ? null : chargeDecline(ctx, paymentMethodId);
  invoice.attempt_count += 1;
  invoice.attempted = true;
  if (!decline) {
    markPaid(ctx, invoice, moment);
    if (invoice.amount_paid > 0 && !attempt.outOfBand && paymentMethodId) recordCharge(ctx, invoice, paymentMethodId, moment);
    return null;
  }
  if (attempt.automatic) scheduleRetry(ctx, invoice);
  ctx.emit('invoice.payment_failed', invoice, moment);
  onPaymentFailed(ctx, invoice, moment);
  if (attempt.automatic && invoice.next_payment_attempt === null && invoice.billing_reason !== 'subscription_create') onRetriesExhausted(ctx, invoice, moment);
  return decline;
}

// The retry schedule counts from the first attempt, made when the invoice was finalized.
function scheduleRetry(ctx: Context, invoice: Invoice): void {
  const made = (ctx.store.automaticAttempts.get(invoice.id) ?? 0) + 1;
  ctx.store.automaticAttempts.set(invoice.id, made);
  const days = invoice.billing_reason === 'subscription_create' ? undefined : ctx.settings.retryDays[made - 1];
  invoice.next_payment_attempt = days === undefined ? null : (invoice.status_transitions.finalized_at ?? invoice.created) + days * 86_400;
}

function markPaid(ctx: Context, invoice: Invoice, moment: Moment): void {
  invoice.status = 'paid';
  invoice.amount_paid = invoice.amount_due;
  invoice.amount_remaining = 0;
  invoice.next_payment_attempt = null;
  invoice.status_transitions.paid_at = moment.at;
  ctx.emit('invoice.paid', invoice, moment);
  ctx.emit('invoice.payment_succeeded', invoice, moment);
  onInvoiceSettled(ctx, invoice, moment);
}

/** Ends an open invoice without payment: `void`, or `uncollectible`. */
export function closeInvoice(ctx: Context, invoice: Invoice, status: 'void' | 'uncollectible', moment: Moment): void {
  invoice.status = status;
  invoice.next_payment_attempt = null;
  if (status === 'void') invoice.status_transitions.voided_at = moment.at;
  else invoice.status_transitions.marked_uncollectible_at = moment.at;
  ctx.emit(status === 'void' ? 'invoice.voided' : 'invoice.marked_uncollectible', invoice, moment);
  onInvoiceSettled(ctx, invoice, moment);
}
