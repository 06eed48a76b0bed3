import { createHash, randomBytes } from 'node:crypto';
import type { Logger } from '@tollgate/envelope';
import type { AdmitOutcome } from '../domain/admission';
import type { ApiPlans } from '../domain/plans';
import { dayWindow, hourWindow, monthWindow, ttlSeconds } from '../domain/windows';
import { COUNT_SCRIPT, REFUND_SCRIPT, admitScriptFor } from './admit-script';
import { createLegacyKeyStore } from './key-store';
import type { Admission, AdmitRequest, QuotaStore, RefundTicket, Stores } from './quota-store';
import { createRedisAccountStore } from './redis-accounts';
import { mastersOf, streamsOf } from './redis-client';
import type { RedisClient } from './redis-client';
import { createRedisSessionStore } from './redis-sessions';
import { migrateLegacyKey } from './redis-migration';
import { REFUND_MARKER_TTL_SECONDS, SECOND_LOG_TTL_SECONDS, redisKeys } from './redis-keys';
import { createWriteCoalescer } from './write-coalescer';
import { createRedisClock, createUndoQueue, subscribeRevocations, watchPersistence } from './redis-support';
import { createStoreGuard } from './store-guard';

/** Options of {@link createRedisStores}. */
export interface RedisStoresOptions {
  clock: () => number;
  /** Secrets and account ids (tests make them predictable). */
  generateKey?: (accountId: string) => string;
  newAccountId?: () => string;
  /** Every API name, so migrating a key made before accounts carries over its playground counters too. */
  apis?: readonly string[];
  /** How long (ms) a command may take before the caller is told the store failed. */
  timeoutMs?: number;
  /** Real time for the scripts' deadlines (the injected `clock` may be a test's frozen one). */
  wallClock?: () => number;
  /** Called with each store operation's duration in seconds (the latency histogram). */
  onLatency?: (operation: string, seconds: number) => void;
  logger?: Logger;
}

type ScriptReply = [AdmitOutcome | 'late', string, number, number, number, string, string, number?];

type AdmitCommand = (...args: (string | number)[]) => Promise<ScriptReply>;

interface ScriptCommands {
  tollgateRefund(...args: (string | number)[]): Promise<number>;
  tollgateCount(...args: (string | number)[]): Promise<number>;
}

