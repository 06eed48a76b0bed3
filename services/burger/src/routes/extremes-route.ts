import type { RequestHandler } from 'express';
import { createQueryParser } from '@tollgate/envelope';
import type { QuerySchema, RouteDoc } from '@tollgate/envelope';
import type { DatasetStore } from '../data/dataset-store';
import { extremesView } from '../domain/views';
import { requireBase } from './require-base';
import { BASE_CURRENCY_SCHEMA, BASE_PARAMETER, COUNTRY_RECORD_SCHEMA, RELEASE_DATE_SCHEMA, SOURCE_SCHEMA } from './schemas';
import { sendSerialized } from './send-serialized';
import { EXTREMES_EXAMPLE } from './route-examples';

/** The most entries per side `limit` allows (spec). */
export const MAX_LIMIT = 25;

const query: QuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    base: BASE_PARAMETER,
    limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: 5, description: 'entries per side' },
  },
};

const side = (description: string) => ({ type: 'array', maxItems: MAX_LIMIT, items: COUNTRY_RECORD_SCHEMA, description });

/** GET /v1/extremes. */
export const EXTREMES_ROUTE: RouteDoc = {
  method: 'get',
  path: '/v1/extremes',
  summary: 'Most over- and under-valued currencies of the latest release',
  query,
  example: EXTREMES_EXAMPLE,
  data: {
    type: 'object',
    additionalProperties: false,
    required: ['source', 'release_date', 'base_currency', 'most_overvalued', 'most_undervalued'],
    properties: {
      source: SOURCE_SCHEMA,
      release_date: RELEASE_DATE_SCHEMA,
      base_currency: BASE_CURRENCY_SCHEMA,
      most_overvalued: side('Highest raw valuation first'),
      most_undervalued: side('Lowest raw valuation first'),
    },
  },
  message: 'Extremes retrieved successfully',
  errors: ['BAD_REQUEST', 'FORBIDDEN', 'UPSTREAM_UNAVAILABLE'],
};

const parse = createQueryParser<{ base: string; limit: number }>(query);

/** Serves the extremes from the copy's cache, keyed by base and limit. */
export function createExtremesHandler(store: DatasetStore, source: string): RequestHandler {
  return async (req, res) => {
    const { base, limit } = parse(req.query);
    const snapshot = await store.get();
    const code = base.toLowerCase();
    const json = snapshot.cached(`extremes ${code} ${limit}`, () => extremesView(snapshot.dataset, requireBase(snapshot.dataset, code), limit, source));
    sendSerialized(res, json, EXTREMES_ROUTE.message);
  };
}
