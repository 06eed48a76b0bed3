import { AppError, createQueryParser, sendOk } from '@tollgate/envelope';
import type { RouteDoc } from '@tollgate/envelope';
import type { RequestHandler } from 'express';
import { MAX_CHART_POINTS, chartPointsProblem } from '../domain/chart-limits';
import { PERIOD_PATTERN, parsePeriod } from '../domain/duration';
import { decimalsOf, entryFor, tokenFields } from '../domain/price-record';
import { toSeries } from '../domain/series';
import { outcomeFields, sortTokens } from '../domain/sort-tokens';
import { upstreamKeysOf } from '../domain/token-id';
import { assertNotFuture, resolveTokens } from './resolve-tokens';
import type { RouteDeps } from './route-deps';
import { UPSTREAM_ERRORS } from './route-deps';
import { MIN_CONFIDENCE_PARAM, OUTCOME_FIELDS, SCHEMA, TOKEN_FIELDS, TOKENS_PARAM, UNIX_SECONDS_PARAM } from './schemas';
import { CHART_EXAMPLE } from './route-examples';

/** The period parameter, shared with `/v1/change`. */
export const PERIOD_PARAM = {
  type: 'string',
  pattern: PERIOD_PATTERN,
  description: 'a duration: an optional count then m (minutes), h, d or w, e.g. 4h, 1d, 2w',
};

/** `GET /v1/chart`: a price series. */
export const chartRoute: RouteDoc = {
  method: 'get',
  path: '/v1/chart',
  summary: 'USD price series of one or many tokens',
  description:
    `span points spaced by period, forward from start or backward from end (default now), ascending. ` +
    `tokens × span must be at most ${MAX_CHART_POINTS}. Points the indexer has no record near are left out.`,
  query: {
    type: 'object',
    required: ['tokens'],
    additionalProperties: false,
    properties: {
      tokens: TOKENS_PARAM,
      span: { type: 'integer', minimum: 1, maximum: MAX_CHART_POINTS, default: 30, description: 'number of points' },
      period: { ...PERIOD_PARAM, default: '1d' },
      start: { ...UNIX_SECONDS_PARAM, description: 'Unix seconds of the first point; not with end' },
      end: { ...UNIX_SECONDS_PARAM, description: 'Unix seconds of the last point (default now); not with start' },
      min_confidence: MIN_CONFIDENCE_PARAM,
    },
  },
  example: CHART_EXAMPLE,
  data: {
    type: 'object',
    additionalProperties: false,
    required: ['period', 'period_seconds', 'span', 'start', 'end', 'count', 'series', 'not_found', 'below_confidence'],
    properties: {
      period: { ...SCHEMA.str, description: 'The period, normalised (e.g. 4h)' },
      period_seconds: { ...SCHEMA.int, description: 'The period in seconds' },
      span: { ...SCHEMA.int, description: 'Points asked for per token' },
      start: { type: ['integer', 'null'], description: 'start as given, or null' },
      end: { type: ['integer', 'null'], description: 'end as given, or null (now)' },
      ...OUTCOME_FIELDS,
      series: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['token', 'chain', 'address', 'symbol', 'decimals', 'confidence', 'points'],
          properties: {
            ...TOKEN_FIELDS,
            decimals: { type: ['integer', 'null'], description: 'Token decimals; null when unknown' },
            confidence: { ...SCHEMA.nullableNum, description: 'Confidence of the latest record, as given' },
            points: {
              type: 'array',
              description: 'Ascending by timestamp',
              items: {
                type: 'object',
                additionalProperties: false,
                required: ['timestamp', 'price_usd'],
                properties: {
                  timestamp: { ...SCHEMA.int, description: 'Unix seconds of the record (not the grid time)' },
                  price_usd: { ...SCHEMA.num, description: 'Price in US dollars' },
                },
              },
            },
          },
        },
      },
    },
  },
  message: 'Chart retrieved successfully',
  errors: [...UPSTREAM_ERRORS],
};

interface ChartQueryParams {
  tokens: string;
  span: number;
  period: string;
  start?: number;
  end?: number;
  min_confidence?: number;
}

/** Handler of {@link chartRoute}. */
export function createChartHandler(deps: RouteDeps): RequestHandler {
  const parse = createQueryParser<ChartQueryParams>(chartRoute.query!);
  return async (req, res) => {
    const query = parse(req.query);
    const period = parsePeriod(query.period);
    if (!period) throw new AppError('BAD_REQUEST', `period must be ${PERIOD_PARAM.description}`, { details: { parameter: 'period' } });
    if (query.start !== undefined && query.end !== undefined) {
      throw new AppError('BAD_REQUEST', 'give either start or end, not both', { details: { parameter: 'start' } });
    }
    assertNotFuture('start', query.start, deps.clock());
    assertNotFuture('end', query.end, deps.clock());
    const tokens = await resolveTokens(req, query.tokens, deps.chainList);
    const keys = upstreamKeysOf(tokens);
    const tooMany = chartPointsProblem(keys.length, query.span);
    if (tooMany) throw new AppError('BAD_REQUEST', tooMany, { details: { parameter: 'span', max_points: MAX_CHART_POINTS } });

    const coins = await deps.indexer.chart(keys, { span: query.span, period: period.text, start: query.start, end: query.end });
    const sorted = sortTokens(
      tokens,
      (token) => {
        const entry = entryFor(coins, token);
        if (!entry || entry.prices.length === 0) return undefined;
        const record = {
          ...tokenFields(token, entry.symbol),
          decimals: decimalsOf(token, entry.decimals),
          confidence: entry.confidence ?? null,
          points: toSeries(entry.prices),
        };
        return { record, confidence: record.confidence };
      },
      query.min_confidence,
    );
    sendOk(
      res,
      {
        period: period.text,
        period_seconds: period.seconds,
        span: query.span,
        start: query.start ?? null,
        end: query.end ?? null,
        ...outcomeFields(sorted),
        series: sorted.found,
      },
      chartRoute.message,
    );
  };
}
