import { AppError, createQueryParser, sendOk } from '@tollgate/envelope';
import type { RouteDoc } from '@tollgate/envelope';
import type { RequestHandler } from 'express';
import { formatDuration, parsePeriod } from '../domain/duration';
import { changeWindowSeconds, pickPoints, priceChange } from '../domain/price-change';
import { entryFor, tokenFields } from '../domain/price-record';
import { outcomeFields, sortTokens } from '../domain/sort-tokens';
import { upstreamKeysOf } from '../domain/token-id';
import { PERIOD_PARAM } from './chart-route';
import { assertNotFuture, resolveTokens } from './resolve-tokens';
import type { RouteDeps } from './route-deps';
import { UPSTREAM_ERRORS } from './route-deps';
import { MIN_CONFIDENCE_PARAM, OUTCOME_FIELDS, SCHEMA, TOKEN_FIELDS, TOKENS_PARAM, UNIX_SECONDS_PARAM } from './schemas';
import { CHANGE_EXAMPLE } from './route-examples';

const POINT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['timestamp', 'price_usd'],
  properties: {
    timestamp: { ...SCHEMA.int, description: 'Unix seconds of the record used' },
    price_usd: { ...SCHEMA.num, description: 'Price in US dollars' },
  },
};

/** `GET /v1/change`: percentage change over a period, from two historical records. */
export const changeRoute: RouteDoc = {
  method: 'get',
  path: '/v1/change',
  summary: 'Percentage change of one or many token prices over a period',
  description:
    'Computed here from the records nearest to timestamp − period and to timestamp (each within window_seconds), ' +
    "not taken from the indexer's own percentage endpoint, which is unreliable.",
  query: {
    type: 'object',
    required: ['tokens'],
    additionalProperties: false,
    properties: {
      tokens: TOKENS_PARAM,
      period: { ...PERIOD_PARAM, default: '1d' },
      timestamp: { ...UNIX_SECONDS_PARAM, description: 'Unix seconds of the end of the period (default now)' },
      min_confidence: MIN_CONFIDENCE_PARAM,
    },
  },
  example: CHANGE_EXAMPLE,
  data: {
    type: 'object',
    additionalProperties: false,
    required: ['period', 'period_seconds', 'start_timestamp', 'end_timestamp', 'window_seconds', 'count', 'changes', 'not_found', 'below_confidence'],
    properties: {
      period: { ...SCHEMA.str, description: 'The period, normalised (e.g. 1d)' },
      period_seconds: { ...SCHEMA.int, description: 'The period in seconds' },
      start_timestamp: { ...SCHEMA.int, description: 'Requested start: end_timestamp − period' },
      end_timestamp: { ...SCHEMA.int, description: 'Requested end: timestamp, or now' },
      window_seconds: { ...SCHEMA.int, description: 'How far from each requested time a record may lie' },
      ...OUTCOME_FIELDS,
      changes: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['token', 'chain', 'address', 'symbol', 'confidence', 'start', 'end', 'change_percent'],
          properties: {
            ...TOKEN_FIELDS,
            confidence: { ...SCHEMA.nullableNum, description: "The indexer's confidence, as given" },
            start: { ...POINT_SCHEMA, description: 'The record nearest to start_timestamp' },
            end: { ...POINT_SCHEMA, description: 'The record nearest to end_timestamp' },
            change_percent: { ...SCHEMA.nullableNum, description: '(end − start) / start × 100; null when the start price is 0' },
          },
        },
      },
    },
  },
  message: 'Price changes retrieved successfully',
  errors: [...UPSTREAM_ERRORS],
};

interface ChangeQuery {
  tokens: string;
  period: string;
  timestamp?: number;
  min_confidence?: number;
}

/** Handler of {@link changeRoute}. */
export function createChangeHandler(deps: RouteDeps): RequestHandler {
  const parse = createQueryParser<ChangeQuery>(changeRoute.query!);
  return async (req, res) => {
    const query = parse(req.query);
    const period = parsePeriod(query.period);
    if (!period) throw new AppError('BAD_REQUEST', `period must be ${PERIOD_PARAM.description}`, { details: { parameter: 'period' } });
    const now = deps.clock();
    assertNotFuture('timestamp', query.timestamp, now);
    const endAt = query.timestamp ?? Math.floor(now / 1000);
    const startAt = endAt - period.seconds;
    if (startAt < 0) {
      throw new AppError('BAD_REQUEST', `period ${period.text} reaches before 1970; use a later timestamp or a shorter period`, { details: { parameter: 'period' } });
    }
    const tokens = await resolveTokens(req, query.tokens, deps.chainList);
    const window = changeWindowSeconds(period.seconds);
    const coins = await deps.indexer.points(upstreamKeysOf(tokens), [startAt, endAt], formatDuration(window));
    const sorted = sortTokens(
      tokens,
      (token) => {
        const entry = entryFor(coins, token);
        const { start, end } = pickPoints(entry?.prices ?? [], startAt, endAt, window);
        if (!entry || !start || !end) return undefined;
        const confidence = entry.prices.find((p) => p.timestamp === end.timestamp)?.confidence ?? null;
        const change = priceChange({ timestamp: start.timestamp, price: start.price }, { timestamp: end.timestamp, price: end.price });
        const record = {
          ...tokenFields(token, entry.symbol),
          confidence,
          start: { timestamp: change.start.timestamp, price_usd: change.start.price },
          end: { timestamp: change.end.timestamp, price_usd: change.end.price },
          change_percent: change.change_percent,
        };
        return { record, confidence };
      },
      query.min_confidence,
    );
    sendOk(
      res,
      {
        period: period.text,
        period_seconds: period.seconds,
        start_timestamp: startAt,
        end_timestamp: endAt,
        window_seconds: window,
        ...outcomeFields(sorted),
        changes: sorted.found,
      },
      changeRoute.message,
    );
  };
}
