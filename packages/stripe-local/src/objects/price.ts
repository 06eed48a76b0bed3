import type { Metadata } from '../core/read-metadata';

/** How often a recurring price bills. */
export type Interval = 'day' | 'week' | 'month' | 'year';

/** A price's `recurring` hash. */
export interface Recurring {
  interval: Interval;
  interval_count: number;
  meter: null;
  trial_period_days: null;
  usage_type: 'licensed';
}

/** A Stripe Price (per-unit pricing only). */
export interface Price {
  id: string;
  object: 'price';
  active: boolean;
  billing_scheme: 'per_unit';
  created: number;
  currency: string;
  custom_unit_amount: null;
  livemode: false;
  lookup_key: string | null;
  metadata: Metadata;
  nickname: string | null;
  product: string;
  recurring: Recurring | null;
  tax_behavior: 'exclusive' | 'inclusive' | 'unspecified';
  tiers_mode: null;
  transform_quantity: null;
  type: 'one_time' | 'recurring';
  unit_amount: number;
  unit_amount_decimal: string;
}

/** The legacy Plan Stripe still renders beside `price` on subscription items. */
export function planOf(price: Price): Record<string, unknown> {
  return {
    id: price.id,
    object: 'plan',
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: price.billing_scheme,
    created: price.created,
    currency: price.currency,
    interval: price.recurring?.interval ?? null,
    interval_count: price.recurring?.interval_count ?? null,
    livemode: false,
    meter: null,
    metadata: price.metadata,
    nickname: price.nickname,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: 'licensed',
  };
}
