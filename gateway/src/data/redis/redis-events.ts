import { DELIVERIES_LISTED, DELIVERY_KEPT_MS, EndpointLimitError, PendingLimitError } from '../event-store';
import type { Delivery, EventPreferences, EventStore, WebhookEndpoint } from '../event-store';
import type { RedisClient } from './redis-client';
import { redisKeys } from './redis-keys';
import type { StoreGuard } from './store-guard';

/**
 * Adds an endpoint unless the account holds `max` already (counted and written in one step, on the
 * account's slot). KEYS: 1 events hash. ARGV: 1 field, 2 JSON, 3 max. Returns 1 when added.
 */
const CREATE_ENDPOINT_SCRIPT = `
local count = 0
for _, name in ipairs(redis.call('HKEYS', KEYS[1])) do
  if string.sub(name, 1, 9) == 'endpoint:' then count = count + 1 end
end
if count >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
`;

/**
 * Replaces a kept field only, and only while it holds ARGV[3] when that is not empty. KEYS: 1 hash.
 * ARGV: 1 field, 2 value, 3 the value expected (or ''). Returns 1 when replaced.
 */
const REPLACE_SCRIPT = `
local kept = redis.call('HGET', KEYS[1], ARGV[1])
if not kept or (ARGV[3] ~= '' and kept ~= ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
`;

/**
 * Leases what is due: up to ARGV[2] members scored at or before ARGV[1] get the lease's end
 * (ARGV[3]) as their score, so no other gateway takes them meanwhile. KEYS: 1 the queue.
 */
const CLAIM_DUE_SCRIPT = `
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, member in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[3], member) end
return due
`;

/**
 * Writes a delivery, lists it for its endpoint (the newest DELIVERIES_LISTED kept) and in the
 * account's index of deliveries (those past the keeping dropped), and counts it pending or not, all
 * on the account's slot; nothing for an account that is gone (an attempt that ended after its
 * erasure writes nothing back). KEYS: 1 the record, 2 the endpoint's list, 3 the account's index,
 * 4 its pending set, 5 the account's record. ARGV: 1 JSON, 2 TTL (ms), 3 created (ms), 4 id, 5 how
 * many are listed, 6 '1' when pending. Returns 1, or 0 when the account is gone.
 */
const SAVE_DELIVERY_SCRIPT = `
if redis.call('EXISTS', KEYS[5]) == 0 then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -1 - tonumber(ARGV[5]))
redis.call('PEXPIRE', KEYS[2], ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', tonumber(ARGV[3]) - tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[3], ARGV[2])
if ARGV[6] == '1' then
  redis.call('ZADD', KEYS[4], ARGV[3], ARGV[4])
  redis.call('PEXPIRE', KEYS[4], ARGV[2])
else
  redis.call('ZREM', KEYS[4], ARGV[4])
end
return 1
`;

/**
 * Makes room for new pending deliveries of one account unless it would then hold more than the cap:
 * counted and added in one step, so requests at once cannot pass it together. Entries older than
 * any delivery can stay pending (its retries end within days) are dropped first: a gateway that died
 * between this and the record's write leaves none for long.
 * KEYS: 1 the pending set. ARGV: 1 the cap, 2 older than this (ms) is dropped, 3 TTL (ms), then id, created (ms) pairs.
 * Returns 1, or 0 at the cap.
 */
const RESERVE_PENDING_SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
local adding = 0
for i = 4, #ARGV, 2 do
  if not redis.call('ZSCORE', KEYS[1], ARGV[i]) then adding = adding + 1 end
end
if redis.call('ZCARD', KEYS[1]) + adding > tonumber(ARGV[1]) then return 0 end
for i = 4, #ARGV, 2 do redis.call('ZADD', KEYS[1], ARGV[i + 1], ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`;

// A delivery is pending for about 28 hours of retries, longer only when an endpoint asks for long Retry-After waits.
const PENDING_AT_MOST_MS = 7 * 86_400_000;

/**
 * Claims a name unless a claim of it has not lapsed (its end, in ms of the gateway's clock, is the
 * value, as webhook event claims keep theirs). KEYS: 1 the claim. ARGV: 1 now, 2 its end, 3 TTL (ms).
 */
