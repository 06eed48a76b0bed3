import { createHash, randomBytes } from 'node:crypto';
import { LAPSE_REASONS } from '../../domain/admission';
import type { AdmitOutcome, Subscription } from '../../domain/admission';
import type { ApiPlans } from '../../domain/plans';
import { dayWindow, monthWindow, ttlSeconds } from '../../domain/windows';
import { REFUND_MARKER_TTL_SECONDS } from '../retention';
import type { Admission, AdmitRequest, RefundTicket } from '../quota-store';
import { StoreError } from '../stores';
import { createAdmitBatches } from './admit-batches';
import type { BatchCommand } from './admit-batches';
import { isCluster, streamsOf } from './redis-client';
import type { RedisClient } from './redis-client';
import { SECOND_LOG_TTL_SECONDS, redisKeys } from './redis-keys';
import { ADMIT_REPLY_OUTCOMES, ADMIT_REPLY_STATUS, FIRST_LAPSE, admitScriptFor, usualAdmitBatchScriptFor } from './scripts/admit-script';
import { REFUND_SCRIPT } from './scripts/refund-script';
import type { StoreGuard } from './store-guard';
import { createWriteCoalescer, whileCorked } from './write-coalescer';

/** What admission shares with the rest of the Redis stores. */
export interface RedisQuotaContext {
  guard: StoreGuard;
  /** A deadline in Redis's clock, `budgetMs` from now. */
  deadline: (budgetMs: number) => number;
  maxWaitMs: number;
  /** Queues what undoes a command the client was told failed. */
  undo: (command: () => Promise<unknown>) => void;
}

/** The admission script's reply (see admit-script.ts): outcome, plan, used, second count, status, key id, valid until. */
type ScriptReply = [number, (number | string)?, number?, number?, number?, string?, number?];

type AdmitCommand = (...args: (string | number)[]) => Promise<ScriptReply>;

/** An API's two admission commands (see admit-script.ts) and how to read their reply: the plan names by their place in the table the scripts were written with. */
interface AdmitScript {
  /** The usual script for a batch of calls (numkeys first). */
  usual: BatchCommand<ScriptReply>;
  full: AdmitCommand;
  planNames: string[];
}

const NEEDS_FULL = ADMIT_REPLY_OUTCOMES.indexOf('needs_full');

/** The refund script's keys and arguments for a ticket. */
export const refundArgs = (t: RefundTicket): (string | number)[] => [
  redisKeys.secondLog(t.accountId, t.api),
  redisKeys.month(t.accountId, t.api, t.monthId),
  redisKeys.playgroundLog(t.accountId, t.api, t.dayId),
  redisKeys.day(t.accountId, t.api, t.dayId),
  redisKeys.refunded(t.accountId, t.member),
  t.member,
  t.charged ?? '',
  REFUND_MARKER_TTL_SECONDS,
];

/** Defines the refund script on the client; returns how to send it. */
export function defineRefund(redis: RedisClient): (ticket: RefundTicket) => Promise<number> {
  // ioredis sends EVALSHA and falls back to EVAL on NOSCRIPT (e.g. after a Redis restart).
  redis.defineCommand('tollgateRefund', { numberOfKeys: 5, lua: REFUND_SCRIPT });
  const command = (redis as unknown as { tollgateRefund(...args: (string | number)[]): Promise<number> }).tollgateRefund.bind(redis);
  return (ticket) => command(...refundArgs(ticket));
}

/** The most calls one batch carries (admit-batches.ts): about 2 ms of Redis's time (15 µs a call). */
const MAX_BATCH = 128;

/**
 * One admission: one script, one round trip (see admit-script.ts); the usual scripts of one
 * event-loop turn's calls travel together (admit-batches.ts).
 */
