import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHandler } from 'express';
import { AppError, PROXY_SECRET_HEADER, REQUEST_ID_HEADER, ownEntry, requestIdOf } from '@tollgate/envelope';
import type { Logger } from '@tollgate/envelope';
import { KEY_LENGTH, MAX_KEY_LENGTH, parseApiKey } from '../domain/api-key';
import type { AdmissionDecision } from '../domain/admission';
import type { ApiPlans } from '../domain/plans';
import { playgroundPlanName } from '../domain/plans';
import { paymentRefusalDetails, paymentRefusalMessage } from '../domain/subscription-refusal';
import { rateLimitHeaders, retryAfterSeconds } from '../domain/rate-limit-headers';
import { monthWindow } from '../domain/windows';
import type { Admission, QuotaStore } from '../data/quota-store';
import { StoreError } from '../data/stores';
import type { FailOpenCache } from './fail-open-cache';
import { HOP_BY_HOP, connectionNamed } from './hop-by-hop';

/** Headers the gateway sets towards the services (client-sent copies are removed first). */
export const USER_HEADER = 'x-tollgate-user';
export const SUBSCRIPTION_HEADER = 'x-tollgate-subscription';

/** What the gate for one API needs. */
export interface GateDeps {
  api: string;
  apiPlans: ApiPlans;
  keyHeader: string;
  quotaStore: QuotaStore;
  clock: () => number;
  failMode: 'closed' | 'open';
  failOpenCache: FailOpenCache;
  proxySecret?: string;
  /** Whether a hop is a trusted proxy (TRUSTED_PROXIES), whose X-Forwarded-For is kept. */
  trust: (address: string, hop: number) => boolean;
  logger: Logger;
}

function refusal(decision: AdmissionDecision, deps: GateDeps, nowMs: number): AppError {
  const { api, apiPlans } = deps;
  const limits = decision.plan ? ownEntry(apiPlans.plans, decision.plan) : undefined;
  switch (decision.outcome) {
    case 'unknown_key':
      return new AppError('UNAUTHORIZED', 'unknown API key');
    case 'revoked':
      return new AppError('UNAUTHORIZED', 'this API key has been revoked');
    case 'expired':
      return new AppError('UNAUTHORIZED', 'this API key has expired; create a new one');
    case 'rolled':
      return new AppError('UNAUTHORIZED', 'this secret was replaced when its key was rolled, and its grace period is over; use the new secret');
    case 'suspended':
      return new AppError('FORBIDDEN', 'the account of this API key is suspended; contact the operator');
    case 'no_subscription':
    case 'unknown_plan':
    case 'playground_exhausted':
      return new AppError('SUBSCRIPTION_REQUIRED', paymentRefusalMessage(decision.outcome, api, apiPlans, decision.subscription), { details: paymentRefusalDetails(api, apiPlans, decision.subscription) });
    case 'rate_limited': {
      const retry = retryAfterSeconds(decision, nowMs);
      return new AppError('RATE_LIMITED', `rate limit of ${limits?.rate_per_second ?? 0} calls per second on the ${decision.plan ?? ''} plan reached; retry after ${retry} s`, { headers: { 'Retry-After': String(retry) } });
    }
    case 'quota_exceeded': {
      const retry = retryAfterSeconds(decision, nowMs);
      const resets = new Date(monthWindow(nowMs).endMs).toISOString();
      return new AppError('QUOTA_EXCEEDED', `monthly quota of ${limits?.monthly_quota ?? 0} calls on the ${decision.plan ?? ''} plan is used up; it resets at ${resets}, or upgrade the plan`, { headers: { 'Retry-After': String(retry) } });
    }
    default:
      return new AppError('INTERNAL', `unexpected admission outcome ${decision.outcome}`);
  }
}

/**
 * Authenticates the key, admits and charges the call in one store step, sets the limit headers,
 * then cleans the request for the service: the key header and every client-sent `x-tollgate-*`
 * header go, with every hop-by-hop header; the proxy secret, account id, plan, request id,
 * `X-Forwarded-For` and `-Host` come in. The screen before it has checked method, path and body.
 */
