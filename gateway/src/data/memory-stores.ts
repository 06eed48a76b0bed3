import { decideAdmission } from '../domain/admission';
import type { SecretEntry } from '../domain/admission';
import { dayWindow, hourWindow, monthWindow, ttlSeconds } from '../domain/windows';
import { createLegacyKeyStore } from './key-store';
import { createMemoryAccountStore } from './memory-accounts';
import { createMemorySessionStore } from './memory-sessions';
import type { MemoryAccountState, MemoryAccountsPersistence } from './memory-accounts';
import type { Admission, AdmitRequest, QuotaStore, RefundTicket, Stores, Usage } from './quota-store';
import { REFUND_MARKER_TTL_SECONDS, redisKeys } from './redis-keys';

/** A counter (month, day, playground day, sign-ups of an hour) and when it lapses. */
export interface Counter {
  value: number;
  expiresAtMs: number;
}

/**
 * One key's sliding log for one API: parallel arrays of call times and refund tokens. An entry
 * lives for a second, longer than young-generation GCs are apart under load, so an object per
 * entry would be promoted to the old generation; numbers in arrays are not separate objects.
 */
interface SecondLog {
  times: number[];
  members: number[];
}

/** Drops the entries at or before `cutoffMs`, in place (a test clock may go back, so no ordering is assumed). */
function trimLog(log: SecondLog, cutoffMs: number): void {
  let kept = 0;
  for (let i = 0; i < log.times.length; i++) {
    if ((log.times[i] as number) > cutoffMs) {
      log.times[kept] = log.times[i] as number;
      log.members[kept] = log.members[i] as number;
      kept++;
    }
  }
  log.times.length = kept;
  log.members.length = kept;
}

/** When a secret stops working: its expiry or its roll's grace end, whichever is first (0: never). */
function validUntil(secret: SecretEntry | undefined): number {
  const expires = secret?.expiresAtMs ?? 0;
  const grace = secret?.graceUntilMs ?? 0;
  return expires > 0 && (grace === 0 || expires < grace) ? expires : grace;
}

/** Options of {@link createMemoryStores}. */
export interface MemoryStoresOptions {
  clock: () => number;
  generateKey?: (accountId: string) => string;
  newAccountId?: () => string;
  /** Counters to start from (and keep changing), by name; unset: empty. */
  counters?: Map<string, Counter>;
  /** The account store's state to start from; unset: empty. */
  accountState?: MemoryAccountState;
  /** Told of every change, for a store that writes the state through to disk (the SQLite store). */
  persistence?: MemoryStoresPersistence;
  /** What {@link Stores.kind} says; 'memory' unless set. */
  kind?: Stores['kind'];
}

/** The account store's hooks, plus one for counters. */
export interface MemoryStoresPersistence extends MemoryAccountsPersistence {
  /** A counter changed or was dropped (may be written later). */
  counter(name: string): void;
}

// Expired counters are dropped every this many writes, so a long-running process stays small.
const SWEEP_EVERY = 10_000;

/**
 * Key and quota stores held in this process: the same rules as Redis (one synchronous step per
 * admission is atomic in Node), for one gateway process without Redis. Lost on restart, unless a
 * `persistence` writes the counters and account state through to disk (the SQLite store).
 */
