import Stripe from 'stripe';
import { WebhookEventError, WebhookSignatureError } from '../billing-provider';
import { WEBHOOK_TOLERANCE_S, verifyWebhook } from './stripe-webhook';

const SECRET = 'whsec_stripe_webhook_unit_secret';
const NOW_S = 1_790_000_000;
const stripe = new Stripe('sk_test_unit');
const event = { id: 'evt_1', object: 'event', type: 'customer.subscription.updated', data: { object: { id: 'sub_1', customer: 'cus_1' } } };

/** The body signed at `at` (s) with the real SDK, then verified at {@link NOW_S}. */
const verifiedAt = (at: number, body: unknown = event) => {
  const payload = JSON.stringify(body);
  return verifyWebhook(stripe, SECRET, Buffer.from(payload), stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET, timestamp: at }), NOW_S * 1000);
};

describe('verifying a Stripe webhook', () => {
  it('when the signature is dated up to the tolerance either side of the clock, then the event is read; one second more either way, it is refused', () => {
    for (const at of [NOW_S, NOW_S - WEBHOOK_TOLERANCE_S, NOW_S + WEBHOOK_TOLERANCE_S]) expect(verifiedAt(at)).toEqual({ id: 'evt_1', type: 'customer.subscription.updated', subscriptionId: 'sub_1', customerId: 'cus_1' });
    expect(() => verifiedAt(NOW_S - WEBHOOK_TOLERANCE_S - 1)).toThrow(WebhookSignatureError);
    expect(() => verifiedAt(NOW_S + WEBHOOK_TOLERANCE_S + 1)).toThrow(new WebhookSignatureError(`the Stripe-Signature is dated 301 s ahead of this server's clock, past the 300 s tolerance (check the clock's time sync if Stripe's own events are refused)`));
  });

  it('when a header names two dates, then the one the SDK checked the signature with (the last) is the one judged', () => {
    const payload = JSON.stringify(event);
    const signed = stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET, timestamp: NOW_S + 3600 });
    expect(() => verifyWebhook(stripe, SECRET, Buffer.from(payload), `t=${NOW_S},${signed}`, NOW_S * 1000)).toThrow(/dated 3600 s ahead/);
  });

  it('when the object names ids that are not Stripe ids, then the event names nothing to read', () => {
    for (const id of [5, { id: 7 }, '../customers/cus_1', 'sub 1', '']) {
      expect(verifiedAt(NOW_S, { ...event, data: { object: { id, customer: id } } })).toEqual({ id: 'evt_1', type: 'customer.subscription.updated' });
    }
    expect(verifiedAt(NOW_S, { ...event, type: 'invoice.paid', data: { object: { parent: { subscription_details: { subscription: { id: 'sub_9' } } } } } })).toEqual({ id: 'evt_1', type: 'invoice.paid', subscriptionId: 'sub_9' });
  });

  it.each([
    [{ ...event, id: undefined }, /id must be a string/],
    [{ ...event, id: 7 }, /id must be a string .*; got number$/],
    [{ ...event, type: '' }, /must have a type/],
    [{ ...event, data: { object: [] } }, /must carry an object in data\.object; got an array$/],
    [null, /must be a JSON object; got null$/],
  ])('when the signed body is %j, then it is refused as no event', (body, message) => {
    expect(() => verifiedAt(NOW_S, body)).toThrow(WebhookEventError);
    expect(() => verifiedAt(NOW_S, body)).toThrow(message);
  });
});
