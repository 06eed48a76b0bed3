import type { QuerySchema, RouteDoc } from '@tollgate/envelope';
import { CHAINS } from '../domain/chains.js';
import { LOGS_EXAMPLE, TRANSFERS_EXAMPLE } from './route-examples.js';

/** A JSON Schema object, as the route docs write them. */
export type SchemaObject = Record<string, unknown>;

const CHAIN_LIST = CHAINS.map((c) => c.slug).join(', ');
const BLOCK = 'a block number (decimal or 0x hex) or one of latest, safe, finalized';
const ADDRESSES = '0x-prefixed 20-byte hex addresses, comma-separated';
const TOPIC = '0x-prefixed 32-byte topics (or 20-byte addresses, left-padded), comma-separated = OR';

const str = (description: string, extra: SchemaObject = {}): SchemaObject => ({ type: 'string', description, ...extra });
/** A non-negative integer. */
export const integer: SchemaObject = { type: 'integer', minimum: 0 };
/** A 0x-prefixed hex string of any length. */
export const hexString: SchemaObject = { type: 'string', pattern: '^0x[0-9a-fA-F]*$' };

const pageParams: Record<string, SchemaObject> = {
  chain: str(`a chain slug or id: ${CHAIN_LIST}`, { example: 'ethereum' }),
  from_block: str(BLOCK, { default: 'latest' }),
  to_block: str(`${BLOCK}; clamped to the head`, { default: 'latest' }),
  limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100, description: 'logs per page' },
  cursor: str('the cursor returned by the previous page, unchanged'),
};

/** Query of `GET /v1/logs`. */
export const LOGS_QUERY: QuerySchema = {
  type: 'object',
  required: ['chain'],
  properties: {
    ...pageParams,
    address: str(ADDRESSES),
    event: str('a known event name (see /v1/meta) or a full signature such as Transfer(address indexed from,address indexed to,uint256 value)'),
    topic0: str(TOPIC),
    topic1: str(TOPIC),
    topic2: str(TOPIC),
    topic3: str(TOPIC),
  },
};

/** Query of `GET /v1/transfers`. */
export const TRANSFERS_QUERY: QuerySchema = {
  type: 'object',
  required: ['chain', 'token'],
  properties: {
    ...pageParams,
    token: str(`ERC-20 token ${ADDRESSES}`, { example: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' }),
    from: str(`senders: ${ADDRESSES}`),
    to: str(`recipients: ${ADDRESSES}`),
  },
};

const chainRef: SchemaObject = {
  type: 'object',
  required: ['slug', 'id', 'name'],
  additionalProperties: false,
  properties: { slug: { type: 'string' }, id: { type: 'integer' }, name: { type: 'string' } },
};

const decodedValue: SchemaObject = { anyOf: [{ type: 'string' }, { type: 'null' }, { type: 'array', items: {} }] };

const logRecord: SchemaObject = {
  type: 'object',
  required: ['block_number', 'block_hash', 'block_timestamp', 'transaction_hash', 'transaction_index', 'log_index', 'address', 'topics', 'data', 'decoded'],
  additionalProperties: false,
  properties: {
    block_number: integer,
    block_hash: hexString,
    block_timestamp: { type: ['integer', 'null'], description: 'Unix seconds, when the node gives it' },
    transaction_hash: hexString,
    transaction_index: integer,
    log_index: integer,
    address: hexString,
    topics: { type: 'array', items: hexString, maxItems: 4 },
    data: hexString,
    decoded: {
      anyOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['event', 'signature', 'args'],
          additionalProperties: false,
          properties: {
            event: { type: 'string' },
            signature: { type: 'string', example: 'Transfer(address,address,uint256)' },
            args: { type: 'object', additionalProperties: decodedValue, description: 'Values as strings (integers in decimal)' },
          },
        },
      ],
    },
  },
};

const transferRecord: SchemaObject = {
  type: 'object',
  required: ['token', 'from', 'to', 'value', 'block_number', 'block_hash', 'block_timestamp', 'transaction_hash', 'log_index'],
  additionalProperties: false,
  properties: {
    token: hexString,
    from: hexString,
    to: hexString,
    value: { type: 'string', pattern: '^[0-9]+$', description: 'Amount in the token’s base units, decimal' },
    block_number: integer,
    block_hash: hexString,
    block_timestamp: { type: ['integer', 'null'] },
    transaction_hash: hexString,
    log_index: integer,
  },
};

function page(itemsName: string, item: SchemaObject, extra: Record<string, SchemaObject> = {}): SchemaObject {
  return {
    type: 'object',
    required: ['chain', 'from_block', 'to_block', 'count', itemsName, 'cursor', ...Object.keys(extra)],
    additionalProperties: false,
    properties: {
      chain: chainRef,
      from_block: { ...integer, description: 'First block of this page (resolved)' },
      to_block: { ...integer, description: 'Last block of the query, clamped to the head (resolved)' },
      count: integer,
      [itemsName]: { type: 'array', items: item },
      cursor: { type: ['string', 'null'], description: 'Pass as cursor= for the next page; null when the range is exhausted' },
      ...extra,
    },
  };
}

/** `GET /v1/logs`. */
export const LOGS_ROUTE: RouteDoc = {
  method: 'get',
  path: '/v1/logs',
  summary: 'Event logs by address, topics or event, and block range, each decoded',
  query: LOGS_QUERY,
  example: LOGS_EXAMPLE,
  data: page('logs', logRecord),
  message: 'Logs retrieved successfully',
  errors: ['BAD_REQUEST', 'FORBIDDEN', 'UPSTREAM_UNAVAILABLE', 'UPSTREAM_TIMEOUT'],
};

/** `GET /v1/transfers`. */
export const TRANSFERS_ROUTE: RouteDoc = {
  method: 'get',
  path: '/v1/transfers',
  summary: 'ERC-20 Transfer events decoded into from, to and value',
  query: TRANSFERS_QUERY,
  example: TRANSFERS_EXAMPLE,
  data: page('transfers', transferRecord),
  message: 'Transfers retrieved successfully',
  errors: ['BAD_REQUEST', 'FORBIDDEN', 'UPSTREAM_UNAVAILABLE', 'UPSTREAM_TIMEOUT'],
};