export function createMemoryStores(options: MemoryStoresOptions): Stores {
  const { clock } = options;
  const counters = options.counters ?? new Map<string, Counter>();
  const persist = options.persistence;
  const logs = new Map<string, SecondLog>();
  // Members of each day's playground calls (at most the allowance a day), for exact refunds; by
  // the name of the day's counter, and dropped with it.
  const playground = new Map<string, number[]>();
  const revocationListeners: ((id: string) => void)[] = [];
  const accountStore = createMemoryAccountStore({
    clock,
    newAccountId: options.newAccountId,
    generateKey: options.generateKey,
    state: options.accountState,
    persistence: persist,
    revoked: (id) => {
      for (const listener of revocationListeners) listener(id);
    },
  });
  // Members already refunded, with when the marker lapses (as Redis's marker keys).
  const refunded = new Map<string, number>();
  let writes = 0;
  let sequence = 0;

  const read = (name: string, nowMs: number): number => {
    const counter = counters.get(name);
    return counter && counter.expiresAtMs > nowMs ? counter.value : 0;
  };
  const add = (name: string, delta: number, ttlS: number, nowMs: number): number => {
    if (++writes % SWEEP_EVERY === 0) {
      for (const [k, c] of counters) {
        if (c.expiresAtMs > nowMs) continue;
        counters.delete(k);
        persist?.counter(k);
      }
      for (const k of playground.keys()) if (!counters.has(k)) playground.delete(k);
      for (const [m, until] of refunded) if (until <= nowMs) refunded.delete(m);
    }
    const value = Math.max(0, read(name, nowMs) + delta);
    const counter = counters.get(name);
    // Updated in place: a new object per call would live until the key's next call (see SecondLog).
    if (counter) {
      counter.value = value;
      counter.expiresAtMs = nowMs + ttlS * 1000;
    } else counters.set(name, { value, expiresAtMs: nowMs + ttlS * 1000 });
    persist?.counter(name);
    return value;
  };

  const quotaStore: QuotaStore = {
    async admit(request: AdmitRequest): Promise<Admission> {
      const { accountId, api, nowMs } = request;
      const state = accountStore.admissionState(accountId, request.keyHash, api);
      const month = monthWindow(nowMs);
      const day = dayWindow(nowMs);
      const logName = redisKeys.secondLog(accountId, api);
      const log = logs.get(logName) ?? { times: [], members: [] };
      trimLog(log, nowMs - 1000);
      const keyId = state.secret?.keyId;
      const decision = decideAdmission({
        ...state,
        apiPlans: request.apiPlans,
        nowMs,
        secondLog: log.times,
        monthUsed: read(redisKeys.month(accountId, api, month.id), nowMs),
        dayUsed: read(redisKeys.day(accountId, api, day.id), nowMs),
      });
      if (decision.charge === 'month') {
        const member = ++sequence;
        log.times.push(nowMs);
        log.members.push(member);
        logs.set(logName, log);
        add(redisKeys.month(accountId, api, month.id), 1, ttlSeconds(month, nowMs), nowMs);
        const validUntilMs = validUntil(state.secret);
        return { ...decision, keyId, ...(validUntilMs ? { validUntilMs } : {}), ticket: { accountId, api, monthId: month.id, dayId: day.id, member: String(member), charged: 'month' } };
      }
      if (log.times.length) logs.set(logName, log);
      else logs.delete(logName);
      if (decision.charge === 'day') {
        const member = ++sequence;
        add(redisKeys.day(accountId, api, day.id), 1, ttlSeconds(day, nowMs), nowMs);
        const pgName = redisKeys.day(accountId, api, day.id);
        playground.set(pgName, [...(playground.get(pgName) ?? []), member]);
        return { ...decision, keyId, ticket: { accountId, api, monthId: month.id, dayId: day.id, member: String(member), charged: 'day' } };
      }
      return keyId ? { ...decision, keyId } : decision;
    },
    // As the Redis script: once per call, from the counter it was charged to.
    async refund(ticket: RefundTicket) {
      const nowMs = clock();
      const member = Number(ticket.member);
      if (refunded.has(ticket.member)) return;
      refunded.set(ticket.member, nowMs + REFUND_MARKER_TTL_SECONDS * 1000);
      const log = logs.get(redisKeys.secondLog(ticket.accountId, ticket.api));
      const at = log ? log.members.indexOf(member) : -1;
      if (log && at >= 0) {
        log.times.splice(at, 1);
        log.members.splice(at, 1);
      }
      const dayName = redisKeys.day(ticket.accountId, ticket.api, ticket.dayId);
      const played = playground.get(dayName) ?? [];
      if (played.includes(member)) playground.set(dayName, played.filter((m) => m !== member));
      const charged = ticket.charged ?? (at >= 0 ? 'month' : played.includes(member) ? 'day' : undefined);
      if (!charged) return;
      const name = charged === 'month' ? redisKeys.month(ticket.accountId, ticket.api, ticket.monthId) : dayName;
      const counter = counters.get(name);
      if (counter && counter.value > 0) counter.value -= 1;
      if (counter && counter.expiresAtMs <= nowMs) counters.delete(name);
      if (counter) persist?.counter(name);
    },
    async usage(accountId, api, nowMs): Promise<Usage> {
      return {
        month: read(redisKeys.month(accountId, api, monthWindow(nowMs).id), nowMs),
        day: read(redisKeys.day(accountId, api, dayWindow(nowMs).id), nowMs),
      };
    },
    async countSignup(ip, nowMs) {
      const hour = hourWindow(nowMs);
      return add(redisKeys.signups(ip, hour.id), 1, ttlSeconds(hour, nowMs), nowMs);
    },
    async ping() {},
    onRevoked(revoked, listening) {
      revocationListeners.push(revoked);
      listening(true);
    },
  };

  return { accountStore, keyStore: createLegacyKeyStore(accountStore), quotaStore, sessionStore: createMemorySessionStore(clock), kind: options.kind ?? 'memory' };
}
