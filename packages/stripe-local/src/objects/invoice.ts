import type { Metadata } from '../core/read-metadata';
import type { ListObject } from './list-object';

/** An invoice line: a subscription item's period, or a proration of one. */
export interface InvoiceLine {
  id: string;
  object: 'line_item';
  amount: number;
  currency: string;
  description: string;
  discount_amounts: [];
  discountable: boolean;
  discounts: [];
  invoice: string;
  livemode: false;
  metadata: Metadata;
  parent: {
    invoice_item_details: null;
    subscription_item_details: { invoice_item: null; proration: boolean; proration_details: { credited_items: null }; subscription: string; subscription_item: string };
    type: 'subscription_item_details';
  };
  period: { end: number; start: number };
  pretax_credit_amounts: [];
  pricing: { price_details: { price: string; product: string }; type: 'price_details'; unit_amount_decimal: string };
  quantity: number;
  subtotal: number;
  taxes: [];
}

/** A tax an invoice (or a line) carries: Stripe Tax's amount at a rate, on a taxable amount. */
export interface InvoiceTax {
  amount: number;
  tax_behavior: 'exclusive';
  tax_rate_details: { tax_rate: string };
  taxability_reason: 'standard_rated' | 'reverse_charge' | 'not_collecting';
  taxable_amount: number;
  type: 'tax_rate_details';
}

/** Why an invoice was made. */
export type BillingReason = 'subscription_create' | 'subscription_cycle' | 'subscription_update';

/** A Stripe Invoice of a subscription. */
export interface Invoice {
  id: string;
  object: 'invoice';
  account_country: string;
  account_name: string;
  amount_due: number;
  amount_overpaid: number;
  amount_paid: number;
  amount_remaining: number;
  attempt_count: number;
  automatic_tax: { disabled_reason: null; enabled: boolean; liability: { type: 'self' } | null; provider: 'stripe' | null; status: 'complete' | 'requires_location_input' | null };
  attempted: boolean;
  auto_advance: boolean;
  billing_reason: BillingReason;
  collection_method: 'charge_automatically';
  created: number;
  currency: string;
  customer: string;
  customer_email: string | null;
  customer_name: string | null;
  default_payment_method: null;
  description: null;
  discounts: [];
  due_date: null;
  effective_at: number | null;
  ending_balance: number | null;
  hosted_invoice_url: string | null;
  invoice_pdf: string | null;
  issuer: { type: 'self' };
  lines: ListObject<InvoiceLine>;
  livemode: false;
  metadata: Metadata;
  next_payment_attempt: number | null;
  number: string | null;
  parent: { quote_details: null; subscription_details: { metadata: Metadata; subscription: string }; type: 'subscription_details' };
  period_end: number;
  period_start: number;
  starting_balance: number;
  status: 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';
  status_transitions: { finalized_at: number | null; marked_uncollectible_at: number | null; paid_at: number | null; voided_at: number | null };
  subtotal: number;
  subtotal_excluding_tax: number;
  test_clock: string | null;
  total: number;
  total_excluding_tax: number;
  total_taxes: InvoiceTax[];
  webhooks_delivered_at: number | null;
}
