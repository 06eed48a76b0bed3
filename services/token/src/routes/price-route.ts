import { createQueryParser, sendOk } from '@tollgate/envelope';
import type { RouteDoc } from '@tollgate/envelope';
import type { RequestHandler } from 'express';
import { entryFor, toPriceRecord } from '../domain/price-record';
import { outcomeFields, sortTokens } from '../domain/sort-tokens';
import { upstreamKeysOf } from '../domain/token-id';
import { resolveTokens } from './resolve-tokens';
import type { RouteDeps } from './route-deps';
import { UPSTREAM_ERRORS } from './route-deps';
import { MIN_CONFIDENCE_PARAM, OUTCOME_FIELDS, PRICE_RECORD_SCHEMA, TOKENS_PARAM } from './schemas';
import { PRICE_EXAMPLE } from './route-examples';

/** `GET /v1/price`: current prices, batched. */
export const priceRoute: RouteDoc = {
  method: 'get',
  path: '/v1/price',
  summary: 'Current USD price of one or many tokens',
  description: 'Batch size by your plan: free 3, starter 12, pro 60, scale 250.',
  query: {
    type: 'object',
    required: ['tokens'],
    additionalProperties: false,
    properties: { tokens: TOKENS_PARAM, min_confidence: MIN_CONFIDENCE_PARAM },
  },
  example: PRICE_EXAMPLE,
  data: {
    type: 'object',
    additionalProperties: false,
    required: ['count', 'prices', 'not_found', 'below_confidence'],
    properties: { ...OUTCOME_FIELDS, prices: { type: 'array', items: PRICE_RECORD_SCHEMA } },
  },
  message: 'Prices retrieved successfully',
  errors: [...UPSTREAM_ERRORS],
};

interface PriceQuery {
  tokens: string;
  min_confidence?: number;
}

/** Handler of {@link priceRoute}. */
export function createPriceHandler(deps: RouteDeps): RequestHandler {
  const parse = createQueryParser<PriceQuery>(priceRoute.query!);
  return async (req, res) => {
    const query = parse(req.query);
    const tokens = await resolveTokens(req, query.tokens, deps.chainList);
    const coins = await deps.indexer.current(upstreamKeysOf(tokens));
    const sorted = sortTokens(
      tokens,
      (token) => {
        const entry = entryFor(coins, token);
        return entry && { record: toPriceRecord(token, entry), confidence: entry.confidence ?? null };
      },
      query.min_confidence,
    );
    sendOk(res, { ...outcomeFields(sorted), prices: sorted.found }, priceRoute.message);
  };
}