const CLAIM_SCRIPT = `
local held = redis.call('GET', KEYS[1])
if held and tonumber(held) > tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
`;

interface EventScripts {
  tollgateClaimOnce(key: string, nowMs: number, endMs: number, ttlMs: number): Promise<number>;
  tollgateCreateEndpoint(events: string, field: string, json: string, max: number): Promise<number>;
  tollgateReplaceField(hash: string, field: string, json: string, expected: string): Promise<number>;
  tollgateClaimDue(queue: string, nowMs: number, limit: number, leaseEndMs: number): Promise<string[]>;
  tollgateSaveDelivery(record: string, list: string, index: string, pending: string, account: string, json: string, ttlMs: number, createdMs: number, id: string, listed: number, isPending: '1' | '0'): Promise<number>;
  tollgateReservePending(pending: string, max: number, olderMs: number, ttlMs: number, ...idsAndCreated: (string | number)[]): Promise<number>;
}

const ENDPOINT = 'endpoint:';
const PREFS = 'prefs';
const VERSION = '_version';
const byCreation = (a: WebhookEndpoint, b: WebhookEndpoint): number => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id);

/**
 * Events in Redis: an account's preferences and endpoints in one hash and its deliveries beside it,
 * all in the account's slot; the queue of due deliveries, the thresholds index and the account index
 * each one key of its own (every gateway reads them), as `gw:accounts` is.
 */
