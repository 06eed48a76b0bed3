import { EVENT_KEPT_MS, EVENT_LEASE_MS } from '../billing-store';
import type { AccountBilling, BillingRecord, BillingStore } from '../billing-store';
import { encodeSubscription, subscriptionField } from './record-codec';
import type { RedisClient } from './redis-client';
import { redisKeys } from './redis-keys';
import type { StoreGuard } from './store-guard';

/**
 * Sets one API's billing record and the account's subscription to it in one step (both keys carry
 * the account's hash tag: one Cluster slot), and returns the record before.
 * KEYS: 1 billing hash, 2 account hash. ARGV: 1 record field, 2 record JSON ('' drops it),
 * 3 subscription field, 4 encoded subscription ('' cancels it, '-' leaves it).
 * Returns {0, ''} for an unknown account, else {1, previous JSON or ''}.
 */
const APPLY_SCRIPT = `
if redis.call('EXISTS', KEYS[2]) == 0 then return {0, ''} end
local previous = redis.call('HGET', KEYS[1], ARGV[1]) or ''
if ARGV[2] == '' then redis.call('HDEL', KEYS[1], ARGV[1]) else redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
if ARGV[4] == '' then redis.call('HDEL', KEYS[2], ARGV[3]) elseif ARGV[4] ~= '-' then redis.call('HSET', KEYS[2], ARGV[3], ARGV[4]) end
return {1, previous}
`;

/**
 * Keeps the account's customer for a currency unless one is kept: the first writer wins.
 * KEYS: 1 billing hash, 2 account hash. ARGV: 1 customer field, 2 customer id.
 * Returns the customer kept, or '' for an unknown account.
 */
const REMEMBER_CUSTOMER_SCRIPT = `
if redis.call('EXISTS', KEYS[2]) == 0 then return '' end
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 1 then return ARGV[2] end
return redis.call('HGET', KEYS[1], ARGV[1])
`;

/**
 * Makes a session the account's last checkout of an API and returns the one before.
 * KEYS: 1 billing hash, 2 account hash. ARGV: 1 checkout field, 2 session id.
 * Returns {0, ''} for an unknown account, else {1, the session before or ''}.
 */
const SWAP_CHECKOUT_SCRIPT = `
if redis.call('EXISTS', KEYS[2]) == 0 then return {0, ''} end
local before = redis.call('HGET', KEYS[1], ARGV[1]) or ''
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return {1, before}
`;

/**
 * Claims a webhook event: handled (`done`) or held by a lease that has not lapsed (its end, in ms
 * of the gateway's clock) leaves it; else a new lease is taken.
 * KEYS: 1 event. ARGV: 1 now (ms), 2 lease end (ms), 3 lease (ms, the key's TTL).
 */
const CLAIM_EVENT_SCRIPT = `
local held = redis.call('GET', KEYS[1])
if held == 'done' then return 'done' end
if held and tonumber(held) > tonumber(ARGV[1]) then return 'busy' end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 'claimed'
`;

/**
 * Lets go of a lease if it is still the one taken (its end, ARGV 1): not an event handled since,
 * nor another gateway's lease taken after this one lapsed.
 * KEYS: 1 event. Returns 1 when released.
 */
const RELEASE_CLAIM_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

interface BillingScripts {
  tollgateClaimEvent(event: string, nowMs: number, leaseEndMs: number, leaseMs: number): Promise<'claimed' | 'done' | 'busy'>;
  tollgateReleaseClaim(event: string, leaseEndMs: number): Promise<number>;
  tollgateApplyBilling(billing: string, account: string, field: string, record: string, subField: string, subscription: string): Promise<[number, string]>;
  tollgateRememberCustomer(billing: string, account: string, field: string, customerId: string): Promise<string>;
  tollgateSwapCheckout(billing: string, account: string, field: string, sessionId: string): Promise<[number, string]>;
}

const CUSTOMER = 'customer:';
const API = 'api:';
const CHECKOUT = 'checkout:';

/** An account's billing from its hash fields. */
function decodeBilling(fields: Record<string, string>): AccountBilling {
  const billing: AccountBilling = { customers: {}, subscriptions: {} };
  for (const [name, value] of Object.entries(fields)) {
    if (name.startsWith(CUSTOMER)) billing.customers[name.slice(CUSTOMER.length)] = value;
    else if (name.startsWith(API)) billing.subscriptions[name.slice(API.length)] = JSON.parse(value) as BillingRecord;
  }
  return billing;
}

