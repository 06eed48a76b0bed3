import type { QuerySchema } from '@tollgate/envelope/core';
import { closed } from '../http/schemas';
import { EVENT_TYPES, MAX_THRESHOLDS } from '../domain/event-types';

const time = { type: 'string', format: 'date-time' };
const maybeTime = { type: ['string', 'null'], format: 'date-time' };
const eventType = { type: 'string', enum: [...EVENT_TYPES] };
const thresholds = { type: 'array', minItems: 1, maxItems: MAX_THRESHOLDS, uniqueItems: true, items: { type: 'integer', minimum: 1, maximum: 100 }, description: 'percent of the monthly quota' };
const mailChoices = { type: 'object', additionalProperties: false, properties: Object.fromEntries(EVENT_TYPES.map((t) => [t, { type: 'boolean' }])) };

/** The account's event settings: which events are mailed, the quota thresholds per API. */
export const EVENT_SETTINGS_SCHEMA = closed({
  types: { type: 'array', items: eventType, description: 'every event type there is' },
  mail: { ...mailChoices, required: [...EVENT_TYPES], description: 'whether each event type is mailed to the account’s address' },
  always_mailed: { type: 'array', items: eventType, description: 'mailed by billing whatever is chosen (a failed payment, one received after it): true in mail, and false is refused' },
  thresholds: { type: 'object', additionalProperties: thresholds, description: 'per API, the percent of the monthly quota at which quota.threshold_reached is sent (80 and 100 unless set)' },
  custom_thresholds: { type: 'array', items: { type: 'string' }, description: 'APIs whose thresholds the account set itself' },
});

export const EVENT_SETTINGS_BODY: QuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    mail: { ...mailChoices, description: 'event types to mail (true) or not (false); types not named keep their setting; false for one of always_mailed is 400' },
    thresholds: { type: 'object', additionalProperties: { anyOf: [thresholds, { type: 'null' }] }, description: 'per API, its thresholds, or null for the defaults (80, 100)' },
  },
};

/** An endpoint as its owner sees it (never its secret, which is shown once). */
export const ENDPOINT_SCHEMA = closed({
  id: { type: 'string' },
  url: { type: 'string' },
  description: { type: 'string' },
  types: { type: 'array', items: eventType },
  enabled: { type: 'boolean' },
  disabled_reason: { type: ['string', 'null'], description: 'why the gateway disabled it (failing for 3 days, or 410 Gone)' },
  created_at: time,
  failing_since: { ...maybeTime, description: 'since when every attempt failed; null after a success' },
  previous_secret_until: { ...maybeTime, description: 'during a rotation, until when the previous secret also signs' },
});

export const ENDPOINT_WITH_SECRET_SCHEMA = closed({ ...(ENDPOINT_SCHEMA.properties as Record<string, unknown>), secret: { type: 'string', description: 'the signing secret (whsec_…); shown once' } });

const url = { type: 'string', minLength: 8, maxLength: 2000, description: 'an https:// URL' };
const types = { type: 'array', minItems: 1, maxItems: EVENT_TYPES.length, uniqueItems: true, items: eventType };
const description = { type: 'string', maxLength: 200 };

export const CREATE_ENDPOINT_BODY: QuerySchema = { type: 'object', additionalProperties: false, required: ['url', 'types'], properties: { url, types, description } };
export const UPDATE_ENDPOINT_BODY: QuerySchema = { type: 'object', additionalProperties: false, properties: { url, types, description, enabled: { type: 'boolean', description: 'false stops deliveries; true starts them again (and clears a disable)' } } };
export const ROTATE_BODY: QuerySchema = { type: 'object', additionalProperties: false, properties: { overlap_hours: { type: 'integer', minimum: 0, maximum: 168, description: 'how long the previous secret keeps signing beside the new one (24 unless set)' } } };

/** One delivery and how its attempts went. */
export const DELIVERY_SCHEMA = closed({
  id: { type: 'string' },
  endpoint_id: { type: 'string' },
  message_id: { type: 'string', description: 'webhook-id: the same on every attempt and redelivery' },
  type: { type: 'string' },
  created_at: time,
  state: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
  attempts: { type: 'integer' },
  next_attempt_at: maybeTime,
  last_attempt_at: maybeTime,
  last_status: { type: ['integer', 'null'], description: 'the endpoint’s HTTP status; null when it gave none' },
  last_error: { type: ['string', 'null'] },
  last_latency_ms: { type: ['integer', 'null'] },
  payload: { type: 'string', description: 'the body as signed' },
});
