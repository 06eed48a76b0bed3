import type { Metadata } from '../core/read-metadata';

/** The card details Stripe shows: never the number. */
export interface CardDetails {
  brand: string;
  checks: { address_line1_check: null; address_postal_code_check: null; cvc_check: 'pass' | 'unchecked' };
  country: string;
  display_brand: string;
  exp_month: number;
  exp_year: number;
  fingerprint: string;
  funding: 'credit' | 'debit';
  generated_from: null;
  last4: string;
  networks: { available: string[]; preferred: null };
  regulated_status: 'unregulated';
  three_d_secure_usage: { supported: boolean };
  wallet: null;
}

/** A Stripe PaymentMethod of type `card`. */
export interface PaymentMethod {
  id: string;
  object: 'payment_method';
  allow_redisplay: 'unspecified';
  billing_details: {
    address: { city: null; country: null; line1: null; line2: null; postal_code: null; state: null };
    email: string | null;
    name: string | null;
    phone: null;
    tax_id: null;
  };
  card: CardDetails;
  created: number;
  customer: string | null;
  livemode: false;
  metadata: Metadata;
  type: 'card';
}

/** A new, unattached card payment method. */
export function newPaymentMethod(id: string, created: number, card: CardDetails, billing: { email?: string | null; name?: string | null } = {}): PaymentMethod {
  return {
    id,
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: {
      address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null },
      email: billing.email ?? null,
      name: billing.name ?? null,
      phone: null,
      tax_id: null,
    },
    card,
    created,
    customer: null,
    livemode: false,
    metadata: {},
    type: 'card',
  };
}
