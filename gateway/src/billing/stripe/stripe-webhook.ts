import type Stripe from 'stripe';
import { WebhookEventError, WebhookSignatureError } from '../billing-provider';
import type { ProviderEvent } from '../billing-provider';

/** Stripe's own tolerance (s) between a signature's date and this server's clock, both ways. */
export const WEBHOOK_TOLERANCE_S = 300;
// What Stripe's ids are made of; also keeps the claim's store key plain.
const EVENT_ID = /^[\x21-\x7e]{1,255}$/;

/** The id of an expandable field: its string, or its object's id. */
export const idOf = (value: string | { id: string } | null | undefined): string | undefined => (value === null || value === undefined ? undefined : typeof value === 'string' ? value : value.id);

// The shape of Stripe's object ids (sub_…, cs_…, cus_…): anything else in a signed event names nothing to read.
const OBJECT_ID = /^[A-Za-z0-9_]{1,255}$/;
/** An id the event names, if it is one: a string of Stripe's shape, or an object holding one. */
const namedId = (value: unknown): string | undefined => {
  const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : value;
  return typeof id === 'string' && OBJECT_ID.test(id) ? id : undefined;
};

/** The signature's date (s) as the SDK reads it: the last `t=` of the header. */
function signedAt(header: string): number {
  return header.split(',').reduce((at, item) => (item.split('=')[0] === 't' ? parseInt(item.split('=')[1] ?? '', 10) : at), -1);
}

/** What a signed body must be for billing to read it: an object with a string id and type, and an object in `data.object`. */
function checkedEvent(value: unknown): Stripe.Event {
  const event = value as { id?: unknown; type?: unknown; data?: { object?: unknown } | null } | null;
  const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);
  if (typeof event !== 'object' || event === null || Array.isArray(event)) throw new WebhookEventError(`the event must be a JSON object; got ${kind(event)}`);
  if (typeof event.id !== 'string' || !EVENT_ID.test(event.id)) {
    throw new WebhookEventError(`the event's id must be a string of 1 to 255 printable characters, such as evt_1Q2w3E; got ${typeof event.id === 'string' ? `'${event.id.slice(0, 40)}'` : kind(event.id)}`);
  }
  if (typeof event.type !== 'string' || event.type === '') throw new WebhookEventError(`the event ${event.id} must have a type, such as customer.subscription.updated; got ${kind(event.type)}`);
  const object = typeof event.data === 'object' && event.data !== null ? event.data.object : undefined;
  if (typeof object !== 'object' || object === null || Array.isArray(object)) throw new WebhookEventError(`the event ${event.id} must carry an object in data.object; got ${kind(object)}`);
  return event as Stripe.Event;
}

/** What a verified event names: the subscription, session and customer it is about. */
function eventOf(event: Stripe.Event): ProviderEvent {
  const object = event.data.object as unknown as Record<string, unknown>;
  const named: ProviderEvent = { id: event.id, type: event.type };
  const [customerId, objectId] = [namedId(object.customer), namedId(object.id)];
  if (customerId) named.customerId = customerId;
  if (event.type.startsWith('customer.subscription.') && objectId) named.subscriptionId = objectId;
  if (event.type.startsWith('checkout.session.') && objectId) named.checkoutSessionId = objectId;
  if (event.type.startsWith('invoice.')) {
    const parent = (object as { parent?: { subscription_details?: { subscription?: unknown } | null } | null }).parent;
    const subscriptionId = namedId(parent?.subscription_details?.subscription);
    if (subscriptionId) named.subscriptionId = subscriptionId;
  }
  return named;
}

/**
 * Verifies a webhook with the SDK (`constructEvent` over the raw bytes, the signature no older than
 * the tolerance at `nowMs`), refuses one dated more than the tolerance ahead (the SDK lets any
 * future date through), and reads what it names. Throws {@link WebhookSignatureError} for the
 * signature and its date, {@link WebhookEventError} for a signed body billing cannot read.
 */
export function verifyWebhook(stripe: Stripe, secret: string, rawBody: Buffer, signature: string, nowMs: number): ProviderEvent {
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(rawBody, signature, secret, WEBHOOK_TOLERANCE_S, undefined, nowMs);
  } catch (err) {
    throw new WebhookSignatureError(`the Stripe-Signature does not check out: ${(err as Error).message}`);
  }
  const ahead = signedAt(signature) - Math.floor(nowMs / 1000);
  if (ahead > WEBHOOK_TOLERANCE_S) throw new WebhookSignatureError(`the Stripe-Signature is dated ${ahead} s ahead of this server's clock, past the ${WEBHOOK_TOLERANCE_S} s tolerance (check the clock's time sync if Stripe's own events are refused)`);
  return eventOf(checkedEvent(event));
}
