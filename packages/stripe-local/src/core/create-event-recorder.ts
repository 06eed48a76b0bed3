import { API_VERSION } from '../api-version';
import type { StripeEvent } from '../objects/stripe-event';
import { wantsEvent } from '../objects/webhook-endpoint';
import type { Context } from './context';
import { createId } from './create-id';
import { present } from './present';
import { previousAttributes } from './previous-attributes';
import type { Store } from './store';

/** Records events in the store and hands each to `deliver` for the endpoints that want it. */
export function createEventRecorder(store: Store, deliver: (event: StripeEvent) => void): Context['emit'] {
  return (type, object, moment, before) => {
    const now = present(store, object);
    const previous = before ? previousAttributes(before, now) : undefined;
    if (before && !previous) return;
    const event: StripeEvent = {
      id: createId('evt_'),
      object: 'event',
      api_version: API_VERSION,
      created: moment.at,
      data: previous ? { object: now, previous_attributes: previous } : { object: now },
      livemode: false,
      pending_webhooks: store.webhookEndpoints.all().filter((endpoint) => wantsEvent(endpoint, type)).length,
      request: { ...moment.request },
      type,
    };
    store.events.add(event);
    deliver(event);
  };
}
