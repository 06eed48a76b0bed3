import { createQueryParser, sendOk } from '@tollgate/envelope';
import type { RouteDoc } from '@tollgate/envelope';
import type { RequestHandler } from 'express';
import { entryFor, toPriceRecord } from '../domain/price-record';
import { outcomeFields, sortTokens } from '../domain/sort-tokens';
import { upstreamKeysOf } from '../domain/token-id';
import { assertNotFuture, resolveTokens } from './resolve-tokens';
import type { RouteDeps } from './route-deps';
import { UPSTREAM_ERRORS } from './route-deps';
import { MIN_CONFIDENCE_PARAM, OUTCOME_FIELDS, PRICE_RECORD_SCHEMA, SCHEMA, TOKENS_PARAM, UNIX_SECONDS_PARAM } from './schemas';
import { HISTORICAL_EXAMPLE } from './route-examples';

/** `GET /v1/historical`: prices at a past moment. */
export const historicalRoute: RouteDoc = {
  method: 'get',
  path: '/v1/historical',
  summary: 'USD price of one or many tokens at a Unix time',
  description: "Each record is the indexer's nearest one within 6 hours of the requested time; its own time is in timestamp.",
  query: {
    type: 'object',
    required: ['tokens', 'timestamp'],
    additionalProperties: false,
    properties: {
      tokens: TOKENS_PARAM,
      timestamp: { ...UNIX_SECONDS_PARAM, description: 'Unix seconds, not in the future', example: 1735689600 },
      min_confidence: MIN_CONFIDENCE_PARAM,
    },
  },
  example: HISTORICAL_EXAMPLE,
  data: {
    type: 'object',
    additionalProperties: false,
    required: ['requested_timestamp', 'count', 'prices', 'not_found', 'below_confidence'],
    properties: {
      requested_timestamp: { ...SCHEMA.int, description: 'The timestamp asked for' },
      ...OUTCOME_FIELDS,
      prices: {
        type: 'array',
        items: {
          ...PRICE_RECORD_SCHEMA,
          required: [...(PRICE_RECORD_SCHEMA.required as string[]), 'requested_timestamp'],
          properties: { ...PRICE_RECORD_SCHEMA.properties, requested_timestamp: { ...SCHEMA.int, description: 'The timestamp asked for, beside the record time' } },
        },
      },
    },
  },
  message: 'Historical prices retrieved successfully',
  errors: [...UPSTREAM_ERRORS],
};

interface HistoricalQuery {
  tokens: string;
  timestamp: number;
  min_confidence?: number;
}

/** Handler of {@link historicalRoute}. */
export function createHistoricalHandler(deps: RouteDeps): RequestHandler {
  const parse = createQueryParser<HistoricalQuery>(historicalRoute.query!);
  return async (req, res) => {
    const query = parse(req.query);
    assertNotFuture('timestamp', query.timestamp, deps.clock());
    const tokens = await resolveTokens(req, query.tokens, deps.chainList);
    const coins = await deps.indexer.historical(query.timestamp, upstreamKeysOf(tokens));
    const sorted = sortTokens(
      tokens,
      (token) => {
        const entry = entryFor(coins, token);
        const record = entry && { ...toPriceRecord(token, entry), requested_timestamp: query.timestamp };
        return entry && record && { record, confidence: entry.confidence ?? null };
      },
      query.min_confidence,
    );
    sendOk(
      res,
      { requested_timestamp: query.timestamp, ...outcomeFields(sorted), prices: sorted.found },
      historicalRoute.message,
    );
  };
}