export function createGate(deps: GateDeps): RequestHandler {
  const { api, apiPlans, keyHeader, quotaStore, clock } = deps;
  const playgroundPlan = playgroundPlanName(apiPlans);
  return async (req, res, next) => {
    const presented = req.headers[keyHeader];
    if (typeof presented !== 'string' || presented === '') {
      res.locals.decision = 'missing_key';
      throw new AppError('UNAUTHORIZED', `missing API key: send it in the ${keyHeader} header`);
    }
    // The shape and checksum refuse a mistyped, truncated or made-up key without asking the store.
    const parsed = presented.length > MAX_KEY_LENGTH ? undefined : parseApiKey(presented);
    if (!parsed?.ok) {
      res.locals.decision = 'unknown_key';
      const why =
        parsed?.reason === 'checksum'
          ? 'its checksum does not match: it was mistyped'
          : parsed?.reason === 'length'
            ? `it is ${presented.length} characters long where Tollgate keys are ${KEY_LENGTH}: it was cut short or run on`
            : 'it is not in the format of Tollgate keys (tg_…)';
      throw new AppError('UNAUTHORIZED', `invalid API key: ${why}`);
    }
    const keyHash = parsed.hash;
    const nowMs = clock();
    let admission: Admission;
    try {
      admission = await quotaStore.admit({ accountId: parsed.accountId, keyHash, legacy: parsed.legacy, api, apiPlans, nowMs });
    } catch (err) {
      if (!(err instanceof StoreError)) throw err;
      const known = deps.failMode === 'open' ? deps.failOpenCache.lookup(keyHash, api, nowMs) : undefined;
      if (!known) {
        res.locals.decision = 'store_unavailable';
        const why = deps.failMode === 'open' ? 'and this key was not verified recently' : 'so calls cannot be checked';
        throw new AppError('STORE_UNAVAILABLE', `the quota store is unavailable ${why}; retry shortly`, { cause: err, headers: { 'Retry-After': '1' } });
      }
      deps.logger.warn({ err: err.message, key_id: known.keyId, api }, 'quota store unavailable: failing open for a recently verified key');
      res.locals.decision = 'fail_open';
      return forward(req, res, next, parsed.accountId, known.plan);
    }
    res.locals.decision = admission.outcome;
    if (admission.keyId) {
      // For the usage history, counted when the answer is finished.
      res.locals.accountId = parsed.accountId;
      res.locals.keyId = admission.keyId;
    }
    const headers = rateLimitHeaders(admission, apiPlans, nowMs);
    if (headers) for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    if (admission.outcome !== 'admitted' && admission.outcome !== 'playground' && admission.outcome !== 'rate_limited' && admission.outcome !== 'quota_exceeded') deps.failOpenCache.forget(keyHash);
    if (admission.outcome !== 'admitted' && admission.outcome !== 'playground') throw refusal(admission, deps, nowMs);
    const plan = admission.outcome === 'admitted' && admission.plan ? admission.plan : playgroundPlan;
    // Only failing open reads the cache; failing closed need not pay for keeping it.
    if (admission.outcome === 'admitted' && deps.failMode === 'open') deps.failOpenCache.remember(keyHash, admission.keyId ?? '', parsed.accountId, api, plan, nowMs, admission.validUntilMs);
    res.locals.ticket = admission.ticket;
    // For the proxy: the limit headers of a call it gives back show the count without it.
    res.locals.admission = admission;
    res.locals.admittedAt = nowMs;
    return forward(req, res, next, parsed.accountId, plan);
  };

  // A new object rather than deleting from the client's: `delete` turns an object into a
  // dictionary, and http-proxy then copies and extends that slow object on every call.
  function forward(req: Parameters<RequestHandler>[0], res: Parameters<RequestHandler>[1], next: () => void, accountId: string, plan: string): void {
    const incoming = req.headers;
    const headers: IncomingHttpHeaders = {};
    // Hop-by-hop headers describe the client's connection, not the call (a `Trailer` on a GET
    // made Node's client throw outside any handler), and those the client's `Connection` names
    // would let a standards-following hop drop the gateway's own headers. `Expect` asks for a
    // body the data routes refuse.
    const named = incoming.connection === undefined ? undefined : connectionNamed(incoming.connection);
    for (const name of Object.keys(incoming)) {
      if (name === keyHeader || name.startsWith('x-tollgate-') || HOP_BY_HOP.has(name) || name === 'expect' || named?.has(name)) continue;
      headers[name] = incoming[name];
    }
    // RapidAPI's pair, read from the cleaned headers (KEY_HEADER may name either, or Host): the
    // caller's address appended to the chain a trusted proxy sent (an untrusted caller's own chain
    // is dropped: anyone can write one), and the host it asked for (or a trusted proxy's).
    const peer = req.socket.remoteAddress;
    const trusted = peer !== undefined && deps.trust(peer, 0);
    const chain = headers['x-forwarded-for'];
    if (peer) headers['x-forwarded-for'] = chain && trusted ? `${String(chain)}, ${peer}` : peer;
    else delete headers['x-forwarded-for'];
    const host = (trusted && headers['x-forwarded-host']) || headers.host;
    if (host) headers['x-forwarded-host'] = host;
    if (deps.proxySecret) headers[PROXY_SECRET_HEADER] = deps.proxySecret;
    headers[USER_HEADER] = accountId;
    headers[SUBSCRIPTION_HEADER] = plan;
    headers[REQUEST_ID_HEADER] = requestIdOf(res);
    req.headers = headers;
    next();
  }
}
