import { DELIVERIES_LISTED, DELIVERY_KEPT_MS, EndpointLimitError, PendingLimitError } from '../event-store';
import type { Delivery, EventPreferences, EventStore, WebhookEndpoint } from '../event-store';

/** Everything the memory event store holds; handed to it pre-filled by the SQLite store. */
export interface MemoryEventState {
  preferences: Map<string, EventPreferences>;
  endpoints: Map<string, WebhookEndpoint>;
  deliveries: Map<string, Delivery>;
  /** Pending deliveries → when they are due (their lease's end while one is held). */
  due: Map<string, number>;
  /** `<accountId>|<name>` → when the claim lapses. */
  claims: Map<string, number>;
}

/** Told of every change, before the operation resolves (the SQLite store writes it through). */
export interface MemoryEventPersistence {
  preferences(accountId: string): void;
  endpoint(endpointId: string): void;
  delivery(deliveryId: string): void;
  claim(name: string): void;
}

export function emptyEventState(): MemoryEventState {
  return { preferences: new Map(), endpoints: new Map(), deliveries: new Map(), due: new Map(), claims: new Map() };
}

// Lapsed claims and old deliveries are dropped at most this often.
const SWEEP_EVERY_MS = 60_000;
const copy = <T>(value: T): T => structuredClone(value);
const ms = (iso: string | null): number => (iso === null ? 0 : Date.parse(iso));

