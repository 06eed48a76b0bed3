import type { RouteDoc } from '@tollgate/envelope';
import { PUBLISHED_BASES } from '../domain/big-mac-row';

/** A JSON Schema, as route descriptions take them. */
export type SchemaObject = RouteDoc['data'];

const number = (description: string): SchemaObject => ({ type: 'number', description });
const date: SchemaObject = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'Release date, YYYY-MM-DD' };

/** The `base` query parameter shared by index, country and extremes. */
export const BASE_PARAMETER: SchemaObject = {
  type: 'string',
  pattern: '^[A-Za-z]{3}$',
  default: 'usd',
  description: `one of ${PUBLISHED_BASES.join(', ')} (any case), or another currency code of the latest release such as chf`,
};

/** A country in one release (index.countries, extremes lists, country.latest). */
export const COUNTRY_RECORD_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['iso3', 'country', 'currency', 'local_price', 'dollar_price', 'raw_valuation_pct', 'dollar_exchange_rate'],
  properties: {
    iso3: { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 3166 alpha-3 code; the euro area is EUZ' },
    country: { type: 'string', description: 'Country name as the dataset spells it' },
    currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'Currency code' },
    local_price: number('Burger price in local currency'),
    dollar_price: number('Price in US dollars at the market exchange rate'),
    raw_valuation_pct: number('Raw valuation in percent against the base; positive = over-valued'),
    dollar_exchange_rate: number('Local units per US dollar'),
    adjusted_valuation_pct: number('GDP-adjusted valuation in percent; omitted where the dataset has none'),
  },
};

/** One release of a country's history. */
export const HISTORY_ENTRY_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['date', 'local_price', 'dollar_price', 'raw_valuation_pct'],
  properties: {
    date,
    local_price: number('Burger price in local currency'),
    dollar_price: number('Price in US dollars at the market exchange rate'),
    raw_valuation_pct: number('Raw valuation in percent against the base'),
    adjusted_valuation_pct: number('GDP-adjusted valuation in percent; omitted where the dataset has none'),
  },
};

/** Shared `data` fields. */
export const SOURCE_SCHEMA: SchemaObject = { type: 'string', description: 'Name of the upstream dataset' };
export const RELEASE_DATE_SCHEMA = date;
export const BASE_CURRENCY_SCHEMA: SchemaObject = { type: 'string', pattern: '^[A-Z]{3}$', description: 'The base currency, upper case' };