export function createRedisEventStore(redis: RedisClient, guard: StoreGuard): EventStore {
  redis.defineCommand('tollgateClaimOnce', { numberOfKeys: 1, lua: CLAIM_SCRIPT });
  redis.defineCommand('tollgateCreateEndpoint', { numberOfKeys: 1, lua: CREATE_ENDPOINT_SCRIPT });
  redis.defineCommand('tollgateReplaceField', { numberOfKeys: 1, lua: REPLACE_SCRIPT });
  redis.defineCommand('tollgateClaimDue', { numberOfKeys: 1, lua: CLAIM_DUE_SCRIPT });
  redis.defineCommand('tollgateSaveDelivery', { numberOfKeys: 5, lua: SAVE_DELIVERY_SCRIPT });
  redis.defineCommand('tollgateReservePending', { numberOfKeys: 1, lua: RESERVE_PENDING_SCRIPT });
  const scripts = redis as unknown as EventScripts;
  const member = (d: Pick<Delivery, 'account_id' | 'id'>): string => `${d.account_id}:${d.id}`;
  const save = (d: Delivery): Promise<number> =>
    scripts.tollgateSaveDelivery(
      redisKeys.delivery(d.account_id, d.id),
      redisKeys.deliveries(d.account_id, d.endpoint_id),
      redisKeys.deliveryIndex(d.account_id),
      redisKeys.pendingDeliveries(d.account_id),
      redisKeys.account(d.account_id),
      JSON.stringify(d),
      DELIVERY_KEPT_MS,
      Date.parse(d.created_at),
      d.id,
      DELIVERIES_LISTED,
      d.state === 'pending' ? '1' : '0',
    );
  // False when an account would pass the cap (thrown outside the guard, which makes every error a store failure).
  const reserve = async (list: readonly Delivery[], max: number): Promise<boolean> => {
    const byAccount = new Map<string, Delivery[]>();
    for (const d of list) byAccount.set(d.account_id, [...(byAccount.get(d.account_id) ?? []), d]);
    for (const [accountId, own] of byAccount) {
      const pairs = own.flatMap((d) => [d.id, Date.parse(d.created_at)]);
      const oldest = Math.min(...own.map((d) => Date.parse(d.created_at)));
      if (!(await scripts.tollgateReservePending(redisKeys.pendingDeliveries(accountId), max, oldest - PENDING_AT_MOST_MS, DELIVERY_KEPT_MS, ...pairs))) return false;
    }
    return true;
  };
  const readDeliveries = async (pairs: [string, string][]): Promise<Delivery[]> => {
    const values = await Promise.all(pairs.map(([accountId, id]) => redis.get(redisKeys.delivery(accountId, id))));
    return values.filter((v): v is string => v !== null).map((v) => JSON.parse(v) as Delivery);
  };
  const indexAccount = (accountId: string): Promise<number> => redis.zadd(redisKeys.eventAccounts(), 0, accountId);

  return {
    getPreferences: (accountId) =>
      guard.run('get_event_preferences', async () => {
        const json = await redis.hget(redisKeys.events(accountId), PREFS);
        return json ? (JSON.parse(json) as EventPreferences) : { mail: {}, thresholds: {} };
      }),
    setPreferences: (accountId, prefs) =>
      guard.run('set_event_preferences', async () => {
        await redis.hset(redisKeys.events(accountId), PREFS, JSON.stringify(prefs));
        const index = redisKeys.eventThresholds();
        if (Object.keys(prefs.thresholds).length) await redis.hset(index, accountId, JSON.stringify(prefs.thresholds));
        else await redis.hdel(index, accountId);
        await redis.hincrby(index, VERSION, 1);
        await indexAccount(accountId);
      }),
    customThresholds: () =>
      guard.run('event_thresholds', async () => {
        const fields = await redis.hgetall(redisKeys.eventThresholds());
        const thresholds = new Map<string, Record<string, number[]>>();
        for (const [name, value] of Object.entries(fields)) if (name !== VERSION) thresholds.set(name, JSON.parse(value) as Record<string, number[]>);
        return { version: Number(fields[VERSION] ?? 0), thresholds };
      }),
    thresholdsVersion: () => guard.run('event_thresholds_version', async () => Number((await redis.hget(redisKeys.eventThresholds(), VERSION)) ?? 0)),
    claim: (requests, nowMs) =>
      guard.run('claim_events', () =>
        Promise.all(
          requests.map(async ({ accountId, name, expiresAtMs }) => {
            const key = accountId === undefined ? redisKeys.jobClaim(name) : redisKeys.eventClaim(accountId, name);
            return (await scripts.tollgateClaimOnce(key, nowMs, expiresAtMs, Math.max(1, expiresAtMs - nowMs))) === 1;
          }),
        ),
      ),
    async createEndpoint(endpoint, max) {
      const added = await guard.run('create_endpoint', async () => {
        const made = await scripts.tollgateCreateEndpoint(redisKeys.events(endpoint.account_id), ENDPOINT + endpoint.id, JSON.stringify(endpoint), max);
        if (made) await indexAccount(endpoint.account_id);
        return made === 1;
      });
      if (!added) throw new EndpointLimitError(max);
    },
    listEndpoints: (accountId) =>
      guard.run('list_endpoints', async () => {
        const fields = await redis.hgetall(redisKeys.events(accountId));
        return Object.entries(fields)
          .filter(([name]) => name.startsWith(ENDPOINT))
          .map(([, json]) => JSON.parse(json) as WebhookEndpoint)
          .sort(byCreation);
      }),
    getEndpoint: (accountId, endpointId) =>
      guard.run('get_endpoint', async () => {
        const json = await redis.hget(redisKeys.events(accountId), ENDPOINT + endpointId);
        return json ? (JSON.parse(json) as WebhookEndpoint) : undefined;
      }),
    // A kept record reads back as written, so the expected one's JSON is the kept string.
    putEndpoint: (endpoint, expected) =>
      guard.run('put_endpoint', async () => (await scripts.tollgateReplaceField(redisKeys.events(endpoint.account_id), ENDPOINT + endpoint.id, JSON.stringify(endpoint), expected === undefined ? '' : JSON.stringify(expected))) === 1),
    deleteEndpoint: (accountId, endpointId) => guard.run('delete_endpoint', async () => (await redis.hdel(redisKeys.events(accountId), ENDPOINT + endpointId)) === 1),
    async enqueue(list, maxPending) {
      const queued = await guard.run('enqueue_deliveries', async () => {
        if (maxPending !== undefined && !(await reserve(list, maxPending))) return false;
        // The record first: a gateway that leases the queue entry finds it.
        const saved = await Promise.all(list.map(save));
        const kept = list.filter((_, i) => saved[i] === 1);
        if (kept.length) await redis.zadd(redisKeys.deliveryQueue(), ...kept.flatMap((d) => [Date.parse(d.next_attempt_at ?? d.created_at), member(d)]));
        return true;
      });
      if (!queued) throw new PendingLimitError(maxPending ?? 0);
    },
    claimDue: (nowMs, limit, leaseMs) =>
      guard.run('claim_deliveries', async () => {
        const members = await scripts.tollgateClaimDue(redisKeys.deliveryQueue(), nowMs, limit, nowMs + leaseMs);
        const pairs = members.map((m): [string, string] => {
          const colon = m.indexOf(':');
          return [m.slice(0, colon), m.slice(colon + 1)];
        });
        const found = await readDeliveries(pairs);
        // A queue entry whose record lapsed (kept 30 days) is dropped.
        const known = new Set(found.map(member));
        const lost = members.filter((m) => !known.has(m));
        if (lost.length) await redis.zrem(redisKeys.deliveryQueue(), ...lost);
        for (const [accountId, id] of pairs.filter(([accountId, id]) => !known.has(`${accountId}:${id}`))) await redis.zrem(redisKeys.pendingDeliveries(accountId), id);
        return found.filter((d) => d.state === 'pending');
      }),
    saveDelivery: (delivery) =>
      guard.run('save_delivery', async () => {
        if (!(await save(delivery))) {
          await redis.zrem(redisKeys.deliveryQueue(), member(delivery));
          return;
        }
        if (delivery.state === 'pending') await redis.zadd(redisKeys.deliveryQueue(), Date.parse(delivery.next_attempt_at ?? delivery.created_at), member(delivery));
        else await redis.zrem(redisKeys.deliveryQueue(), member(delivery));
      }),
    listDeliveries: (accountId, endpointId) =>
      guard.run('list_deliveries', async () => {
        const ids = await redis.zrevrange(redisKeys.deliveries(accountId, endpointId), 0, DELIVERIES_LISTED - 1);
        return readDeliveries(ids.map((id) => [accountId, id]));
      }),
    getDelivery: (accountId, deliveryId) =>
      guard.run('get_delivery', async () => {
        const json = await redis.get(redisKeys.delivery(accountId, deliveryId));
        return json ? (JSON.parse(json) as Delivery) : undefined;
      }),
    deleteAccountEvents: (accountId) =>
      guard.run('delete_account_events', async () => {
        const fields = await redis.hgetall(redisKeys.events(accountId));
        const endpointIds = Object.keys(fields).filter((name) => name.startsWith(ENDPOINT)).map((name) => name.slice(ENDPOINT.length));
        const lists = endpointIds.map((id) => redisKeys.deliveries(accountId, id));
        // Deliveries from the account's index, and from its endpoints' lists (what gateways before the index wrote).
        const ids = new Set(await redis.zrange(redisKeys.deliveryIndex(accountId), 0, -1));
        for (const list of lists) for (const id of await redis.zrange(list, 0, -1)) ids.add(id);
        for (const id of await redis.zrange(redisKeys.pendingDeliveries(accountId), 0, -1)) ids.add(id);
        if (ids.size) await redis.zrem(redisKeys.deliveryQueue(), ...[...ids].map((id) => `${accountId}:${id}`));
        await redis.del(redisKeys.events(accountId), redisKeys.deliveryIndex(accountId), redisKeys.pendingDeliveries(accountId), ...lists, ...[...ids].map((id) => redisKeys.delivery(accountId, id)));
        if (await redis.hdel(redisKeys.eventThresholds(), accountId)) await redis.hincrby(redisKeys.eventThresholds(), VERSION, 1);
        await redis.zrem(redisKeys.eventAccounts(), accountId);
      }),
    listEventAccounts: ({ cursor, limit }) =>
      guard.run('list_event_accounts', async () => {
        const ids = await redis.zrangebylex(redisKeys.eventAccounts(), cursor ? `(${cursor}` : '-', '+', 'LIMIT', 0, limit + 1);
        const items = ids.slice(0, limit);
        return { items, next_cursor: ids.length > limit ? (items.at(-1) ?? null) : null };
      }),
  };
}