export function createRedisAdmit(redis: RedisClient, ctx: RedisQuotaContext, refund: (ticket: RefundTicket) => Promise<number>): (request: AdmitRequest) => Promise<Admission> {
  const admitCommandOf = createAdmitCommands(redis);
  // Log members must be unique across gateway processes: a random prefix per process and a counter.
  const memberPrefix = randomBytes(6).toString('base64url');
  let sequence = 0;
  const coalesce = createWriteCoalescer(() => streamsOf(redis));
  const batch = createAdmitBatches({ guard: ctx.guard, sending: (send) => whileCorked(() => streamsOf(redis), send), maxCalls: MAX_BATCH });
  // A script's keys must share one Cluster slot: there, only an account's own calls travel together.
  const cluster = isCluster(redis);
  return (request) => {
    const { accountId, api, nowMs, apiPlans } = request;
    const month = monthWindow(nowMs);
    const day = dayWindow(nowMs);
    const member = `${memberPrefix}:${++sequence}`;
    const ticket: RefundTicket = { accountId, api, monthId: month.id, dayId: day.id, member };
    // The client is told 503: whatever the script did or does when it finally runs is given back.
    const givenUp = (): void => ctx.undo(() => refund(ticket));
    // In the executor: a throw while the call is prepared is this call's rejection.
    return new Promise<Admission>((resolve, reject) => {
      const script = admitCommandOf(api, apiPlans);
      const secondLog = redisKeys.secondLog(accountId, api);
      const monthCounter = redisKeys.month(accountId, api, month.id);
      const deadline = ctx.deadline(ctx.maxWaitMs);
      batch(script.usual, cluster ? accountId : '', {
        keys: [redisKeys.account(accountId), secondLog, monthCounter],
        args: [request.keyHash, nowMs, member, deadline],
        givenUp,
        settle: (error, usual) => {
          if (error) return reject(error);
          // The usual script answers a call with an active subscription; any other it hands back
          // untouched, and the full one answers it (a second round trip, only for those).
          if (usual![0] !== NEEDS_FULL) {
            try {
              return resolve(admissionOf(usual!, script.planNames, ticket));
            } catch (unanswered) {
              givenUp();
              return reject(new StoreError(`quota store admit failed: ${(unanswered as Error).message}`, { cause: unanswered }));
            }
          }
          resolve(
            ctx.guard.run(
              'admit',
              () => {
                coalesce();
                return script
                  .full(
                    redisKeys.account(accountId),
                    redisKeys.legacy.secrets(accountId),
                    secondLog,
                    monthCounter,
                    redisKeys.day(accountId, api, day.id),
                    redisKeys.playgroundLog(accountId, api, day.id),
                    request.keyHash,
                    nowMs,
                    member,
                    ttlSeconds(day, nowMs),
                    deadline,
                  )
                  .then((full) => admissionOf(full, script.planNames, ticket));
              },
              givenUp,
            ),
          );
        },
      });
    });
  };
}

/**
 * The admission scripts of each API, their plans written in (admit-script.ts), defined on first use;
 * ioredis sends each by its SHA and falls back to EVAL on NOSCRIPT.
 */
function createAdmitCommands(redis: RedisClient): (api: string, apiPlans: ApiPlans) => AdmitScript {
  const admitCommands = new WeakMap<ApiPlans, Map<string, AdmitScript>>();
  // Without numberOfKeys, the command's first argument is numkeys (a batch's varies).
  const define = <C>(lua: string, numberOfKeys?: number): C => {
    // Named by the script itself: the same plans on the same client define the same command.
    const name = `tollgateAdmit_${createHash('sha1').update(lua).digest('hex')}`;
    redis.defineCommand(name, numberOfKeys === undefined ? { lua } : { numberOfKeys, lua });
    return (redis as unknown as Record<string, (...args: unknown[]) => unknown>)[name]!.bind(redis) as C;
  };
  return (api, apiPlans) => {
    let byApi = admitCommands.get(apiPlans);
    if (!byApi) admitCommands.set(apiPlans, (byApi = new Map()));
    let script = byApi.get(api);
    if (!script) {
      script = {
        usual: define<BatchCommand<ScriptReply>>(usualAdmitBatchScriptFor(api, apiPlans, SECOND_LOG_TTL_SECONDS)),
        full: define<AdmitCommand>(admitScriptFor(api, apiPlans, SECOND_LOG_TTL_SECONDS), 6),
        planNames: Object.keys(apiPlans.plans),
      };
      byApi.set(api, script);
    }
    return script;
  };
}

/** The script's reply read as an {@link Admission}; a charged call carries the ticket that refunds it. */
function admissionOf([code, planRef = '', used = 0, secondCount = 0, status = 0, keyId, validUntilMs]: ScriptReply, planNames: string[], ticket: RefundTicket): Admission {
  const outcome = ADMIT_REPLY_OUTCOMES[code];
  if (outcome === 'late' || outcome === undefined) throw new Error('the admission reached Redis after its deadline and was not charged');
  if (outcome === 'failed') throw new Error('the admission script raised an error for this call');
  const plan = typeof planRef === 'number' ? (planNames[planRef - 1] ?? '') : planRef;
  const admission: Admission = { outcome: outcome as AdmitOutcome, used, secondCount };
  if (keyId) admission.keyId = keyId;
  if (validUntilMs) admission.validUntilMs = validUntilMs;
  // Only a refused call's subscription can be lapsed: the admitted path builds its object directly.
  if (status) admission.subscription = status === ADMIT_REPLY_STATUS.active ? { plan, status: 'active' } : lapsedOrInactive(plan, status);
  if (status === ADMIT_REPLY_STATUS.active && outcome !== 'unknown_plan') admission.plan = plan;
  if (outcome === 'admitted' || outcome === 'playground') {
    admission.charge = outcome === 'admitted' ? 'month' : 'day';
    // The same object the undo above holds: it runs only if this answer never came.
    ticket.charged = admission.charge;
    admission.ticket = ticket;
  }
  return admission;
}

/** An inactive subscription from the script's status, with why billing stopped it when it did. */
function lapsedOrInactive(plan: string, status: number): Subscription {
  const lapsed = status >= FIRST_LAPSE ? LAPSE_REASONS[status - FIRST_LAPSE] : undefined;
  return lapsed ? { plan, status: 'inactive', lapsed } : { plan, status: 'inactive' };
}
