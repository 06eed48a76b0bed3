import type { SchemaObject } from 'ajv';

/** Query parameter `tokens`, shared by every price route. */
export const TOKENS_PARAM: SchemaObject = {
  type: 'string',
  minLength: 1,
  description: 'a comma-separated list of <chain>:<address> or coingecko:<slug> (GET /v1/meta lists the chains)',
  example: 'ethereum:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48,coingecko:ethereum',
};

/** Query parameter `min_confidence`. */
export const MIN_CONFIDENCE_PARAM: SchemaObject = {
  type: 'number',
  minimum: 0,
  description: 'a number of at least 0; tokens whose confidence is lower or unknown are listed in below_confidence',
  example: 0.5,
};

/** A Unix time in seconds; the upper bound catches milliseconds, the clock catches the future. */
export const UNIX_SECONDS_PARAM: SchemaObject = { type: 'integer', minimum: 0, maximum: 9_999_999_999 };

const str = { type: 'string' };
const int = { type: 'integer' };
const num = { type: 'number' };
const nullableNum = { type: ['number', 'null'] };
const strings = { type: 'array', items: str };

/** Fields every per-token answer starts with. */
export const TOKEN_FIELDS: Record<string, SchemaObject> = {
  token: { ...str, description: 'The id exactly as the caller wrote it' },
  chain: { ...str, description: 'Chain name (lower case) or coingecko' },
  address: { ...str, description: 'Address, mint or slug as sent to the indexer (EVM addresses lower-cased)' },
  symbol: { ...str, description: 'Token symbol' },
};

/** A current or historical price record. */
export const PRICE_RECORD_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['token', 'chain', 'address', 'symbol', 'price_usd', 'decimals', 'confidence', 'timestamp'],
  properties: {
    ...TOKEN_FIELDS,
    price_usd: { ...num, description: 'Price in US dollars' },
    decimals: { type: ['integer', 'null'], description: 'Token decimals; null when the indexer does not know them (CoinGecko ids)' },
    confidence: { ...nullableNum, description: "The indexer's confidence score, as given (usually 0 to 1; 1.01 marks a flagged token)" },
    timestamp: { ...int, description: 'Unix seconds of the price record' },
  },
};

/** Lists shared by every price answer. */
export const OUTCOME_FIELDS: Record<string, SchemaObject> = {
  count: { ...int, description: 'Number of tokens answered' },
  not_found: { ...strings, description: 'Requested tokens the indexer has no price for (unknown, unpriced or stale)' },
  below_confidence: { ...strings, description: 'Requested tokens left out by min_confidence' },
};

/** JSON Schema helpers for the route files. */
export const SCHEMA = { str, int, num, nullableNum, strings };
