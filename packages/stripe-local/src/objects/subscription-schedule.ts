import type { Metadata } from '../core/read-metadata';

/** A price in a schedule's phase. */
export interface PhaseItem {
  billing_thresholds: null;
  discounts: [];
  metadata: Metadata;
  plan: string;
  price: string;
  quantity: number;
  tax_rates: [];
}

/** One phase of a schedule: the prices billed from `start_date` to `end_date`. */
export interface SchedulePhase {
  add_invoice_items: [];
  application_fee_percent: null;
  billing_cycle_anchor: null;
  collection_method: null;
  currency: string;
  default_payment_method: null;
  default_tax_rates: [];
  description: null;
  discounts: [];
  end_date: number;
  invoice_settings: null;
  items: PhaseItem[];
  metadata: Metadata;
  on_behalf_of: null;
  proration_behavior: 'create_prorations' | 'none' | 'always_invoice';
  start_date: number;
  transfer_data: null;
  trial_end: null;
}

/** A Subscription Schedule made from an existing subscription. */
export interface SubscriptionSchedule {
  id: string;
  object: 'subscription_schedule';
  application: null;
  canceled_at: number | null;
  completed_at: number | null;
  created: number;
  current_phase: { end_date: number; start_date: number } | null;
  customer: string;
  end_behavior: 'release' | 'cancel';
  livemode: false;
  metadata: Metadata;
  phases: SchedulePhase[];
  released_at: number | null;
  released_subscription: string | null;
  status: 'not_started' | 'active' | 'completed' | 'released' | 'canceled';
  subscription: string | null;
  test_clock: string | null;
}
