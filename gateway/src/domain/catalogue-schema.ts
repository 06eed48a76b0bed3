import { MAX_RATE_PER_SECOND, NAME } from './plans-file';

/**
 * Names an API may not take: the gateway's own paths (an API is served under `/{name}/`, before
 * every other route).
 */
export const RESERVED_API_NAMES = ['admin', 'billing', 'console', 'dashboard', 'docs', 'healthz', 'metrics', 'portal', 'readyz'] as const;

const text = (maxLength: number, description: string) => ({ type: 'string', minLength: 1, maxLength, description });
const path = (fallback: string, description: string) => ({ type: 'string', pattern: '^(/[^\\s?#]*|https?://[^\\s]+)$', default: fallback, description });

const PLAN = {
  type: 'object',
  additionalProperties: false,
  required: ['monthly_quota', 'rate_per_second', 'price', 'currency'],
  properties: {
    monthly_quota: { type: 'integer', minimum: 1, description: 'Calls a UTC calendar month, shared by every key of an account' },
    rate_per_second: { type: 'integer', minimum: 1, maximum: MAX_RATE_PER_SECOND, description: 'Calls in any rolling second' },
    price: { type: 'integer', minimum: 0, description: 'A month, in the smallest unit of the currency (cents); 0 is a free plan' },
    currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217, upper case (USD, EUR)' },
    features: { type: 'array', maxItems: 20, items: { type: 'string', minLength: 1, maxLength: 120, pattern: '^[^\\n]*$' }, default: [], description: 'Lines the pricing table shows for the plan' },
    offered: { type: 'boolean', default: true, description: 'false: kept for the accounts that hold it until they change, not shown or taken anew' },
  },
};

const PROXY = {
  type: 'object',
  additionalProperties: false,
  properties: {
    timeout_ms: { type: 'integer', minimum: 100, maximum: 300000, description: 'Idle time without a byte from the service, or waiting for a connection, before 504 (default UPSTREAM_TIMEOUT_MS)' },
    max_connections: { type: 'integer', minimum: 1, maximum: 10000, description: 'Connections kept to the service at most (default UPSTREAM_MAX_SOCKETS)' },
    forward_headers: { type: 'array', uniqueItems: true, items: { type: 'string', enum: ['authorization'] }, default: [], description: 'Client headers withheld by default that this service receives' },
    forward_set_cookie: { type: 'boolean', default: false, description: 'Whether the service’s Set-Cookie reaches the client (never one of the gateway’s cookies)' },
  },
};

const API = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'summary', 'upstream', 'plans'],
  properties: {
    title: { ...text(60, 'The name people read (“Weather”)'), pattern: '^[^\\n]*$' },
    summary: { ...text(400, 'One line: what it answers'), pattern: '^[^\\n]*$' },
    description: { type: 'string', maxLength: 20000, default: '', description: 'Markdown, shown on its reference page (raw HTML is shown as text)' },
    upstream: { type: 'string', pattern: '^https?://[^\\s?#]+$', description: 'The service’s base URL; /{name}/v1/x is sent to {upstream}/v1/x' },
    openapi: path('/v1/openapi.json', 'Its OpenAPI document: a path on the service, or a URL'),
    health: path('/readyz', 'Its readiness check, for the console: a path on the service, or a URL'),
    listed: { type: 'boolean', default: true, description: 'false: served and reachable by its address, not listed in the portal’s catalogue' },
    playground_per_day: { type: 'integer', minimum: 0, maximum: 100000, default: 0, description: 'Test calls a UTC day an account may make without a plan' },
    plans: { type: 'object', minProperties: 1, propertyNames: { pattern: NAME }, additionalProperties: PLAN },
    proxy: PROXY,
  },
};

/**
 * The catalogue file's JSON Schema, published as gateway/catalogue/catalogue.schema.json (a test
 * keeps the two the same; `tollgate catalogue schema` prints it).
 */
export const CATALOGUE_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Tollgate catalogue',
  description: 'Every API the gateway sells: its texts, its service, its plans and how it is proxied (gateway/docs/catalogue.md).',
  type: 'object',
  additionalProperties: false,
  required: ['apis'],
  properties: {
    $schema: { type: 'string' },
    apis: {
      type: 'object',
      minProperties: 1,
      propertyNames: { pattern: NAME, not: { enum: [...RESERVED_API_NAMES] } },
      additionalProperties: API,
      description: 'By name: the path prefix each is served under, in the order the portal lists them',
    },
  },
} as const;
