import type { IncomingMessage, ServerResponse } from 'node:http';
import { REQUEST_ID_HEADER } from '@tollgate/envelope/core';
import type { Logger } from '@tollgate/envelope';
import type { ApiPlans } from '../domain/plans';
import type { QuotaObserver, UsageSink } from '../domain/usage-event';
import { rateLimitHeaders } from '../domain/rate-limit-headers';
import type { Admission, QuotaStore, RefundTicket } from '../data/quota-store';
import { historyOutcome } from '../data/usage-recorder';
import type { UsageRecorder } from '../data/usage-recorder';
import { writeAccessLog } from '../http/access-log';

/** What the calls to every API share: the store, the usage history, the clock and the log. */
export interface ApiShared {
  quotaStore: QuotaStore;
  /** The usage history, counted per finished call of a known key. */
  recorder: UsageRecorder;
  clock: () => number;
  logger: Logger;
  /** `Strict-Transport-Security` on every answer (PUBLIC_URL is https); unset: none. */
  transportSecurity?: string;
}

/** What every call to one API shares: its name and plans, and how its calls are counted. */
export interface ApiContext extends ApiShared {
  api: string;
  apiPlans: ApiPlans;
  /** Counts a finished call by status and decision (the calls metric). */
  countCall: (status: number, decision: string) => void;
  /** The usage stream: each finished call of an identified key, when it is on. */
  usage?: UsageSink;
  /** The quota alerts: each admitted call's month count, when they are on. */
  observeQuota?: QuotaObserver;
}

/** Answers a call with an error in the envelope. */
export type RenderError = (req: IncomingMessage, res: ServerResponse, err: unknown) => void;

/** The status a call is counted with when its client left before any answer (nginx's convention). */
export const CLIENT_CLOSED = 499;

const CALL = Symbol('tollgate.call');
type WithCall = ServerResponse & { [CALL]?: ApiCall };

/**
 * One proxied call, from the fast path (or the Express route) to its last byte: one object holds
 * what its stages learn (decision, account, key, admission, refund ticket, the gateway's own
 * answer headers), so no stage allocates closures or copies to hand it on, and one `close`
 * listener settles it: a client that left before any answer is refunded, and the call is counted
 * once (metrics, usage history, access line) when both the answer and the admission are over.
 */
export class ApiCall {
  decision = 'unknown';
  accountId = '';
  keyId = '';
  admission: Admission | undefined = undefined;
  admittedAt = 0;
  /** The plan it was served on (the API's cheapest for the playground). */
  plan = '';
  /** The route template it matched, when the service's document is known. */
  route: string | null = null;
  /** From sending to the service until its headers came (ms); -1 until then. */
  upstreamMs = -1;
  /** Body bytes of the answer passed to the client. */
  bytes = 0;
  ticket: RefundTicket | undefined = undefined;
  /** The gateway's own answer headers, lower-case names: sent with the service's answer, or with a refusal. */
  readonly headers: Record<string, string> = {};
  /** The service request in flight, told when the client leaves so it is abandoned. */
  inFlight: { cancel(): void } | undefined = undefined;
  /** While the store is asked: a call whose client leaves meanwhile is settled when it answers. */
  admitting = false;
  /** The status the call is counted with once its answer has closed; 0 until then. */
  closedStatus = 0;
  private settled = false;

  constructor(
    readonly context: ApiContext,
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly requestId: string,
    /** Renders an error in the envelope (the Express app's error handler). */
    private readonly renderError: RenderError,
    /** Whether this call writes its own access line (the fast path; Express logs its own). */
    private readonly logged: boolean,
    private readonly startedAt = performance.now(),
  ) {
    this.headers[REQUEST_ID_HEADER] = requestId;
    const hsts = context.transportSecurity;
    if (hsts !== undefined) this.headers['strict-transport-security'] = hsts;
    (res as WithCall)[CALL] = this;
    // `on`, not `once`: `once` wraps the listener in a closure per call, and 'close' comes once.
    res.on('close', answerClosed);
  }

