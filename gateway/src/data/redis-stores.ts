import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import { generateApiKey, hashApiKey, keyIdFromHash } from '../domain/api-key';
import type { AdmitOutcome, Subscription } from '../domain/admission';
import type { ApiPlans } from '../domain/plans';
import { dayWindow, hourWindow, monthWindow, ttlSeconds } from '../domain/windows';
import { ADMIT_SCRIPT, COUNT_SCRIPT, REFUND_SCRIPT } from './admit-script';
import { newKeyRecord } from './key-store';
import type { KeyRecord, KeyStore, NewKey } from './key-store';
import type { Admission, AdmitRequest, QuotaStore, RefundTicket, Stores } from './quota-store';
import { StoreError } from './quota-store';
import { decodeRecord, encodeRecord, encodeSubscription } from './record-codec';
import { SECOND_LOG_TTL_SECONDS, redisKeys } from './redis-keys';
import { createWriteCoalescer } from './write-coalescer';

/** Options of {@link createRedisStores}. */
export interface RedisStoresOptions {
  clock: () => number;
  generateKey?: () => string;
  /**
   * How long (ms) an admission may take to reach Redis before the script refuses to charge it:
   * the client command timeout plus an allowance for clock skew between gateway and Redis hosts.
   */
  admitBudgetMs?: number;
  /** Real time for that deadline (the injected `clock` may be a test's frozen one). */
  wallClock?: () => number;
  /** Called with each store operation's duration in seconds (the latency histogram). */
  onLatency?: (operation: string, seconds: number) => void;
}

type ScriptReply = [AdmitOutcome | 'expired', string, number, number, number, string];

interface ScriptCommands {
  tollgateAdmit(...args: (string | number)[]): Promise<ScriptReply>;
  tollgateRefund(...args: string[]): Promise<number>;
  tollgateCount(...args: (string | number)[]): Promise<number>;
}

// The plan table is fixed for a process's life: flatten each API's plans for the script once.
const planArgsCache = new WeakMap<ApiPlans, (string | number)[]>();
function planArgsOf(apiPlans: ApiPlans): (string | number)[] {
  let args = planArgsCache.get(apiPlans);
  if (!args) {
    args = Object.entries(apiPlans.plans).flatMap(([name, p]) => [name, p.monthly_quota, p.rate_per_second]);
    planArgsCache.set(apiPlans, args);
  }
  return args;
}