/** Events held in this process: each step is synchronous, so it is atomic as the Redis scripts are. */
export function createMemoryEventStore(options: { clock: () => number; state?: MemoryEventState; persist?: MemoryEventPersistence; accountExists?: (accountId: string) => boolean }): EventStore {
  const state = options.state ?? emptyEventState();
  const { preferences, endpoints, deliveries, due, claims } = state;
  const persist = options.persist;
  let version = 0;
  let sweptAt = 0;
  const sweep = (nowMs: number): void => {
    if (nowMs - sweptAt < SWEEP_EVERY_MS) return;
    sweptAt = nowMs;
    for (const [name, until] of claims) {
      if (until > nowMs) continue;
      claims.delete(name);
      persist?.claim(name);
    }
    for (const [id, delivery] of deliveries) {
      if (due.has(id) || ms(delivery.created_at) + DELIVERY_KEPT_MS > nowMs) continue;
      deliveries.delete(id);
      persist?.delivery(id);
    }
  };
  // Each account's pending deliveries (those in `due`), for the cap on them; made from the state once.
  const pending = new Map<string, Set<string>>();
  const setPending = (delivery: Pick<Delivery, 'id' | 'account_id'>, on: boolean): void => {
    let ids = pending.get(delivery.account_id);
    if (on) {
      if (!ids) pending.set(delivery.account_id, (ids = new Set()));
      ids.add(delivery.id);
    } else if (ids?.delete(delivery.id) && ids.size === 0) {
      pending.delete(delivery.account_id);
    }
  };
  for (const id of due.keys()) {
    const delivery = deliveries.get(id);
    if (delivery) setPending(delivery, true);
  }
  const endpointsOf = (accountId: string): WebhookEndpoint[] => [...endpoints.values()].filter((e) => e.account_id === accountId).sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  const hasSettings = (accountId: string): boolean => preferences.has(accountId) || endpointsOf(accountId).length > 0;

  return {
    async getPreferences(accountId) {
      return copy(preferences.get(accountId) ?? { mail: {}, thresholds: {} });
    },
    async setPreferences(accountId, next) {
      preferences.set(accountId, copy(next));
      version += 1;
      persist?.preferences(accountId);
    },
    async customThresholds() {
      const thresholds = new Map<string, Record<string, number[]>>();
      for (const [accountId, prefs] of preferences) if (Object.keys(prefs.thresholds).length) thresholds.set(accountId, copy(prefs.thresholds));
      return { version, thresholds };
    },
    thresholdsVersion: async () => version,
    async claim(requests, nowMs) {
      sweep(nowMs);
      return requests.map(({ accountId, name, expiresAtMs }) => {
        const key = `${accountId ?? ''}|${name}`;
        if ((claims.get(key) ?? 0) > nowMs) return false;
        claims.set(key, expiresAtMs);
        persist?.claim(key);
        return true;
      });
    },
    async createEndpoint(endpoint, max) {
      if (endpointsOf(endpoint.account_id).length >= max) throw new EndpointLimitError(max);
      endpoints.set(endpoint.id, copy(endpoint));
      persist?.endpoint(endpoint.id);
    },
    listEndpoints: async (accountId) => copy(endpointsOf(accountId)),
    async getEndpoint(accountId, endpointId) {
      const found = endpoints.get(endpointId);
      return found && found.account_id === accountId ? copy(found) : undefined;
    },
    async putEndpoint(endpoint, expected) {
      const kept = endpoints.get(endpoint.id);
      if (!kept || kept.account_id !== endpoint.account_id) return false;
      if (expected !== undefined && JSON.stringify(kept) !== JSON.stringify(expected)) return false;
      endpoints.set(endpoint.id, copy(endpoint));
      persist?.endpoint(endpoint.id);
      return true;
    },
    async deleteEndpoint(accountId, endpointId) {
      const kept = endpoints.get(endpointId);
      if (!kept || kept.account_id !== accountId) return false;
      endpoints.delete(endpointId);
      persist?.endpoint(endpointId);
      return true;
    },
    async enqueue(all, maxPending) {
      // Nothing is kept for an account that is gone (an attempt that ended after its erasure writes nothing back).
      const list = all.filter((d) => options.accountExists?.(d.account_id) !== false);
      if (maxPending !== undefined) {
        const adding = new Map<string, number>();
        for (const d of list) if (!pending.get(d.account_id)?.has(d.id)) adding.set(d.account_id, (adding.get(d.account_id) ?? 0) + 1);
        for (const [accountId, n] of adding) if ((pending.get(accountId)?.size ?? 0) + n > maxPending) throw new PendingLimitError(maxPending);
      }
      for (const delivery of list) {
        deliveries.set(delivery.id, copy(delivery));
        due.set(delivery.id, ms(delivery.next_attempt_at));
        setPending(delivery, true);
        persist?.delivery(delivery.id);
      }
    },
    async claimDue(nowMs, limit, leaseMs) {
      sweep(nowMs);
      const ready = [...due].filter(([, at]) => at <= nowMs).sort((a, b) => a[1] - b[1]).slice(0, limit);
      const out: Delivery[] = [];
      for (const [id] of ready) {
        const delivery = deliveries.get(id);
        if (!delivery) {
          due.delete(id);
          continue;
        }
        due.set(id, nowMs + leaseMs);
        out.push(copy(delivery));
      }
      return out;
    },
    async saveDelivery(delivery) {
      if (options.accountExists?.(delivery.account_id) === false) {
        due.delete(delivery.id);
        return;
      }
      deliveries.set(delivery.id, copy(delivery));
      if (delivery.state === 'pending') due.set(delivery.id, ms(delivery.next_attempt_at));
      else due.delete(delivery.id);
      setPending(delivery, delivery.state === 'pending');
      persist?.delivery(delivery.id);
    },
    async listDeliveries(accountId, endpointId) {
      const own = [...deliveries.values()].filter((d) => d.account_id === accountId && d.endpoint_id === endpointId);
      return copy(own.sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id)).slice(0, DELIVERIES_LISTED));
    },
    async getDelivery(accountId, deliveryId) {
      const found = deliveries.get(deliveryId);
      return found && found.account_id === accountId ? copy(found) : undefined;
    },
    async deleteAccountEvents(accountId) {
      if (preferences.delete(accountId)) {
        version += 1;
        persist?.preferences(accountId);
      }
      for (const endpoint of endpointsOf(accountId)) {
        endpoints.delete(endpoint.id);
        persist?.endpoint(endpoint.id);
      }
      for (const [id, delivery] of deliveries) {
        if (delivery.account_id !== accountId) continue;
        deliveries.delete(id);
        due.delete(id);
        persist?.delivery(id);
      }
      pending.delete(accountId);
      for (const name of claims.keys()) {
        if (!name.startsWith(`${accountId}|`)) continue;
        claims.delete(name);
        persist?.claim(name);
      }
    },
    async listEventAccounts({ cursor, limit }) {
      const ids = [...new Set([...preferences.keys(), ...[...endpoints.values()].map((e) => e.account_id)])].filter(hasSettings).sort();
      const after = cursor === undefined ? ids : ids.filter((id) => id > cursor);
      const items = after.slice(0, limit);
      return { items, next_cursor: after.length > limit ? (items.at(-1) ?? null) : null };
    },
  };
}
