import type { Context } from '../core/context';
import type { Customer } from '../objects/customer';
import type { BillingReason, Invoice, InvoiceLine } from '../objects/invoice';
import { embeddedList } from '../objects/list-object';
import { computeTax, taxLocation } from './tax-rates';
import type { Subscription } from '../objects/subscription';

/** What a draft invoice is made of. */
export interface InvoiceDraft {
  id: string;
  customer: Customer;
  currency: string;
  subscription: Pick<Subscription, 'id' | 'metadata'>;
  reason: BillingReason;
  lines: InvoiceLine[];
  period: { start: number; end: number };
  at: number;
  /** Stripe Tax on: the tax for the customer's address is added (exclusive). */
  automaticTax?: boolean;
}

/** An invoice in Stripe's shape, `draft`, stored nowhere: what {@link openInvoice} finalizes and a preview shows. */
export function draftInvoice(ctx: Context, draft: InvoiceDraft): Invoice {
  const { id, customer, subscription, lines } = draft;
  const subtotal = lines.reduce((sum, line) => sum + line.amount, 0);
  for (const line of lines) line.invoice = id;
  const taxes = draft.automaticTax ? computeTax(subtotal, taxLocation(customer, ctx.store.customerTaxIds.get(customer.id))) : [];
  const total = subtotal + taxes.reduce((sum, tax) => sum + tax.amount, 0);
  return {
    id,
    object: 'invoice',
    account_country: 'US',
    account_name: ctx.settings.accountName,
    amount_due: total,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: total,
    attempt_count: 0,
    attempted: false,
    automatic_tax: draft.automaticTax
      ? { disabled_reason: null, enabled: true, liability: { type: 'self' }, provider: 'stripe', status: customer.address?.country ? 'complete' : 'requires_location_input' }
      : { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    auto_advance: true,
    billing_reason: draft.reason,
    collection_method: 'charge_automatically',
    created: draft.at,
    currency: draft.currency,
    customer: customer.id,
    customer_email: customer.email,
    customer_name: customer.name,
    default_payment_method: null,
    description: null,
    discounts: [],
    due_date: null,
    effective_at: null,
    ending_balance: null,
    hosted_invoice_url: null,
    invoice_pdf: null,
    issuer: { type: 'self' },
    lines: embeddedList(lines, `/v1/invoices/${id}/lines`),
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: null,
    parent: { quote_details: null, subscription_details: { metadata: { ...subscription.metadata }, subscription: subscription.id }, type: 'subscription_details' },
    period_end: draft.period.end,
    period_start: draft.period.start,
    starting_balance: customer.balance,
    status: 'draft',
    status_transitions: { finalized_at: null, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    subtotal,
    subtotal_excluding_tax: subtotal,
    test_clock: customer.test_clock,
    total,
    total_excluding_tax: subtotal,
    total_taxes: taxes,
    webhooks_delivered_at: null,
  };
}
