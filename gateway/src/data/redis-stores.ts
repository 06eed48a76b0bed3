import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import type { Logger } from '@tollgate/envelope';
import { generateApiKey, hashApiKey, keyIdFromHash } from '../domain/api-key';
import type { AdmitOutcome, Subscription } from '../domain/admission';
import type { ApiPlans } from '../domain/plans';
import { dayWindow, hourWindow, monthWindow, ttlSeconds } from '../domain/windows';
import { ADMIT_SCRIPT, COUNT_SCRIPT, CREATE_SCRIPT, REFUND_SCRIPT } from './admit-script';
import { newKeyRecord } from './key-store';
import type { KeyRecord, KeyStore, NewKey } from './key-store';
import type { Admission, AdmitRequest, QuotaStore, RefundTicket, Stores } from './quota-store';
import { decodeRecord, encodeRecord, encodeSubscription } from './record-codec';
import { REFUND_MARKER_TTL_SECONDS, SECOND_LOG_TTL_SECONDS, redisKeys } from './redis-keys';
import { createWriteCoalescer } from './write-coalescer';
import { createRedisClock, createUndoQueue, subscribeRevocations, watchPersistence } from './redis-support';
import { createStoreGuard } from './store-guard';

/** Options of {@link createRedisStores}. */
export interface RedisStoresOptions {
  clock: () => number;
  generateKey?: () => string;
  /** How long (ms) a command may take before the caller is told the store failed. */
  timeoutMs?: number;
  /** Real time for the scripts' deadlines (the injected `clock` may be a test's frozen one). */
  wallClock?: () => number;
  /** Called with each store operation's duration in seconds (the latency histogram). */
  onLatency?: (operation: string, seconds: number) => void;
  logger?: Logger;
}

type ScriptReply = [AdmitOutcome | 'expired', string, number, number, number, string];

interface ScriptCommands {
  tollgateAdmit(...args: (string | number)[]): Promise<ScriptReply>;
  tollgateRefund(...args: (string | number)[]): Promise<number>;
  tollgateCreate(...args: (string | number)[]): Promise<number>;
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
  const { clock } = options;
  const wallClock = options.wallClock ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 1_000;
  const generateKey = options.generateKey ?? (() => generateApiKey());
  // ioredis sends EVALSHA and falls back to EVAL on NOSCRIPT (e.g. after a Redis restart).
  redis.defineCommand('tollgateAdmit', { numberOfKeys: 5, lua: ADMIT_SCRIPT });
  redis.defineCommand('tollgateRefund', { numberOfKeys: 5, lua: REFUND_SCRIPT });
  redis.defineCommand('tollgateCount', { numberOfKeys: 1, lua: COUNT_SCRIPT });
  redis.defineCommand('tollgateCreate', { numberOfKeys: 1, lua: CREATE_SCRIPT });
  const scripts = redis as unknown as ScriptCommands;
  // Log members must be unique across gateway processes: a random prefix per process and a counter.
  const memberPrefix = randomBytes(6).toString('base64url');
  let sequence = 0;
  const coalesce = createWriteCoalescer(() => redis.stream);
  // A client without an offline queue (the gateway's) fails a command at once while disconnected;
  // one with a queue (a test's, a script's) waits for the connection.
  const queues = redis.options.enableOfflineQueue !== false;
  // The longest a command is waited for while Redis keeps answering others; the scripts' deadline.
  const maxWaitMs = timeoutMs * 8;
  const guard = createStoreGuard({ timeoutMs, maxWaitMs, connected: () => queues || redis.status === 'ready', onLatency: options.onLatency });
  const redisTime = createRedisClock(redis, wallClock);
  // Undoing what a timed-out command may still do when it runs: sent on the same connection, so
  // Redis runs it after that command; kept and sent again after a reconnect if it cannot go now.
  const undo = createUndoQueue(redis, options.logger);

  const get = async (id: string): Promise<KeyRecord | undefined> => decodeRecord(id, await redis.hgetall(redisKeys.record(id)));
  const refundArgs = (t: RefundTicket): (string | number)[] => [
    redisKeys.secondLog(t.keyId, t.api),
    redisKeys.month(t.keyId, t.api, t.monthId),
    redisKeys.playgroundLog(t.keyId, t.api, t.dayId),
    redisKeys.day(t.keyId, t.api, t.dayId),
    redisKeys.refunded(t.keyId, t.member),
    t.member,
    t.charged ?? '',
    REFUND_MARKER_TTL_SECONDS,
  ];

