import express, { Router } from 'express';
import { AppError, sendOk } from '@tollgate/envelope/core';
import { ProviderUnavailableError, WebhookEventError, WebhookSignatureError } from './billing-provider';
import type { BillingProvider } from './billing-provider';
import type { EventOutcome } from './webhook-intake';

/** Stripe sends events of up to a few kB; this is far above any of them. */
const MAX_BODY = '256kb';

/**
 * `POST /billing/webhook`: the raw body (the signature covers its bytes), verified with the SDK
 * (`constructEvent`, Stripe's five-minute tolerance, applied to dates ahead too): a missing or bad
 * signature, a timestamp stale or ahead, or a signed body that is no event (no string id, type or
 * object) is 400 and changes nothing; a verified event is handled once and acknowledged, also when
 * it is of a type billing ignores. A handling failure is a 5xx, so Stripe sends it again.
 */
export function createWebhookRoute(deps: { provider?: BillingProvider; intake?: (event: ReturnType<BillingProvider['parseWebhook']>) => Promise<EventOutcome> }): Router {
  const router = Router();
  router.post('/billing/webhook', express.raw({ type: () => true, limit: MAX_BODY }), async (req, res) => {
    const { provider, intake } = deps;
    if (!provider || !intake) throw new AppError('NOT_FOUND', 'card payments are off on this gateway (no STRIPE_SECRET_KEY): it takes no billing webhooks');
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const signature = req.headers['stripe-signature'];
    let event;
    try {
      event = provider.parseWebhook(body, typeof signature === 'string' ? signature : undefined);
    } catch (err) {
      if (err instanceof WebhookSignatureError) throw new AppError('BAD_REQUEST', err.message, { details: { reason: 'signature' } });
      if (err instanceof WebhookEventError) throw new AppError('BAD_REQUEST', err.message, { details: { reason: 'event' } });
      throw err;
    }
    try {
      sendOk(res, { id: event.id, type: event.type, outcome: await intake(event) }, 'Event received');
    } catch (err) {
      // Not handled, and not claimed: Stripe sends it again.
      if (err instanceof ProviderUnavailableError) throw new AppError('UPSTREAM_UNAVAILABLE', `the event could not be handled because Stripe could not be reached to read its subscription; send it again later`, { cause: err, headers: { 'Retry-After': '30' } });
      throw err;
    }
  });
  return router;
}
