/** Who caused an event: an API request (with its idempotency key), or nobody (a clock, a page). */
export interface EventRequest {
  id: string | null;
  idempotency_key: string | null;
}

/** A Stripe Event. */
export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: EventRequest;
  type: string;
}
