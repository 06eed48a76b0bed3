import type { Metadata } from '../core/read-metadata';
import type { Customer } from './customer';
import { embeddedList } from './list-object';
import type { ListObject } from './list-object';

/** The statuses stripe-local moves a subscription through (no trials, no pauses). */
export type SubscriptionStatus = 'incomplete' | 'incomplete_expired' | 'active' | 'past_due' | 'unpaid' | 'canceled';

/**
 * A subscription item as stored: `price` is the price's id, and the item is shown with the price
 * as it is now (and the legacy `plan`), as Stripe shows it.
 */
export interface SubscriptionItem {
  id: string;
  object: 'subscription_item';
  billing_thresholds: null;
  created: number;
  current_period_end: number;
  current_period_start: number;
  discounts: string[];
  metadata: Metadata;
  price: string;
  quantity: number;
  subscription: string;
  tax_rates: [];
}

/** A Stripe Subscription (API 2025-03-31 and later: the period lives on the items). */
export interface Subscription {
  id: string;
  object: 'subscription';
  application: null;
  application_fee_percent: null;
  automatic_tax: { disabled_reason: null; enabled: boolean; liability: { type: 'self' } | null };
  billing_cycle_anchor: number;
  billing_cycle_anchor_config: null;
  billing_mode: { type: 'classic' };
  billing_thresholds: null;
  cancel_at: number | null;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  cancellation_details: { comment: string | null; feedback: string | null; reason: 'cancellation_requested' | 'payment_failed' | null };
  collection_method: 'charge_automatically';
  created: number;
  currency: string;
  customer: string;
  days_until_due: null;
  default_payment_method: string | null;
  default_source: null;
  default_tax_rates: [];
  description: string | null;
  discounts: string[];
  ended_at: number | null;
  invoice_settings: { account_tax_ids: null; issuer: { type: 'self' } };
  items: ListObject<SubscriptionItem>;
  latest_invoice: string | null;
  livemode: false;
  metadata: Metadata;
  next_pending_invoice_item_invoice: null;
  on_behalf_of: null;
  pause_collection: null;
  payment_settings: { payment_method_options: null; payment_method_types: null; save_default_payment_method: 'off' | 'on_subscription' };
  pending_invoice_item_interval: null;
  pending_setup_intent: null;
  pending_update: null;
  schedule: string | null;
  start_date: number;
  status: SubscriptionStatus;
  test_clock: string | null;
  transfer_data: null;
  trial_end: null;
  trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' } };
  trial_start: null;
}

/** The period every item of the subscription shares. */
export function currentPeriod(subscription: Subscription): { start: number; end: number } {
  const item = subscription.items.data[0];
  return { start: item?.current_period_start ?? subscription.start_date, end: item?.current_period_end ?? subscription.start_date };
}

/** A new, `incomplete` subscription without items, with Stripe's defaults. */
export function newSubscription(id: string, created: number, customer: Customer, currency: string, anchor: number): Subscription {
  return {
    id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: anchor,
    billing_cycle_anchor_config: null,
    billing_mode: { type: 'classic' },
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, reason: null },
    collection_method: 'charge_automatically',
    created,
    currency,
    customer: customer.id,
    days_until_due: null,
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    ended_at: null,
    invoice_settings: { account_tax_ids: null, issuer: { type: 'self' } },
    items: embeddedList([], `/v1/subscription_items?subscription=${id}`),
    latest_invoice: null,
    livemode: false,
    metadata: {},
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: 'off' },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: created,
    status: 'incomplete',
    test_clock: customer.test_clock,
    transfer_data: null,
    trial_end: null,
    trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' } },
    trial_start: null,
  };
}
