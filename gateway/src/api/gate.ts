import { AppError, ownEntry } from '@tollgate/envelope/core';
import { KEY_LENGTH, MAX_KEY_LENGTH, parseApiKey } from '../domain/api-key';
import type { AdmissionDecision } from '../domain/admission';
import type { ApiPlans } from '../domain/plans';
import { playgroundPlanName } from '../domain/plans';
import { PORTAL_SUBSCRIPTIONS_PAGE, paymentRefusalDetails, paymentRefusalMessage } from '../domain/subscription-refusal';
import { ACCOUNT_SUSPENDED, CHECKS_UNAVAILABLE, CHECKS_UNAVAILABLE_UNKNOWN_KEY } from '../domain/customer-messages';
import { rateLimitHeaders, retryAfterSeconds } from '../domain/rate-limit-headers';
import { monthWindow } from '../domain/windows';
import type { Admission, QuotaStore } from '../data/quota-store';
import { StoreError } from '../data/stores';
import { setLimitHeaders } from './api-call';
import type { ApiCall } from './api-call';
import type { FailOpenCache } from './fail-open-cache';

/** What the gate for one API needs. */
export interface GateDeps {
  api: string;
  apiPlans: ApiPlans;
  keyHeader: string;
  quotaStore: QuotaStore;
  clock: () => number;
  failMode: 'closed' | 'open';
  failOpenCache: FailOpenCache;
}

/** Lets an admitted call through: its account and the plan it is served on. */
export type Admit = (call: ApiCall, accountId: string, plan: string) => void;

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
      return new AppError('FORBIDDEN', ACCOUNT_SUSPENDED);
    case 'no_subscription':
    case 'unknown_plan':
    case 'playground_exhausted':
      return new AppError('SUBSCRIPTION_REQUIRED', paymentRefusalMessage(decision.outcome, api, apiPlans, decision.subscription), { details: paymentRefusalDetails(api, apiPlans, decision.subscription) });
    case 'rate_limited': {
      const retry = retryAfterSeconds(decision, nowMs);
      return new AppError('RATE_LIMITED', `Too many calls at once: your ${api} ${decision.plan ?? ''} plan allows ${limits?.rate_per_second ?? 0} a second. Retry in ${retry} s, or move to a faster plan at ${PORTAL_SUBSCRIPTIONS_PAGE}.`, { headers: { 'Retry-After': String(retry) } });
    }
    case 'quota_exceeded': {
      const retry = retryAfterSeconds(decision, nowMs);
      const resets = new Date(monthWindow(nowMs).endMs).toISOString().slice(0, 10);
      return new AppError('QUOTA_EXCEEDED', `Your ${api} ${decision.plan ?? ''} plan's ${limits?.monthly_quota ?? 0} calls for this month are used up. They start again on ${resets} at 00:00 UTC; for more now, upgrade at ${PORTAL_SUBSCRIPTIONS_PAGE}.`, { headers: { 'Retry-After': String(retry) } });
    }
    default:
      return new AppError('INTERNAL', `Something went wrong on our side (outcome ${decision.outcome}); the request id identifies it.`);
  }
}

/**
 * Authenticates the key and admits and charges the call in one store step, then hands it to
 * `admit` with its account and plan; the limit headers go on the answer either way. The screen
 * before it has checked method, path and body.
 */