  const keyStore: KeyStore = {
    create: (input: NewKey) => {
      const { key, hash, record } = newKeyRecord(input, generateKey(), clock());
      const name = redisKeys.record(record.id);
      const forget = (): void => undo.add(() => redis.multi().del(name).exec().then(() => redis.srem(redisKeys.keyIndex(), record.id)));
      return guard.run(
        'create',
        async () => {
          const fields = Object.entries(encodeRecord(record, hash)).flat();
          // The index is another Cluster slot: a second command, after the record exists.
          if (!(await scripts.tollgateCreate(name, redisTime.deadline(maxWaitMs), ...fields))) throw new Error('the creation reached Redis after its deadline');
          try {
            await redis.sadd(redisKeys.keyIndex(), record.id);
          } catch (err) {
            forget();
            throw err;
          }
          return { key, record };
        },
        forget,
      );
    },
    get: (id) => guard.run('get', () => get(id)),
    findByKey: (key) =>
      guard.run('find', async () => {
        const hash = hashApiKey(key);
        const id = keyIdFromHash(hash);
        const stored = await redis.hget(redisKeys.record(id), 'hash');
        return stored === hash ? get(id) : undefined;
      }),
    list: () =>
      guard.run('list', async () => {
        const ids = await redis.smembers(redisKeys.keyIndex());
        const records = await Promise.all(ids.map(get));
        return records.filter((r): r is KeyRecord => r !== undefined).sort((a, b) => a.created_at.localeCompare(b.created_at));
      }),
    setSubscription: (id, api, subscription: Subscription) =>
      guard.run('subscribe', async () => {
        if (!(await redis.exists(redisKeys.record(id)))) return undefined;
        await redis.hset(redisKeys.record(id), `sub:${api}`, encodeSubscription(subscription));
        return get(id);
      }),
    revoke: (id) =>
      guard.run('revoke', async () => {
        if (!(await redis.exists(redisKeys.record(id)))) return undefined;
        await redis.hsetnx(redisKeys.record(id), 'revoked_at', new Date(clock()).toISOString());
        await redis.publish(redisKeys.revocations(), id);
        return get(id);
      }),
  };

  const quotaStore: QuotaStore = {
    admit: (request: AdmitRequest) => {
      const { keyId, api, nowMs, apiPlans } = request;
      const month = monthWindow(nowMs);
      const day = dayWindow(nowMs);
      const member = `${memberPrefix}:${++sequence}`;
      const ticket: RefundTicket = { keyId, api, monthId: month.id, dayId: day.id, member };
      return guard.run(
        'admit',
        (): Promise<Admission> => {
          coalesce();
          const reply = scripts.tollgateAdmit(
            redisKeys.record(keyId),
            redisKeys.secondLog(keyId, api),
            redisKeys.month(keyId, api, month.id),
            redisKeys.day(keyId, api, day.id),
            redisKeys.playgroundLog(keyId, api, day.id),
            request.keyHash,
            api,
            nowMs,
            member,
            ttlSeconds(month, nowMs),
            ttlSeconds(day, nowMs),
            apiPlans.playground_per_day,
            SECOND_LOG_TTL_SECONDS,
            redisTime.deadline(maxWaitMs),
            ...planArgsOf(apiPlans),
          );
          return reply.then(([outcome, plan, used, secondCount, secondResetMs, status]) => {
            if (outcome === 'expired') throw new Error('the admission reached Redis after its deadline and was not charged');
            const admission: Admission = { outcome, used, secondCount, secondResetMs };
            if (status) admission.subscription = { plan, status: status === 'active' ? 'active' : 'inactive' };
            if (status === 'active' && outcome !== 'unknown_plan') admission.plan = plan;
            if (outcome === 'admitted' || outcome === 'playground') {
              admission.charge = outcome === 'admitted' ? 'month' : 'day';
              // The same object the undo below holds: it runs only if this answer never came.
              ticket.charged = admission.charge;
              admission.ticket = ticket;
            }
            return admission;
          });
        },
        // The client is told 503: whatever the script does when it finally runs is given back.
        () => undo.add(() => scripts.tollgateRefund(...refundArgs(ticket))),
      );
    },
    // A refund that cannot be sent now (the store is down: when refunds are likeliest) is kept
    // and sent again on reconnection; the marker makes it count once.
    refund: (ticket: RefundTicket) =>
      guard
        .run('refund', async () => {
          await scripts.tollgateRefund(...refundArgs(ticket));
        })
        .catch((err: unknown) => {
          undo.add(() => scripts.tollgateRefund(...refundArgs(ticket)));
          throw err;
        }),
    usage: (keyId, api, nowMs) =>
      guard.run('usage', async () => {
        const [month, day] = await redis.mget(redisKeys.month(keyId, api, monthWindow(nowMs).id), redisKeys.day(keyId, api, dayWindow(nowMs).id));
        return { month: Number(month ?? 0), day: Number(day ?? 0) };
      }),
    countSignup: (ip, nowMs) =>
      guard.run('signup', () => {
        const hour = hourWindow(nowMs);
        return scripts.tollgateCount(redisKeys.signups(ip, hour.id), ttlSeconds(hour, nowMs));
      }),
    ping: () =>
      guard.run('ping', async () => {
        await redis.ping();
      }),
    onRevoked: (revoked, listening) => subscribeRevocations(redis, revoked, listening, options.logger),
  };

  return { keyStore, quotaStore, kind: 'redis', persistence: watchPersistence(redis, options.logger) };
}
