import { DELIVERIES_LISTED, DELIVERY_KEPT_MS, EndpointLimitError } from '../event-store';
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
 * Writes a delivery and lists it for its endpoint (the newest DELIVERIES_LISTED kept), both on the
 * account's slot. KEYS: 1 the record, 2 the endpoint's list. ARGV: 1 JSON, 2 TTL (ms), 3 created
 * (ms), 4 id, 5 how many are listed.
 */
const SAVE_DELIVERY_SCRIPT = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -1 - tonumber(ARGV[5]))
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return 1
`;

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
  tollgateSaveDelivery(record: string, list: string, json: string, ttlMs: number, createdMs: number, id: string, listed: number): Promise<number>;
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
  redis.defineCommand('tollgateSaveDelivery', { numberOfKeys: 2, lua: SAVE_DELIVERY_SCRIPT });
  const scripts = redis as unknown as EventScripts;
  const member = (d: Pick<Delivery, 'account_id' | 'id'>): string => `${d.account_id}:${d.id}`;
  const save = (d: Delivery): Promise<number> =>
    scripts.tollgateSaveDelivery(redisKeys.delivery(d.account_id, d.id), redisKeys.deliveries(d.account_id, d.endpoint_id), JSON.stringify(d), DELIVERY_KEPT_MS, Date.parse(d.created_at), d.id, DELIVERIES_LISTED);
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
    enqueue: (list) =>
      guard.run('enqueue_deliveries', async () => {
        // The record first: a gateway that leases the queue entry finds it.
        await Promise.all(list.map(save));
        if (list.length) await redis.zadd(redisKeys.deliveryQueue(), ...list.flatMap((d) => [Date.parse(d.next_attempt_at ?? d.created_at), member(d)]));
      }),
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
        return found.filter((d) => d.state === 'pending');
      }),
    saveDelivery: (delivery) =>
      guard.run('save_delivery', async () => {
        await save(delivery);
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
    listEventAccounts: ({ cursor, limit }) =>
      guard.run('list_event_accounts', async () => {
        const ids = await redis.zrangebylex(redisKeys.eventAccounts(), cursor ? `(${cursor}` : '-', '+', 'LIMIT', 0, limit + 1);
        const items = ids.slice(0, limit);
        return { items, next_cursor: ids.length > limit ? (items.at(-1) ?? null) : null };
      }),
  };
}
