import Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import type { CoinMap, UpstreamPoints, UpstreamPrice, UpstreamSeries } from '../domain/upstream-types';

// Checks what the indexer sends before anything reads it; extra upstream fields are tolerated.
const ajv = new Ajv({ allErrors: false, strict: true });

const num = { type: 'number' };
const coins = (entry: object) => ({
  type: 'object',
  required: ['coins'],
  properties: { coins: { type: 'object', additionalProperties: entry } },
});

/** `GET /chains`: an array of chain names. */
export const validateChains: ValidateFunction<string[]> = ajv.compile({ type: 'array', items: { type: 'string' } });

/** `/prices/current` and `/prices/historical`. */
export const validatePrices: ValidateFunction<{ coins: CoinMap<UpstreamPrice> }> = ajv.compile(
  coins({
    type: 'object',
    required: ['price', 'symbol', 'timestamp'],
    properties: { price: num, symbol: { type: 'string' }, timestamp: num, decimals: num, confidence: num },
  }),
);

/** `/chart`. */
export const validateSeries: ValidateFunction<{ coins: CoinMap<UpstreamSeries> }> = ajv.compile(
  coins({
    type: 'object',
    required: ['symbol', 'prices'],
    properties: {
      symbol: { type: 'string' },
      decimals: num,
      confidence: num,
      prices: { type: 'array', items: { type: 'object', required: ['timestamp', 'price'], properties: { timestamp: num, price: num } } },
    },
  }),
);

/** `/batchHistorical`. */
export const validatePoints: ValidateFunction<{ coins: CoinMap<UpstreamPoints> }> = ajv.compile(
  coins({
    type: 'object',
    required: ['symbol', 'prices'],
    properties: {
      symbol: { type: 'string' },
      prices: {
        type: 'array',
        items: { type: 'object', required: ['timestamp', 'price'], properties: { timestamp: num, price: num, confidence: num } },
      },
    },
  }),
);