  /** Whether the client has gone (its answer can no longer be sent). */
  get gone(): boolean {
    return this.closedStatus !== 0 || this.res.destroyed;
  }

  /** Answers with an error in the envelope, the gateway's headers (limits, CORS) on it. */
  fail(err: unknown): void {
    if (this.gone) return;
    const { headers, res } = this;
    for (const name in headers) res.setHeader(name, headers[name] as string);
    this.renderError(this.req, res, err);
  }

  /**
   * Gives the call back, once, whichever way it was not served; the limit headers then read as
   * they do without it. A refund that cannot be sent now is sent again by the store.
   */
  refund(): void {
    const ticket = this.ticket;
    if (!ticket) return;
    this.ticket = undefined;
    this.decision = 'refunded';
    const { admission, context } = this;
    if (admission && !this.res.headersSent) {
      const headers = rateLimitHeaders({ ...admission, used: Math.max(0, admission.used - 1), secondCount: Math.max(0, admission.secondCount - 1) }, context.apiPlans, this.admittedAt);
      if (headers) setLimitHeaders(this.headers, headers);
    }
    context.quotaStore.refund(ticket).catch((err: unknown) => {
      context.logger.warn({ err: (err as Error).message, api: context.api, request_id: this.requestId }, 'refund not applied now: it is sent again when the store is back');
    });
  }

  /**
   * The store has answered (`admission`) or failed: true to go on. False when the client left
   * meanwhile: the charge is given back and the call counted (once its answer has closed).
   */
  admitted(accountId: string, admission: Admission | undefined): boolean {
    this.admitting = false;
    if (!this.gone) return true;
    if (admission) {
      this.decision = admission.outcome;
      if (admission.keyId) {
        this.accountId = accountId;
        this.keyId = admission.keyId;
      }
      this.ticket = admission.ticket;
    }
    this.refund();
    if (this.closedStatus !== 0) this.settle();
    return false;
  }

  /** Counts the call once: the calls metric, the usage history of a known key, the access line. */
  settle(): void {
    if (this.settled) return;
    this.settled = true;
    const { context, closedStatus: status, decision } = this;
    context.countCall(status, decision);
    const durationMs = performance.now() - this.startedAt;
    if (this.keyId) {
      const nowMs = context.clock();
      context.recorder.count(this.accountId, this.keyId, context.api, historyOutcome(status, decision === 'refunded'), nowMs, this.route, durationMs);
      context.usage?.push(this.requestId, this.accountId, this.keyId, context.api, this.plan, this.req.method ?? '', this.route, status, decision, this.upstreamMs, durationMs, this.bytes, nowMs);
    }
    if (this.logged) {
      const { req, res } = this;
      writeAccessLog(context.logger, {
        requestId: this.requestId,
        method: req.method ?? '',
        url: (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '',
        status: res.statusCode,
        durationMs: Math.round(durationMs),
        finished: res.writableFinished,
      });
    }
  }
}

/** The answer's end: a client that left before any answer is not charged; then the call is counted. */
function answerClosed(this: WithCall): void {
  const call = this[CALL];
  if (!call) return;
  const answered = this.headersSent;
  call.closedStatus = answered ? this.statusCode : CLIENT_CLOSED;
  if (!this.writableFinished) call.inFlight?.cancel();
  if (!answered) call.refund();
  if (!call.admitting) call.settle();
}

// The limit headers' names as rateLimitHeaders gives them, lower-cased once.
const LOWER = new Map<string, string>();

/** Puts limit headers (from rateLimitHeaders) into a call's headers under lower-case names. */
export function setLimitHeaders(into: Record<string, string>, headers: Record<string, string>): void {
  for (const name in headers) {
    let lower = LOWER.get(name);
    if (lower === undefined) LOWER.set(name, (lower = name.toLowerCase()));
    into[lower] = headers[name] as string;
  }
}
