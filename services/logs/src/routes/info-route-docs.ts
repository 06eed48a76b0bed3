import type { RouteDoc } from '@tollgate/envelope';
import { hexString, integer, LOGS_ROUTE, TRANSFERS_ROUTE } from './page-route-docs.js';
import { CHAINS_EXAMPLE, META_EXAMPLE } from './route-examples.js';

/** `GET /v1/chains`. */
export const CHAINS_ROUTE: RouteDoc = {
  method: 'get',
  path: '/v1/chains',
  summary: 'Chains served, and whether the caller’s plan includes each',
  description: 'On the playground (a key without a logs plan, a few calls a day) `plan` is null and `access` is `playground`: the chains included are the cheapest plan’s.',
  query: { type: 'object', properties: {} },
  example: CHAINS_EXAMPLE,
  data: {
    type: 'object',
    required: ['plan', 'access', 'chains'],
    additionalProperties: false,
    properties: {
      plan: { type: ['string', 'null'], description: 'Your logs plan; null on the playground' },
      access: { type: 'string', enum: ['plan', 'playground'], description: 'How the call was admitted: on your plan, or on the playground' },
      chains: {
        type: 'array',
        items: {
          type: 'object',
          required: ['slug', 'id', 'name', 'included', 'plan_required'],
          additionalProperties: false,
          properties: {
            slug: { type: 'string' },
            id: { type: 'integer' },
            name: { type: 'string' },
            included: { type: 'boolean' },
            plan_required: { type: 'string' },
          },
        },
      },
    },
  },
  message: 'Chains retrieved successfully',
  errors: ['BAD_REQUEST'],
};

/** `GET /v1/meta`. */
export const META_ROUTE: RouteDoc = {
  method: 'get',
  path: '/v1/meta',
  summary: 'Limits, plan features and known events',
  query: { type: 'object', properties: {} },
  example: META_EXAMPLE,
  data: {
    type: 'object',
    required: ['service', 'max_block_range', 'default_limit', 'max_limit', 'cache_ttl_ms', 'plans', 'events'],
    additionalProperties: false,
    properties: {
      service: { const: 'logs' },
      max_block_range: integer,
      default_limit: integer,
      max_limit: integer,
      cache_ttl_ms: integer,
      plans: {
        type: 'array',
        items: {
          type: 'object',
          required: ['plan', 'topic_filtering', 'chains'],
          additionalProperties: false,
          properties: { plan: { type: 'string' }, topic_filtering: { type: 'boolean' }, chains: { type: 'array', items: { type: 'string' } } },
        },
      },
      events: {
        type: 'array',
        items: {
          type: 'object',
          required: ['name', 'standard', 'declaration', 'signature', 'topic0'],
          additionalProperties: false,
          properties: {
            name: { type: 'string' },
            standard: { type: 'string' },
            declaration: { type: 'string' },
            signature: { type: 'string' },
            topic0: hexString,
          },
        },
      },
    },
  },
  message: 'Metadata retrieved successfully',
  errors: ['BAD_REQUEST'],
};

/** Every documented route, in the order the OpenAPI document lists them. */
export const ROUTES: readonly RouteDoc[] = [LOGS_ROUTE, TRANSFERS_ROUTE, CHAINS_ROUTE, META_ROUTE];
