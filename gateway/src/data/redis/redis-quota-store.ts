import type { Logger } from '@tollgate/envelope';
import { ACCOUNT_ACTIONS } from '../../domain/account-actions';
import { dayWindow, hourWindow, monthWindow, ttlSeconds } from '../../domain/windows';
import type { Admission, AdmitRequest, QuotaStore, RefundTicket } from '../quota-store';
import { createRedisAdmit, defineRefund } from './redis-admit';
import type { RedisQuotaContext } from './redis-admit';
import { migrateLegacyKey } from './legacy-migration';
import { mastersOf } from './redis-client';
import type { RedisClient } from './redis-client';
import { redisKeys } from './redis-keys';
import { subscribeRevocations } from './revocations';
import { COUNT_SCRIPT } from './scripts/count-script';

/** Options of {@link createRedisQuotaStore}: what it shares with the other Redis stores. */
export interface RedisQuotaStoreOptions extends RedisQuotaContext {
  /** Every API name, so migrating a key made before accounts carries over its playground counters too. */
  apis?: readonly string[];
  logger?: Logger;
}

/** Quota counters, sliding logs and the playground in Redis, shared by every gateway process. */
export function createRedisQuotaStore(redis: RedisClient, options: RedisQuotaStoreOptions): QuotaStore {
  const { guard } = options;
  redis.defineCommand('tollgateCount', { numberOfKeys: 1, lua: COUNT_SCRIPT });
  const count = (redis as unknown as { tollgateCount(...args: (string | number)[]): Promise<number> }).tollgateCount.bind(redis);
  const refund = defineRefund(redis);
  const admit = createRedisAdmit(redis, options, refund);
  // A key made before accounts is moved into its account the first time it is found unknown.
  const admitLegacy = async (request: AdmitRequest): Promise<Admission> => {
    const admission = await admit(request);
    if (admission.outcome !== 'unknown_key') return admission;
    return (await guard.run('migrate', () => migrateLegacyKey(redis, request.keyHash, request.nowMs, [request.api, ...(options.apis ?? [])]))) ? admit(request) : admission;
  };
  return {
    admit: (request: AdmitRequest) => (request.legacy ? admitLegacy(request) : admit(request)),
    // A refund that cannot be sent now (the store is down: when refunds are likeliest) is kept
    // and sent again on reconnection; the marker makes it count once.
    refund: (ticket: RefundTicket) =>
      guard
        .run('refund', async () => {
          await refund(ticket);
        })
        .catch((err: unknown) => {
          options.undo(() => refund(ticket));
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
        return count(redisKeys.signups(ip, hour.id), ttlSeconds(hour, nowMs));
      }),
    countAction: (accountId, action, nowMs) =>
      guard.run('account_action', () => {
        const window = ACCOUNT_ACTIONS[action].window(nowMs);
        return count(redisKeys.accountAction(accountId, action, window.id), ttlSeconds(window, nowMs));
      }),
    ping: () =>
      guard.run('ping', async () => {
        // A cluster is ready when every master answers: any may hold the next call's account.
        await Promise.all(mastersOf(redis).map((node) => node.ping()));
      }),
    onRevoked: (revoked, listening) => subscribeRevocations(redis, revoked, listening, options.logger),
  };
}
