import type { SchemaObject } from 'ajv';
import type { ErrorCode } from './app-error';
import type { QuerySchema } from './validate-query';

/**
 * One route described once: its query schema validates input, its data schema documents and
 * checks output, and both feed the OpenAPI document.
 */
export interface RouteDoc {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  summary: string;
  description?: string;
  /** Query parameters; the same schema `createQueryParser` validates with. */
  query?: QuerySchema;
  /** JSON request body, for the few routes that take one. */
  body?: SchemaObject;
  /** JSON Schema of the success envelope's `data`. */
  data: SchemaObject;
  /**
   * A real answer's `data`, as the reference pages show it (a person reads `"USDC"` and `0.9998`,
   * not `"string"` and `0`); each service's tests check it against `data`.
   */
  example?: unknown;
  /** The success envelope's `message`. */
  message: string;
  /** Success status; 200 unless said. */
  successStatus?: number;
  /** Every error code this route can answer with. */
  errors: ErrorCode[];
}

/** JSON Schema of `meta`. */
export const META_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['timestamp', 'request_id'],
  additionalProperties: false,
  properties: {
    timestamp: { type: 'string', format: 'date-time', description: 'ISO 8601 UTC time of the answer' },
    request_id: { type: 'string', description: 'The request id, the same end to end (x-request-id)', example: '5f0c2d4e-8a1b-4c3d-9e2f-1a2b3c4d5e6f' },
  },
};

/** JSON Schema of a success envelope around `data`. */
export function okEnvelopeSchema(data: SchemaObject, message?: string): SchemaObject {
  return {
    type: 'object',
    required: ['data', 'meta', 'status', 'message', 'success'],
    additionalProperties: false,
    properties: {
      data,
      meta: META_SCHEMA,
      status: { const: 'ok' },
      message: message === undefined ? { type: 'string' } : { type: 'string', const: message },
      success: { const: true },
    },
  };
}

/** JSON Schema of the error envelope, optionally restricted to some codes. */
export function errorEnvelopeSchema(codes?: readonly ErrorCode[]): SchemaObject {
  return {
    type: 'object',
    required: ['data', 'meta', 'status', 'message', 'success', 'error'],
    additionalProperties: false,
    properties: {
      data: { type: 'null' },
      meta: META_SCHEMA,
      status: { const: 'error' },
      message: { type: 'string', description: 'What was wrong and what is allowed' },
      success: { const: false },
      error: {
        type: 'object',
        required: ['code'],
        additionalProperties: false,
        properties: {
          code: codes && codes.length > 0 ? { type: 'string', enum: [...codes] } : { type: 'string' },
          details: { description: 'Machine-readable facts about the error, e.g. the parameter at fault' },
        },
      },
    },
  };
}
