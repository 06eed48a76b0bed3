import type { Address } from './customer';
import type { Metadata } from '../core/read-metadata';

/** A Checkout Session in `subscription` mode. */
export interface CheckoutSession {
  id: string;
  object: 'checkout.session';
  allow_promotion_codes: null;
  amount_subtotal: number;
  amount_total: number;
  automatic_tax: { enabled: boolean; liability: { type: 'self' } | null; provider: 'stripe' | null; status: 'complete' | 'requires_location_input' | null };
  billing_address_collection: 'auto' | 'required' | null;
  cancel_url: string | null;
  client_reference_id: string | null;
  client_secret: null;
  created: number;
  currency: string;
  customer: string | null;
  customer_creation: 'always' | null;
  customer_details: { address: Address | null; email: string | null; name: string | null; phone: null; tax_exempt: 'none' | 'reverse'; tax_ids: { type: string; value: string }[] } | null;
  customer_email: string | null;
  expires_at: number;
  invoice: string | null;
  livemode: false;
  locale: null;
  metadata: Metadata;
  mode: 'subscription';
  payment_intent: null;
  payment_link: null;
  payment_method_collection: 'always';
  payment_method_types: ['card'];
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  setup_intent: null;
  status: 'open' | 'complete' | 'expired';
  submit_type: null;
  subscription: string | null;
  success_url: string;
  tax_id_collection: { enabled: boolean; required: 'never' };
  total_details: { amount_discount: number; amount_shipping: number; amount_tax: number } | null;
  ui_mode: 'hosted';
  url: string | null;
}

/** A line of a session, kept beside it: Stripe shows them only through `expand[]=line_items`. */
export interface SessionLine {
  id: string;
  object: 'item';
  amount_discount: 0;
  amount_subtotal: number;
  amount_tax: 0;
  amount_total: number;
  currency: string;
  description: string;
  price: string;
  quantity: number;
}

/** What a session's subscription is made with once it is paid. */
export interface SessionPlan {
  lines: SessionLine[];
  subscriptionMetadata: Metadata;
  billingCycleAnchor: number | null;
  prorate: boolean;
  /** Stripe Tax on (`automatic_tax[enabled]`): the subscription's invoices carry the tax for the billing address. */
  automaticTax: boolean;
  /** Ask for the billing address (`billing_address_collection=required`, or Stripe Tax on). */
  collectAddress: boolean;
  /** Offer a business's tax ID (`tax_id_collection[enabled]`). */
  collectTaxId: boolean;
  /** `customer_update[address]=auto`: the address typed is saved on an existing customer. */
  updateAddress: boolean;
  /** The customer made by an earlier attempt that saved the card but failed to charge it. */
  customerId: string | null;
}
