import type { RequestHandler } from 'express';
import { createQueryParser } from '@tollgate/envelope';
import type { QuerySchema, RouteDoc } from '@tollgate/envelope';
import type { DatasetStore } from '../data/dataset-store';
import { DEFAULT_ORDER, SORT_KEYS, SORT_ORDERS } from '../domain/sort-records';
import type { SortKey, SortOrder } from '../domain/sort-records';
import { indexView } from '../domain/views';
import { requireBase } from './require-base';
import { BASE_CURRENCY_SCHEMA, BASE_PARAMETER, COUNTRY_RECORD_SCHEMA, RELEASE_DATE_SCHEMA, SOURCE_SCHEMA } from './schemas';
import { sendSerialized } from './send-serialized';
import { INDEX_EXAMPLE } from './route-examples';

const query: QuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    base: BASE_PARAMETER,
    sort: { type: 'string', enum: [...SORT_KEYS], default: 'valuation', description: 'valuation (raw), name or price (dollar price)' },
    order: { type: 'string', enum: [...SORT_ORDERS], description: 'default: desc for valuation and price, asc for name' },
  },
};

/** GET /v1/index, described once for validation, contract tests and OpenAPI. */
export const INDEX_ROUTE: RouteDoc = {
  method: 'get',
  path: '/v1/index',
  summary: 'Latest release for every country',
  description: 'Every country of the latest release valued against the base, sorted (default: raw valuation, highest first).',
  query,
  example: INDEX_EXAMPLE,
  data: {
    type: 'object',
    additionalProperties: false,
    required: ['count', 'source', 'release_date', 'base_currency', 'countries'],
    properties: {
      count: { type: 'integer', minimum: 0, description: 'Number of countries' },
      source: SOURCE_SCHEMA,
      release_date: RELEASE_DATE_SCHEMA,
      base_currency: BASE_CURRENCY_SCHEMA,
      countries: { type: 'array', items: COUNTRY_RECORD_SCHEMA },
    },
  },
  message: 'Index retrieved successfully',
  errors: ['BAD_REQUEST', 'FORBIDDEN', 'UPSTREAM_UNAVAILABLE'],
};

const parse = createQueryParser<{ base: string; sort: SortKey; order?: SortOrder }>(query);

/** Serves the index from the copy's cache, keyed by base, sort and direction. */
export function createIndexHandler(store: DatasetStore, source: string): RequestHandler {
  return async (req, res) => {
    const { base, sort, order = DEFAULT_ORDER[sort] } = parse(req.query);
    const snapshot = await store.get();
    const code = base.toLowerCase();
    const json = snapshot.cached(`index ${code} ${sort} ${order}`, () => indexView(snapshot.dataset, requireBase(snapshot.dataset, code), sort, order, source));
    sendSerialized(res, json, INDEX_ROUTE.message);
  };
}
