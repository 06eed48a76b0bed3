import type { SchemaObject } from 'ajv';
import { ACCOUNT_ID_PATTERN, KEY_ID_PATTERN } from '../domain/api-key';
import { USAGE_ITEM_SCHEMA } from '../domain/usage-report';

/** A JSON Schema object that allows only `properties`, all required but those named `optional`. */
export const closed = (properties: Record<string, unknown>, optional: string[] = []): SchemaObject => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties).filter((p) => !optional.includes(p)),
  properties,
});

/** JSON Schema of a stored subscription. */
export const SUBSCRIPTION_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['plan', 'status'],
  properties: {
    plan: { type: 'string' },
    status: { type: 'string', enum: ['active', 'inactive'] },
    comp: { const: true, description: 'Present when an operator granted the plan without payment (a comp)' },
  },
};

const recordProperties = {
  id: { type: 'string', pattern: KEY_ID_PATTERN },
  account_id: { type: 'string', pattern: ACCOUNT_ID_PATTERN, description: 'The account holding this key and its subscriptions' },
  owner: { type: 'string' },
  created_at: { type: 'string', format: 'date-time' },
  revoked_at: { type: ['string', 'null'], format: 'date-time' },
  subscriptions: { type: 'object', additionalProperties: SUBSCRIPTION_SCHEMA, description: 'Subscriptions by API name' },
};

/** JSON Schema of a key record (never the secret). */
export const KEY_RECORD_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: Object.keys(recordProperties),
  properties: recordProperties,
};

/** JSON Schema of a new key: the record plus the secret, shown this once. */
export const NEW_KEY_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: [...Object.keys(recordProperties), 'key'],
  properties: { ...recordProperties, key: { type: 'string', description: 'The secret API key; shown only in this answer' } },
};

/** JSON Schema of a usage answer. */
export const USAGE_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'apis'],
  properties: { id: { type: 'string', pattern: KEY_ID_PATTERN }, apis: { type: 'array', items: USAGE_ITEM_SCHEMA } },
};
