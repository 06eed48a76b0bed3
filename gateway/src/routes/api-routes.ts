import { Router } from 'express';
import type { Logger } from '@tollgate/envelope';
import type { PlanTable } from '../domain/plans';
import type { QuotaStore } from '../data/quota-store';
import type { GatewayMetrics } from '../metrics';
import { FailOpenCache } from '../http/fail-open-cache';
import { createGate } from '../http/gate';
import { createUpstreamProxy } from '../http/upstream-proxy';

/** What the proxied APIs need. */
export interface ApiRoutesDeps {
  plans: PlanTable;
  upstreams: Record<string, string>;
  keyHeader: string;
  proxySecret?: string;
  quotaFailMode: 'closed' | 'open';
  upstreamTimeoutMs: number;
  upstreamMaxSockets: number;
  quotaStore: QuotaStore;
  clock: () => number;
  logger: Logger;
  metrics: GatewayMetrics;
}

/** `/{api}/v1/...` for every API in the plan table: count, gate, proxy. */
export function createApiRoutes(deps: ApiRoutesDeps): Router {
  const router = Router();
  const failOpenCache = new FailOpenCache();
  for (const [api, apiPlans] of Object.entries(deps.plans)) {
    const target = deps.upstreams[api];
    if (!target) continue;
    router.use(
      `/${api}`,
      (_req, res, next) => {
        res.once('finish', () => {
          deps.metrics.calls.inc({ api, status: String(res.statusCode), decision: String(res.locals.decision ?? 'unknown') });
        });
        next();
      },
      createGate({ api, apiPlans, keyHeader: deps.keyHeader, quotaStore: deps.quotaStore, clock: deps.clock, failMode: deps.quotaFailMode, failOpenCache, proxySecret: deps.proxySecret, logger: deps.logger }),
      createUpstreamProxy({ api, target, timeoutMs: deps.upstreamTimeoutMs, maxSockets: deps.upstreamMaxSockets, quotaStore: deps.quotaStore, logger: deps.logger }),
    );
  }
  return router;
}