export function createGate(deps: GateDeps, admit: Admit): (call: ApiCall) => void {
  const { api, apiPlans, keyHeader, quotaStore, clock } = deps;
  const playgroundPlan = playgroundPlanName(apiPlans);

  function admitted(call: ApiCall, accountId: string, keyHash: string, admission: Admission, nowMs: number): void {
    call.decision = admission.outcome;
    if (admission.keyId) {
      // For the usage history, counted when the answer is over.
      call.accountId = accountId;
      call.keyId = admission.keyId;
    }
    const headers = rateLimitHeaders(admission, apiPlans, nowMs);
    if (headers) setLimitHeaders(call.headers, headers);
    const { outcome } = admission;
    // The month's count the script answered: the quota alerts compare it in process, no round trip.
    if ((outcome === 'admitted' || outcome === 'quota_exceeded') && admission.plan && call.context.observeQuota) call.context.observeQuota(accountId, admission.keyId ?? '', admission.plan, admission.used, nowMs);
    if (outcome !== 'admitted' && outcome !== 'playground') {
      if (outcome !== 'rate_limited' && outcome !== 'quota_exceeded') deps.failOpenCache.forget(keyHash);
      call.fail(refusal(admission, deps, nowMs));
      return;
    }
    const plan = outcome === 'admitted' && admission.plan ? admission.plan : playgroundPlan;
    call.plan = plan;
    // Only failing open reads the cache; failing closed need not pay for keeping it.
    if (outcome === 'admitted' && deps.failMode === 'open') deps.failOpenCache.remember(keyHash, admission.keyId ?? '', accountId, api, plan, nowMs, admission.validUntilMs);
    call.ticket = admission.ticket;
    // For a refund: the limit headers of a call given back show the count without it.
    call.admission = admission;
    call.admittedAt = nowMs;
    admit(call, accountId, plan);
  }

  function storeFailed(call: ApiCall, accountId: string, keyHash: string, err: unknown, nowMs: number): void {
    if (!(err instanceof StoreError)) {
      call.fail(err);
      return;
    }
    const known = deps.failMode === 'open' ? deps.failOpenCache.lookup(keyHash, api, nowMs) : undefined;
    if (!known) {
      call.decision = 'store_unavailable';
      call.fail(new AppError('STORE_UNAVAILABLE', deps.failMode === 'open' ? CHECKS_UNAVAILABLE_UNKNOWN_KEY : CHECKS_UNAVAILABLE, { cause: err, headers: { 'Retry-After': '1' } }));
      return;
    }
    call.context.logger.warn({ err: err.message, key_id: known.keyId, api }, 'quota store unavailable: failing open for a recently verified key');
    call.decision = 'fail_open';
    call.plan = known.plan;
    admit(call, accountId, known.plan);
  }

  return (call) => {
    const presented = call.req.headers[keyHeader];
    if (typeof presented !== 'string' || presented === '') {
      call.decision = 'missing_key';
      throw new AppError('UNAUTHORIZED', `missing API key: send it in the ${keyHeader} header`);
    }
    // The shape and checksum refuse a mistyped, truncated or made-up key without asking the store.
    const parsed = presented.length > MAX_KEY_LENGTH ? undefined : parseApiKey(presented);
    if (!parsed?.ok) {
      call.decision = 'unknown_key';
      const why =
        parsed?.reason === 'checksum'
          ? 'its checksum does not match: it was mistyped'
          : parsed?.reason === 'length'
            ? `it is ${presented.length} characters long where Tollgate keys are ${KEY_LENGTH}: it was cut short or run on`
            : 'it is not in the format of Tollgate keys (tg_…)';
      throw new AppError('UNAUTHORIZED', `invalid API key: ${why}`);
    }
    const { accountId, hash: keyHash } = parsed;
    const nowMs = clock();
    call.admitting = true;
    // A defect past this point is rendered as a 500, never left as an unhandled rejection.
    quotaStore.admit({ accountId, keyHash, legacy: parsed.legacy, api, apiPlans, nowMs }).then(
      (admission) => {
        try {
          if (call.admitted(accountId, admission)) admitted(call, accountId, keyHash, admission, nowMs);
        } catch (err) {
          call.fail(err);
        }
      },
      (err: unknown) => {
        try {
          if (call.admitted(accountId, undefined)) storeFailed(call, accountId, keyHash, err, nowMs);
        } catch (defect) {
          call.fail(defect);
        }
      },
    );
  };
}
