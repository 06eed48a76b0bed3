import { EVENT_KEPT_MS, EVENT_LEASE_MS } from '../billing-store';
import type { AccountBilling, BillingStore } from '../billing-store';
import type { MemoryParts } from './account-state';

// Lapsed event ids are dropped at most this often (a sweep over them all).
const SWEEP_EVERY_MS = 60_000;

/**
 * Billing in this process, beside the accounts: a change to a record and the account's
 * subscription is one synchronous step, as the Redis script makes it one.
 */
export function createMemoryBillingStore(parts: MemoryParts): BillingStore {
  const { accounts, billing, customers, events, persist } = parts;
  let sweptAt = 0;
  const billingOf = (accountId: string): AccountBilling => {
    let found = billing.get(accountId);
    if (!found) billing.set(accountId, (found = { customers: {}, subscriptions: {} }));
    return found;
  };
  const sweep = (nowMs: number): void => {
    if (nowMs - sweptAt < SWEEP_EVERY_MS) return;
    sweptAt = nowMs;
    for (const [id, event] of events) {
      if (event.expiresAtMs > nowMs) continue;
      events.delete(id);
      persist?.event(id);
    }
  };
  return {
    async getBilling(accountId) {
      if (!accounts.has(accountId)) return undefined;
      const { customers: own, subscriptions } = billing.get(accountId) ?? { customers: {}, subscriptions: {} };
      return structuredClone({ customers: own, subscriptions });
    },
    async swapCheckout(accountId, api, sessionId) {
      if (!accounts.has(accountId)) return undefined;
      const own = billingOf(accountId);
      const replaced = own.checkouts?.[api] ?? null;
      own.checkouts = { ...own.checkouts, [api]: sessionId };
      persist?.billing(accountId, false);
      return replaced;
    },
    async rememberCustomer(accountId, currency, customerId) {
      if (!accounts.has(accountId)) return undefined;
      const own = billingOf(accountId);
      const kept = own.customers[currency];
      if (kept !== undefined) return kept;
      own.customers[currency] = customerId;
      customers.set(customerId, accountId);
      persist?.billing(accountId, false);
      return customerId;
    },
    accountOfCustomer: async (customerId) => customers.get(customerId),
    async applyBilling(accountId, api, change) {
      const account = accounts.get(accountId);
      if (!account) return undefined;
      const own = billingOf(accountId);
      const previous = own.subscriptions[api] ?? null;
      if (change.record) own.subscriptions[api] = structuredClone(change.record);
      else delete own.subscriptions[api];
      if (change.subscription) account.subscriptions[api] = { ...change.subscription };
      else if (change.subscription === null) delete account.subscriptions[api];
      persist?.billing(accountId, change.subscription !== undefined);
      return { previous };
    },
    async listBilledAccounts({ cursor, limit }) {
      const ids = [...billing.keys()].sort();
      const after = cursor === undefined ? ids : ids.filter((id) => id > cursor);
      const items = after.slice(0, limit);
      return { items, next_cursor: after.length > limit ? (items.at(-1) ?? null) : null };
    },
    async claimEvent(eventId, nowMs) {
      sweep(nowMs);
      const event = events.get(eventId);
      if (event && event.expiresAtMs > nowMs) return event.state === 'done' ? 'done' : 'busy';
      events.set(eventId, { state: 'processing', expiresAtMs: nowMs + EVENT_LEASE_MS });
      persist?.event(eventId);
      return 'claimed';
    },
    async settleEvent(eventId, handled, nowMs) {
      if (handled) events.set(eventId, { state: 'done', expiresAtMs: nowMs + EVENT_KEPT_MS });
      else events.delete(eventId);
      persist?.event(eventId);
    },
  };
}
