import { ACCOUNT_ACTIONS } from '../../domain/account-actions';
import { decideAdmission } from '../../domain/admission';
import type { SecretEntry } from '../../domain/admission';
import { dayWindow, hourWindow, monthWindow, ttlSeconds } from '../../domain/windows';
import type { Admission, AdmitRequest, QuotaStore, RefundTicket, Usage } from '../quota-store';
import { REFUND_MARKER_TTL_SECONDS } from '../retention';
import { counterNames } from './counter-names';
import { createCounters } from './counters';
import type { Counter } from './counters';
import type { MemoryAccountStore } from './memory-account-store';
import { removeMember, trimLog } from './second-log';
import type { SecondLog } from './second-log';

/** What {@link createMemoryQuotaStore} is built from. */
export interface MemoryQuotaOptions {
  clock: () => number;
  /** Counters to start from (and keep changing), by name. */
  counters: Map<string, Counter>;
  /** Told of each counter changed or dropped (the SQLite store writes it later). */
  counterChanged?: (name: string) => void;
  /** The secret and account state admission reads in the same synchronous step. */
  admissionState: MemoryAccountStore['admissionState'];
  /** Listeners told of every revoked key and suspended account. */
  revocationListeners: ((id: string) => void)[];
}

/** When a secret stops working: its expiry or its roll's grace end, whichever is first (0: never). */
function validUntil(secret: SecretEntry | undefined): number {
  const expires = secret?.expiresAtMs ?? 0;
  const grace = secret?.graceUntilMs ?? 0;
  return expires > 0 && (grace === 0 || expires < grace) ? expires : grace;
}

/**
 * The quota store in this process: the same rules as the Redis script (one synchronous step per
 * admission is atomic in Node), for one gateway process without Redis.
 */
export function createMemoryQuotaStore(options: MemoryQuotaOptions): QuotaStore {
  const logs = new Map<string, SecondLog>();
  // Members of each day's playground calls (at most the allowance a day), for exact refunds; by
  // the name of the day's counter, and dropped with it.
  const playground = new Map<string, number[]>();
  // Members already refunded, with when the marker lapses (as Redis's marker keys).
  const refunded = new Map<string, number>();
  const counters = createCounters(options.counters, options.counterChanged, (nowMs) => {
    for (const k of playground.keys()) if (!options.counters.has(k)) playground.delete(k);
    for (const [m, until] of refunded) if (until <= nowMs) refunded.delete(m);
  });
  let sequence = 0;

  const admit = async (request: AdmitRequest): Promise<Admission> => {
    const { accountId, api, nowMs } = request;
    const state = options.admissionState(accountId, request.keyHash, api);
    const month = monthWindow(nowMs);
    const day = dayWindow(nowMs);
    const logName = counterNames.secondLog(accountId, api);
    const log = logs.get(logName) ?? { times: [], members: [] };
    trimLog(log, nowMs - 1000);
    const keyId = state.secret?.keyId;
    const decision = decideAdmission({
      ...state,
      apiPlans: request.apiPlans,
      nowMs,
      secondLog: log.times,
      monthUsed: counters.read(counterNames.month(accountId, api, month.id), nowMs),
      dayUsed: counters.read(counterNames.day(accountId, api, day.id), nowMs),
    });
    if (decision.charge === 'month') {
      const member = ++sequence;
      log.times.push(nowMs);
      log.members.push(member);
      logs.set(logName, log);
      counters.add(counterNames.month(accountId, api, month.id), 1, ttlSeconds(month, nowMs), nowMs);
      const validUntilMs = validUntil(state.secret);
      return { ...decision, keyId, ...(validUntilMs ? { validUntilMs } : {}), ticket: { accountId, api, monthId: month.id, dayId: day.id, member: String(member), charged: 'month' } };
    }
    if (log.times.length) logs.set(logName, log);
    else logs.delete(logName);
    if (decision.charge === 'day') {
      const member = ++sequence;
      counters.add(counterNames.day(accountId, api, day.id), 1, ttlSeconds(day, nowMs), nowMs);
      const pgName = counterNames.day(accountId, api, day.id);
      playground.set(pgName, [...(playground.get(pgName) ?? []), member]);
      return { ...decision, keyId, ticket: { accountId, api, monthId: month.id, dayId: day.id, member: String(member), charged: 'day' } };
    }
    return keyId ? { ...decision, keyId } : decision;
  };

  // As the Redis script: once per call, from the counter it was charged to.
  const refund = async (ticket: RefundTicket): Promise<void> => {
    const nowMs = options.clock();
    const member = Number(ticket.member);
    if (refunded.has(ticket.member)) return;
    refunded.set(ticket.member, nowMs + REFUND_MARKER_TTL_SECONDS * 1000);
    const inLog = removeMember(logs.get(counterNames.secondLog(ticket.accountId, ticket.api)), member);
    const dayName = counterNames.day(ticket.accountId, ticket.api, ticket.dayId);
    const played = playground.get(dayName) ?? [];
    if (played.includes(member)) playground.set(dayName, played.filter((m) => m !== member));
    const charged = ticket.charged ?? (inLog ? 'month' : played.includes(member) ? 'day' : undefined);
    if (!charged) return;
    counters.takeOne(charged === 'month' ? counterNames.month(ticket.accountId, ticket.api, ticket.monthId) : dayName, nowMs);
  };

  return {
    admit,
    refund,
    async usage(accountId, api, nowMs): Promise<Usage> {
      return {
        month: counters.read(counterNames.month(accountId, api, monthWindow(nowMs).id), nowMs),
        day: counters.read(counterNames.day(accountId, api, dayWindow(nowMs).id), nowMs),
      };
    },
    async countSignup(ip, nowMs) {
      const hour = hourWindow(nowMs);
      return counters.add(counterNames.signups(ip, hour.id), 1, ttlSeconds(hour, nowMs), nowMs);
    },
    async countAction(accountId, action, nowMs) {
      const window = ACCOUNT_ACTIONS[action].window(nowMs);
      return counters.add(counterNames.action(accountId, action, window.id), 1, ttlSeconds(window, nowMs), nowMs);
    },
    async ping() {},
    onRevoked(revoked, listening) {
      options.revocationListeners.push(revoked);
      listening(true);
    },
  };
}