/** Key and quota stores in Redis, shared by every gateway process and the CLI. */
export function createRedisStores(redis: Redis, options: RedisStoresOptions): Stores {
  const { clock, onLatency } = options;
  const wallClock = options.wallClock ?? Date.now;
  const admitBudgetMs = options.admitBudgetMs ?? 1_000;
  const generateKey = options.generateKey ?? (() => generateApiKey());
  // ioredis sends EVALSHA and falls back to EVAL on NOSCRIPT (e.g. after a Redis restart).
  redis.defineCommand('tollgateAdmit', { numberOfKeys: 4, lua: ADMIT_SCRIPT });
  redis.defineCommand('tollgateRefund', { numberOfKeys: 2, lua: REFUND_SCRIPT });
  redis.defineCommand('tollgateCount', { numberOfKeys: 1, lua: COUNT_SCRIPT });
  const scripts = redis as unknown as ScriptCommands;
  // Log members must be unique across gateway processes: a random prefix per process and a counter.
  const memberPrefix = randomBytes(6).toString('base64url');
  let sequence = 0;
  const coalesce = createWriteCoalescer(() => redis.stream);

  // Promise handlers rather than an async wrapper: on the admission path, each async layer is
  // another promise and microtask per call.
  function timed<T>(operation: string, run: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const settle = (): void => onLatency?.(operation, (performance.now() - started) / 1000);
    const fail = (err: unknown): never => {
      settle();
      throw new StoreError(`quota store ${operation} failed: ${(err as Error).message}`, { cause: err });
    };
    let pending: Promise<T>;
    try {
      pending = run();
    } catch (err) {
      pending = Promise.reject(err);
    }
    return pending.then((value) => {
      settle();
      return value;
    }, fail);
  }

  const get = async (id: string): Promise<KeyRecord | undefined> => decodeRecord(id, await redis.hgetall(redisKeys.record(id)));

  const keyStore: KeyStore = {
    create: (input: NewKey) =>
      timed('create', async () => {
        const { key, hash, record } = newKeyRecord(input, generateKey(), clock());
        // Two commands, not MULTI: the index is a different Cluster slot from the record.
        await redis.hset(redisKeys.record(record.id), encodeRecord(record, hash));
        await redis.sadd(redisKeys.keyIndex(), record.id);
        return { key, record };
      }),
    get: (id) => timed('get', () => get(id)),
    findByKey: (key) =>
      timed('find', async () => {
        const hash = hashApiKey(key);
        const id = keyIdFromHash(hash);
        const stored = await redis.hget(redisKeys.record(id), 'hash');
        return stored === hash ? get(id) : undefined;
      }),
    list: () =>
      timed('list', async () => {
        const ids = await redis.smembers(redisKeys.keyIndex());
        const records = await Promise.all(ids.map(get));
        return records.filter((r): r is KeyRecord => r !== undefined).sort((a, b) => a.created_at.localeCompare(b.created_at));
      }),
    setSubscription: (id, api, subscription: Subscription) =>
      timed('subscribe', async () => {
        if (!(await redis.exists(redisKeys.record(id)))) return undefined;
        await redis.hset(redisKeys.record(id), `sub:${api}`, encodeSubscription(subscription));
        return get(id);
      }),
    revoke: (id) =>
      timed('revoke', async () => {
        if (!(await redis.exists(redisKeys.record(id)))) return undefined;
        await redis.hsetnx(redisKeys.record(id), 'revoked_at', new Date(clock()).toISOString());
        return get(id);
      }),
  };

  const quotaStore: QuotaStore = {
    admit: (request: AdmitRequest) =>
      timed('admit', (): Promise<Admission> => {
        const { keyId, api, nowMs, apiPlans } = request;
        const month = monthWindow(nowMs);
        const day = dayWindow(nowMs);
        const member = `${memberPrefix}:${++sequence}`;
        coalesce();
        const reply = scripts.tollgateAdmit(
          redisKeys.record(keyId),
          redisKeys.secondLog(keyId, api),
          redisKeys.month(keyId, api, month.id),
          redisKeys.day(keyId, api, day.id),
          request.keyHash,
          api,
          nowMs,
          member,
          ttlSeconds(month, nowMs),
          ttlSeconds(day, nowMs),
          apiPlans.playground_per_day,
          SECOND_LOG_TTL_SECONDS,
          wallClock() + admitBudgetMs,
          ...planArgsOf(apiPlans),
        );
        return reply.then(([outcome, plan, used, secondCount, secondResetMs, status]) => {
          if (outcome === 'expired') throw new Error('the admission reached Redis after its deadline and was not charged');
          const admission: Admission = { outcome, used, secondCount, secondResetMs };
          if (status) admission.subscription = { plan, status: status === 'active' ? 'active' : 'inactive' };
          if (status === 'active' && outcome !== 'unknown_plan') admission.plan = plan;
          if (outcome === 'admitted') {
            admission.charge = 'month';
            admission.ticket = { keyId, api, charged: 'month', windowId: month.id, member };
          } else if (outcome === 'playground') {
            admission.charge = 'day';
            admission.ticket = { keyId, api, charged: 'day', windowId: day.id };
          }
          return admission;
        });
      }),
    refund: (ticket: RefundTicket) =>
      timed('refund', async () => {
        const counter =
          ticket.charged === 'month'
            ? redisKeys.month(ticket.keyId, ticket.api, ticket.windowId)
            : redisKeys.day(ticket.keyId, ticket.api, ticket.windowId);
        await scripts.tollgateRefund(redisKeys.secondLog(ticket.keyId, ticket.api), counter, ticket.member ?? '');
      }),
    usage: (keyId, api, nowMs) =>
      timed('usage', async () => {
        const [month, day] = await redis.mget(redisKeys.month(keyId, api, monthWindow(nowMs).id), redisKeys.day(keyId, api, dayWindow(nowMs).id));
        return { month: Number(month ?? 0), day: Number(day ?? 0) };
      }),
    countSignup: (ip, nowMs) =>
      timed('signup', () => {
        const hour = hourWindow(nowMs);
        return scripts.tollgateCount(redisKeys.signups(ip, hour.id), ttlSeconds(hour, nowMs));
      }),
    ping: () =>
      timed('ping', async () => {
        await redis.ping();
      }),
  };

  return { keyStore, quotaStore, kind: 'redis' };
}
