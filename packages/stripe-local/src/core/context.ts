import type { Settings } from '../stripe-local-options';
import type { EventRequest } from '../objects/stripe-event';
import type { Json } from './present';
import type { Store } from './store';

/** When something happens (unix seconds) and which API request, if any, made it happen. */
export interface Moment {
  at: number;
  request: EventRequest;
}

/** What every piece of the billing engine works with. */
export interface Context {
  store: Store;
  settings: Settings;
  /** Wall-clock time, unix seconds. */
  now(): number;
  /** Where the hosted pages are served, without a trailing slash. */
  baseUrl(): string;
  /**
   * Records an event with a copy of `object`; with `before` (a copy taken before the change) it
   * carries `previous_attributes`, and nothing is recorded when nothing changed.
   */
  emit(type: string, object: object, moment: Moment, before?: Record<string, Json>): void;
  /** A copy of the object as the API shows it, to pass to `emit` as `before` after a change. */
  snapshot(object: object): Record<string, Json>;
}

/** The `request` of events nobody's API call caused (renewals, retries, hosted pages). */
export const AUTOMATIC: EventRequest = { id: null, idempotency_key: null };

/** "Now" for a customer: its test clock's frozen time, or the wall clock. */
export function nowFor(ctx: Context, customerId: string | null): number {
  const clockId = customerId ? ctx.store.customers.get(customerId)?.test_clock : null;
  const clock = clockId ? ctx.store.testClocks.get(clockId) : undefined;
  return clock ? clock.frozen_time : ctx.now();
}

/** A moment at the customer's "now". */
export function momentFor(ctx: Context, customerId: string | null, request: EventRequest = AUTOMATIC): Moment {
  return { at: nowFor(ctx, customerId), request };
}
