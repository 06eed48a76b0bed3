import type { Metadata } from '../core/read-metadata';

/** A successful card charge of an invoice, with the receipt Stripe keeps for it. */
export interface Charge {
  id: string;
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: 0;
  billing_details: { address: null; email: string | null; name: string | null; phone: null };
  captured: true;
  created: number;
  currency: string;
  customer: string;
  description: string;
  disputed: false;
  livemode: false;
  metadata: Metadata;
  outcome: { network_status: 'approved_by_network'; reason: null; risk_level: 'normal'; seller_message: 'Payment complete.'; type: 'authorized' };
  paid: true;
  payment_intent: null;
  payment_method: string;
  payment_method_details: { type: 'card'; card: { brand: string; exp_month: number; exp_year: number; funding: string; last4: string; network: string } };
  receipt_email: string | null;
  /** Set when the receipt is mailed, as Stripe numbers a receipt it sends. */
  receipt_number: string | null;
  receipt_url: string;
  refunded: false;
  status: 'succeeded';
}

/** A receipt mail: what the `mailReceipt` option is handed to send. */
export interface ReceiptMail {
  to: string;
  subject: string;
  text: string;
  /** The charge it is for. */
  charge: string;
}
