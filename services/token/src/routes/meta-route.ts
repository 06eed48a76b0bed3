import { createQueryParser, sendOk } from '@tollgate/envelope';
import type { RouteDoc } from '@tollgate/envelope';
import type { RequestHandler } from 'express';
import { MAX_CHART_POINTS } from '../domain/chart-limits';
import { BATCH_LIMITS, PLANS, planOf } from '../domain/plan-limits';
import { COINGECKO_PREFIX } from '../domain/token-id';
import { SUBSCRIPTION_HEADER } from '@tollgate/envelope';
import type { RouteDeps } from './route-deps';
import { SCHEMA } from './schemas';
import { META_EXAMPLE } from './route-examples';

/** `GET /v1/meta`: what the service accepts. */
export const metaRoute: RouteDoc = {
  method: 'get',
  path: '/v1/meta',
  summary: 'Supported chains, batch limits and chart cap',
  query: { type: 'object', additionalProperties: false, properties: {} },
  example: META_EXAMPLE,
  data: {
    type: 'object',
    additionalProperties: false,
    required: ['service', 'plan', 'batch_limit', 'batch_limits', 'max_chart_points', 'slug_prefixes', 'chain_count', 'chains'],
    properties: {
      service: { const: 'token', description: 'This service' },
      plan: { type: 'string', enum: [...PLANS], description: 'Your plan for this API, as the gateway admitted the call' },
      batch_limit: { ...SCHEMA.int, description: "Most tokens per call on the caller's plan" },
      batch_limits: {
        type: 'object',
        additionalProperties: false,
        required: [...PLANS],
        properties: Object.fromEntries(PLANS.map((p) => [p, SCHEMA.int])),
        description: 'Most tokens per call, by plan',
      },
      max_chart_points: { ...SCHEMA.int, description: 'Cap on tokens × span in /v1/chart' },
      slug_prefixes: { ...SCHEMA.strings, description: 'Prefixes that take a coin-directory slug instead of an address' },
      chain_count: { ...SCHEMA.int, description: 'Number of chains' },
      chains: { ...SCHEMA.strings, description: "Chain names accepted as prefixes (the indexer's list, refreshed daily), sorted" },
    },
  },
  message: 'Metadata retrieved successfully',
  errors: ['BAD_REQUEST', 'FORBIDDEN', 'UPSTREAM_UNAVAILABLE', 'UPSTREAM_RATE_LIMITED', 'UPSTREAM_TIMEOUT'],
};

/** Handler of {@link metaRoute}. */
export function createMetaHandler(deps: RouteDeps): RequestHandler {
  const parse = createQueryParser<Record<string, never>>(metaRoute.query!);
  return async (req, res) => {
    parse(req.query);
    const plan = planOf(req.header(SUBSCRIPTION_HEADER));
    const chains = [...(await deps.chainList.get())].sort();
    sendOk(
      res,
      {
        service: 'token',
        plan,
        batch_limit: BATCH_LIMITS[plan],
        batch_limits: { ...BATCH_LIMITS },
        max_chart_points: MAX_CHART_POINTS,
        slug_prefixes: [COINGECKO_PREFIX],
        chain_count: chains.length,
        chains,
      },
      metaRoute.message,
    );
  };
}