/** Key and quota stores in Redis, shared by every gateway process and the CLI. */
export function createRedisStores(redis: RedisClient, options: RedisStoresOptions): Stores {
  const { clock } = options;
  const wallClock = options.wallClock ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 1_000;
  // ioredis sends EVALSHA and falls back to EVAL on NOSCRIPT (e.g. after a Redis restart).
  redis.defineCommand('tollgateRefund', { numberOfKeys: 5, lua: REFUND_SCRIPT });
  redis.defineCommand('tollgateCount', { numberOfKeys: 1, lua: COUNT_SCRIPT });
  const scripts = redis as unknown as ScriptCommands;
  // One admission script per API, its plans written in (admit-script.ts), defined on first use;
  // ioredis sends each by its SHA and falls back to EVAL on NOSCRIPT.
  const admitCommands = new WeakMap<ApiPlans, Map<string, AdmitCommand>>();
  const admitCommandOf = (api: string, apiPlans: ApiPlans): AdmitCommand => {
    let byApi = admitCommands.get(apiPlans);
    if (!byApi) admitCommands.set(apiPlans, (byApi = new Map()));
    let command = byApi.get(api);
    if (!command) {
      const lua = admitScriptFor(api, apiPlans, SECOND_LOG_TTL_SECONDS);
      // Named by the script itself: the same plans on the same client define the same command.
      const name = `tollgateAdmit_${createHash('sha1').update(lua).digest('hex')}`;
      redis.defineCommand(name, { numberOfKeys: 6, lua });
      command = (redis as unknown as Record<string, AdmitCommand>)[name]!.bind(redis);
      byApi.set(api, command);
    }
    return command;
  };
  // Log members must be unique across gateway processes: a random prefix per process and a counter.
  const memberPrefix = randomBytes(6).toString('base64url');
  let sequence = 0;
  const coalesce = createWriteCoalescer(() => streamsOf(redis));
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

  const accountStore = createRedisAccountStore(redis, { clock, guard, deadline: (ms) => redisTime.deadline(ms), maxWaitMs, undo: (command) => undo.add(command), newAccountId: options.newAccountId, generateKey: options.generateKey, apis: options.apis });
  const refundArgs = (t: RefundTicket): (string | number)[] => [
    redisKeys.secondLog(t.accountId, t.api),
    redisKeys.month(t.accountId, t.api, t.monthId),
    redisKeys.playgroundLog(t.accountId, t.api, t.dayId),
    redisKeys.day(t.accountId, t.api, t.dayId),
    redisKeys.refunded(t.accountId, t.member),
    t.member,
    t.charged ?? '',
    REFUND_MARKER_TTL_SECONDS,
  ];

  const admit = (request: AdmitRequest): Promise<Admission> => {
    const { accountId, api, nowMs, apiPlans } = request;
    const month = monthWindow(nowMs);
    const day = dayWindow(nowMs);
    const member = `${memberPrefix}:${++sequence}`;
    const ticket: RefundTicket = { accountId, api, monthId: month.id, dayId: day.id, member };
    return guard.run(
        'admit',
        (): Promise<Admission> => {
          coalesce();
          const reply = admitCommandOf(api, apiPlans)(
            redisKeys.account(accountId),
            redisKeys.secrets(accountId),
            redisKeys.secondLog(accountId, api),
            redisKeys.month(accountId, api, month.id),
            redisKeys.day(accountId, api, day.id),
            redisKeys.playgroundLog(accountId, api, day.id),
            request.keyHash,
            nowMs,
            member,
            ttlSeconds(month, nowMs),
            ttlSeconds(day, nowMs),
            redisTime.deadline(maxWaitMs),
          );
          return reply.then(([outcome, plan, used, secondCount, secondResetMs, status, keyId, validUntilMs]) => {
            if (outcome === 'late') throw new Error('the admission reached Redis after its deadline and was not charged');
            const admission: Admission = { outcome, used, secondCount, secondResetMs };
            if (keyId) admission.keyId = keyId;
            if (validUntilMs) admission.validUntilMs = validUntilMs;
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
  };
  // A key made before accounts is moved into its account the first time it is found unknown.
  const admitLegacy = async (request: AdmitRequest): Promise<Admission> => {
    const admission = await admit(request);
    if (admission.outcome !== 'unknown_key') return admission;
    return (await guard.run('migrate', () => migrateLegacyKey(redis, request.keyHash, request.nowMs, [request.api, ...(options.apis ?? [])]))) ? admit(request) : admission;
  };

  const quotaStore: QuotaStore = {
    admit: (request: AdmitRequest) => (request.legacy ? admitLegacy(request) : admit(request)),
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
    usage: (accountId, api, nowMs) =>
      guard.run('usage', async () => {
        const [month, day] = await redis.mget(redisKeys.month(accountId, api, monthWindow(nowMs).id), redisKeys.day(accountId, api, dayWindow(nowMs).id));
        return { month: Number(month ?? 0), day: Number(day ?? 0) };
      }),
    countSignup: (ip, nowMs) =>
      guard.run('signup', () => {
        const hour = hourWindow(nowMs);
        return scripts.tollgateCount(redisKeys.signups(ip, hour.id), ttlSeconds(hour, nowMs));
      }),
    ping: () =>
      guard.run('ping', async () => {
        // A cluster is ready when every master answers: any may hold the next call's account.
        await Promise.all(mastersOf(redis).map((node) => node.ping()));
      }),
    onRevoked: (revoked, listening) => subscribeRevocations(redis, revoked, listening, options.logger),
  };

  return { accountStore, keyStore: createLegacyKeyStore(accountStore), quotaStore, sessionStore: createRedisSessionStore(redis, { guard, clock }), kind: 'redis', persistence: watchPersistence(redis, options.logger) };
}
