import { ACCESS_HEADER, accessFromHeader, createOpenApiDocument, createQueryParser, sendOk, readOnlyRoute } from '@tollgate/envelope';
import { Router } from 'express';
import { CHAINS } from '../domain/chains.js';
import { KNOWN_EVENTS, KNOWN_SPECS } from '../domain/events.js';
import { includes, includesChain, PLANS, planForChain } from '../domain/plans.js';
import { planOf } from './plan-gate.js';
import { CHAINS_ROUTE, META_ROUTE, ROUTES } from './info-route-docs.js';

/** Limits reported by `/v1/meta`. */
export interface MetaLimits {
  maxBlockRange: number;
  cacheTtlMs: number;
}

const parseNothing = createQueryParser<Record<string, never>>(CHAINS_ROUTE.query ?? { type: 'object', properties: {} });

/** What each plan includes: the feature gates `/v1/meta` reports and the OpenAPI document carries. */
export const PLAN_FEATURES = PLANS.map((plan) => ({
  plan,
  topic_filtering: includes(plan, 'topic_filtering'),
  chains: CHAINS.filter((c) => includesChain(plan, c)).map((c) => c.slug),
}));

/** `GET /v1/chains`, `GET /v1/meta` and `GET /v1/openapi.json`. */
export function createInfoRoutes(limits: MetaLimits): Router {
  const router = Router();
  // `x-plan-features` lets the gateway's portal show each plan's gates from the document it already merges.
  const openApi = createOpenApiDocument(
    { title: 'Tollgate logs API', version: '1.0.0', description: 'Live EVM event logs over each chain’s JSON-RPC: decoded, paginated, range-split.' },
    ROUTES,
    { 'x-plan-features': { columns: { topic_filtering: 'Topic filtering (topic0–3, event)', chains: 'Chains' }, plans: PLAN_FEATURES } },
  );

  readOnlyRoute(router, CHAINS_ROUTE.path, (req, res) => {
    parseNothing(req.query);
    const plan = planOf(req);
    const chains = CHAINS.map((c) => ({ slug: c.slug, id: c.id, name: c.name, included: includesChain(plan, c), plan_required: planForChain(c) }));
    // On the playground the caller has the cheapest plan's features, not that plan.
    const access = accessFromHeader(req.header(ACCESS_HEADER));
    sendOk(res, { plan: access === 'playground' ? null : plan, access, chains }, CHAINS_ROUTE.message);
  });

  readOnlyRoute(router, META_ROUTE.path, (req, res) => {
    parseNothing(req.query);
    const events = KNOWN_SPECS.map((spec, i) => ({
      name: spec.item.name,
      standard: KNOWN_EVENTS[i]?.standard ?? '',
      declaration: KNOWN_EVENTS[i]?.declaration ?? '',
      signature: spec.signature,
      topic0: spec.selector,
    }));
    sendOk(
      res,
      { service: 'logs', max_block_range: limits.maxBlockRange, default_limit: 100, max_limit: 1000, cache_ttl_ms: limits.cacheTtlMs, plans: PLAN_FEATURES, events },
      META_ROUTE.message,
    );
  });

  readOnlyRoute(router, '/v1/openapi.json', (_req, res) => {
    res.json(openApi);
  });
  return router;
}