/**
 * Billing in Redis: each account's in one hash in its own slot; customers, the index and event ids
 * each under their own name. `undo` sends what undoes a command the caller was told failed (the undo queue).
 */
export function createRedisBillingStore(redis: RedisClient, guard: StoreGuard, undo: (command: () => Promise<unknown>) => void): BillingStore {
  redis.defineCommand('tollgateApplyBilling', { numberOfKeys: 2, lua: APPLY_SCRIPT });
  redis.defineCommand('tollgateRememberCustomer', { numberOfKeys: 2, lua: REMEMBER_CUSTOMER_SCRIPT });
  redis.defineCommand('tollgateClaimEvent', { numberOfKeys: 1, lua: CLAIM_EVENT_SCRIPT });
  redis.defineCommand('tollgateReleaseClaim', { numberOfKeys: 1, lua: RELEASE_CLAIM_SCRIPT });
  redis.defineCommand('tollgateSwapCheckout', { numberOfKeys: 2, lua: SWAP_CHECKOUT_SCRIPT });
  const scripts = redis as unknown as BillingScripts;
  return {
    getBilling: (accountId) =>
      guard.run('get_billing', async () => {
        const [exists, fields] = await Promise.all([redis.exists(redisKeys.account(accountId)), redis.hgetall(redisKeys.billing(accountId))]);
        return exists ? decodeBilling(fields) : undefined;
      }),
    rememberCustomer: (accountId, currency, customerId) =>
      guard.run('remember_customer', async () => {
        // Findable before it is kept: a webhook for it may come as soon as a checkout uses it.
        await redis.set(redisKeys.billingCustomer(customerId), accountId);
        const kept = await scripts.tollgateRememberCustomer(redisKeys.billing(accountId), redisKeys.account(accountId), CUSTOMER + currency, customerId);
        if (kept !== customerId) await redis.del(redisKeys.billingCustomer(customerId));
        if (!kept) return undefined;
        await redis.zadd(redisKeys.billingIndex(), 0, accountId);
        return kept;
      }),
    swapCheckout: (accountId, api, sessionId) =>
      guard.run('swap_checkout', async () => {
        const [exists, before] = await scripts.tollgateSwapCheckout(redisKeys.billing(accountId), redisKeys.account(accountId), CHECKOUT + api, sessionId);
        return exists ? before || null : undefined;
      }),
    accountOfCustomer: (customerId) => guard.run('account_of_customer', async () => (await redis.get(redisKeys.billingCustomer(customerId))) ?? undefined),
    applyBilling: (accountId, api, change) =>
      guard.run('apply_billing', async () => {
        const subscription = change.subscription === undefined ? '-' : change.subscription === null ? '' : encodeSubscription(change.subscription);
        const [exists, previous] = await scripts.tollgateApplyBilling(
          redisKeys.billing(accountId),
          redisKeys.account(accountId),
          API + api,
          change.record ? JSON.stringify(change.record) : '',
          subscriptionField(api),
          subscription,
        );
        if (!exists) return undefined;
        await redis.zadd(redisKeys.billingIndex(), 0, accountId);
        return { previous: previous ? (JSON.parse(previous) as BillingRecord) : null };
      }),
    listBilledAccounts: ({ cursor, limit }) =>
      guard.run('list_billed_accounts', async () => {
        const ids = await redis.zrangebylex(redisKeys.billingIndex(), cursor ? `(${cursor}` : '-', '+', 'LIMIT', 0, limit + 1);
        const items = ids.slice(0, limit);
        return { items, next_cursor: ids.length > limit ? (items.at(-1) ?? null) : null };
      }),
    claimEvent: (eventId, nowMs) => {
      const key = redisKeys.billingEvent(eventId);
      const leaseEnd = nowMs + EVENT_LEASE_MS;
      // A claim Redis runs after the caller was told it failed would hold the event for the whole
      // lease with no handler behind it: every redelivery meanwhile refused as busy. The release
      // goes on the same connection (the same slot), so Redis runs it after the late claim; it lets
      // go only of this lease, and the undo queue sends it again if the connection was lost.
      return guard.run('claim_event', () => scripts.tollgateClaimEvent(key, nowMs, leaseEnd, EVENT_LEASE_MS), () => undo(() => scripts.tollgateReleaseClaim(key, leaseEnd)));
    },
    settleEvent: (eventId, handled) =>
      guard.run('settle_event', async () => {
        const key = redisKeys.billingEvent(eventId);
        if (handled) await redis.set(key, 'done', 'PX', EVENT_KEPT_MS);
        else await redis.del(key);
      }),
  };
}
