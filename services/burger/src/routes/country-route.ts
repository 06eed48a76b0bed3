import type { RequestHandler } from 'express';
import { AppError, createQueryParser } from '@tollgate/envelope';
import type { QuerySchema, RouteDoc } from '@tollgate/envelope';
import type { DatasetStore } from '../data/dataset-store';
import { countryView } from '../domain/views';
import { assertKnownBase, requireBase } from './require-base';
import { BASE_CURRENCY_SCHEMA, BASE_PARAMETER, COUNTRY_RECORD_SCHEMA, HISTORY_ENTRY_SCHEMA, SOURCE_SCHEMA } from './schemas';
import { sendSerialized } from './send-serialized';
import { COUNTRY_EXAMPLE } from './route-examples';

const query: QuerySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['country'],
  properties: {
    country: {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      description: 'a country name, ISO3 code or currency code (any case, accents optional), e.g. Japan, JPN or JPY',
      example: 'Japan',
    },
    base: BASE_PARAMETER,
  },
};

/** GET /v1/country. */
export const COUNTRY_ROUTE: RouteDoc = {
  method: 'get',
  path: '/v1/country',
  summary: "One country's history",
  description: 'Every release since 2000 for one country, ascending, valued against the base; `latest` is its most recent release.',
  query,
  example: COUNTRY_EXAMPLE,
  data: {
    type: 'object',
    additionalProperties: false,
    required: ['iso3', 'country', 'currency', 'base_currency', 'latest', 'history', 'history_count', 'source'],
    properties: {
      iso3: { type: 'string', pattern: '^[A-Z]{3}$' },
      country: { type: 'string' },
      currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'Currency code of the latest release' },
      base_currency: BASE_CURRENCY_SCHEMA,
      latest: COUNTRY_RECORD_SCHEMA,
      history: { type: 'array', items: HISTORY_ENTRY_SCHEMA, description: 'Ascending by date' },
      history_count: { type: 'integer', minimum: 1, description: 'Length of history' },
      source: SOURCE_SCHEMA,
    },
  },
  message: 'Country retrieved successfully',
  errors: ['BAD_REQUEST', 'FORBIDDEN', 'NOT_FOUND', 'UPSTREAM_UNAVAILABLE'],
};

const parse = createQueryParser<{ country: string; base: string }>(query);

/** Resolves the country (404 with suggestions when unknown) and serves its history from the copy's cache. */
export function createCountryHandler(store: DatasetStore, source: string): RequestHandler {
  return async (req, res) => {
    const { country, base } = parse(req.query);
    const snapshot = await store.get();
    const code = base.toLowerCase();
    assertKnownBase(snapshot.dataset, code);
    const found = snapshot.lookup(country);
    if (found.iso3 === undefined) {
      const hint = found.suggestions.length ? `; did you mean ${found.suggestions.join(', ')}?` : '; use a country name, ISO3 code or currency code such as Japan, JPN or JPY';
      throw new AppError('NOT_FOUND', `no country matches '${country}'${hint}`, {
        details: { parameter: 'country', value: country, suggestions: found.suggestions },
      });
    }
    const iso3 = found.iso3;
    const json = snapshot.cached(`country ${iso3} ${code}`, () => {
      const view = countryView(snapshot.dataset, iso3, requireBase(snapshot.dataset, code), source);
      if (view) return view;
      throw new AppError('NOT_FOUND', `${iso3} has no release in which base ${code.toUpperCase()} is listed`, {
        details: { parameter: 'base', value: base },
      });
    });
    sendSerialized(res, json, COUNTRY_ROUTE.message);
  };
}
