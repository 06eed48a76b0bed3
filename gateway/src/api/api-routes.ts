import { Router } from 'express';
import type { RequestHandler } from 'express';
import type { Logger } from '@tollgate/envelope';
import type { PlanTable } from '../domain/plans';
import type { QuotaStore } from '../data/quota-store';
import type { GatewayMetrics } from '../http/metrics';
import { createCallCounter } from '../http/metrics';
import type { FailOpenCache } from './fail-open-cache';
import { historyOutcome } from '../data/usage-recorder';
import type { UsageRecorder } from '../data/usage-recorder';
import type { CorsPolicy } from './cors-policy';
import { createGate } from './gate';
import { createScreen } from './screen';
import type { ServiceDocuments } from '../data/service-documents';
import { createUpstreamProxy } from './upstream-proxy';

/** What the proxied APIs need. */
export interface ApiRoutesDeps {
  plans: PlanTable;
  upstreams: Record<string, string>;
  keyHeader: string;
  proxySecret?: string;
  quotaFailMode: 'closed' | 'open';
  /** The usage history, counted per finished call of a known key. */
  recorder: UsageRecorder;
  /** Keys verified recently, for `quotaFailMode: 'open'`. */
  failOpenCache: FailOpenCache;
  upstreamTimeoutMs: number;
  upstreamMaxSockets: number;
  quotaStore: QuotaStore;
  documents: ServiceDocuments;
  cors: CorsPolicy;
  trust: (address: string, hop: number) => boolean;
  clock: () => number;
  logger: Logger;
  metrics: GatewayMetrics;
}

/** One API's handlers, in order: count the call, screen it, gate it, proxy it. */
export type ApiPipeline = [RequestHandler, RequestHandler, RequestHandler, RequestHandler];

/** The pipeline of every API in the plan table that has a service URL. */
export function createApiPipelines(deps: ApiRoutesDeps): Map<string, ApiPipeline> {
  const { failOpenCache } = deps;
  const pipelines = new Map<string, ApiPipeline>();
  for (const [api, apiPlans] of Object.entries(deps.plans)) {
    const target = deps.upstreams[api];
    if (!target) continue;
    const countCall = createCallCounter(deps.metrics, api);
    const count: RequestHandler = (_req, res, next) => {
      res.once('finish', () => {
        const { decision, accountId, keyId } = res.locals as { decision?: string; accountId?: string; keyId?: string };
        countCall(res.statusCode, String(decision ?? 'unknown'));
        if (accountId && keyId) deps.recorder.count(accountId, keyId, api, historyOutcome(res.statusCode, decision === 'refunded'), deps.clock());
      });
      next();
    };
    pipelines.set(api, [
      count,
      createScreen({ api, cors: deps.cors, documents: deps.documents }),
      createGate({ api, apiPlans, keyHeader: deps.keyHeader, quotaStore: deps.quotaStore, clock: deps.clock, failMode: deps.quotaFailMode, failOpenCache, proxySecret: deps.proxySecret, trust: deps.trust, logger: deps.logger }),
      createUpstreamProxy({ api, target, apiPlans, timeoutMs: deps.upstreamTimeoutMs, maxSockets: deps.upstreamMaxSockets, quotaStore: deps.quotaStore, logger: deps.logger }),
    ]);
  }
  return pipelines;
}

/** `/{api}/...` through Express, for every pipeline. */
export function createApiRoutes(pipelines: Map<string, ApiPipeline>): Router {
  const router = Router();
  for (const [api, pipeline] of pipelines) router.use(`/${api}`, ...pipeline);
  return router;
}
