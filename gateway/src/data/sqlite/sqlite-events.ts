import type Database from 'better-sqlite3';
import type { Delivery, EventPreferences, WebhookEndpoint } from '../event-store';
import { DELIVERY_KEPT_MS } from '../event-store';
import { emptyEventState } from '../memory/memory-events';
import type { MemoryEventPersistence, MemoryEventState } from '../memory/memory-events';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS event_preferences (account_id TEXT PRIMARY KEY, record TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS webhook_endpoints (id TEXT PRIMARY KEY, record TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS webhook_deliveries (id TEXT PRIMARY KEY, record TEXT NOT NULL, due_at_ms INTEGER) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS event_claims (name TEXT PRIMARY KEY, expires_at_ms INTEGER NOT NULL) WITHOUT ROWID;
`;

/**
 * The event store's state in the embedded file: read whole at open (lapsed claims and deliveries
 * past their keeping skipped), then every change written before it resolves, so a queued delivery
 * or a claim survives a crash. A delivery that was leased when the gateway stopped is due at once.
 */
export function openSqliteEvents(db: Database.Database, nowMs: number): { state: MemoryEventState; persist: MemoryEventPersistence } {
  db.exec(SCHEMA);
  const state = emptyEventState();
  for (const row of db.prepare('SELECT * FROM event_preferences').all() as { account_id: string; record: string }[]) state.preferences.set(row.account_id, JSON.parse(row.record) as EventPreferences);
  for (const row of db.prepare('SELECT record FROM webhook_endpoints').all() as { record: string }[]) {
    const endpoint = JSON.parse(row.record) as WebhookEndpoint;
    state.endpoints.set(endpoint.id, endpoint);
  }
  db.prepare('DELETE FROM webhook_deliveries WHERE due_at_ms IS NULL AND json_extract(record, ?) < ?').run('$.created_at', new Date(nowMs - DELIVERY_KEPT_MS).toISOString());
  for (const row of db.prepare('SELECT record, due_at_ms FROM webhook_deliveries').all() as { record: string; due_at_ms: number | null }[]) {
    const delivery = JSON.parse(row.record) as Delivery;
    state.deliveries.set(delivery.id, delivery);
    if (row.due_at_ms !== null) state.due.set(delivery.id, Math.min(row.due_at_ms, Date.parse(delivery.next_attempt_at ?? '') || nowMs));
  }
  db.prepare('DELETE FROM event_claims WHERE expires_at_ms <= ?').run(nowMs);
  for (const row of db.prepare('SELECT * FROM event_claims').all() as { name: string; expires_at_ms: number }[]) state.claims.set(row.name, row.expires_at_ms);

  // Each table is written by its key: the row as the state holds it, or deleted when the state has none.
  const table = (name: string, key: string, value: string, due = false) => {
    const put = db.prepare(`INSERT OR REPLACE INTO ${name} (${key}, ${value}${due ? ', due_at_ms' : ''}) VALUES (?, ?${due ? ', ?' : ''})`);
    const drop = db.prepare(`DELETE FROM ${name} WHERE ${key} = ?`);
    return (id: string, row: unknown[] | undefined): void => void (row ? put.run(id, ...row) : drop.run(id));
  };
  const preferences = table('event_preferences', 'account_id', 'record');
  const endpoints = table('webhook_endpoints', 'id', 'record');
  const deliveries = table('webhook_deliveries', 'id', 'record', true);
  const claims = table('event_claims', 'name', 'expires_at_ms');
  const json = (value: unknown): unknown[] | undefined => (value === undefined ? undefined : [JSON.stringify(value)]);
  return {
    state,
    persist: {
      preferences: (accountId) => preferences(accountId, json(state.preferences.get(accountId))),
      endpoint: (endpointId) => endpoints(endpointId, json(state.endpoints.get(endpointId))),
      delivery(deliveryId) {
        const delivery = state.deliveries.get(deliveryId);
        deliveries(deliveryId, delivery && [JSON.stringify(delivery), state.due.get(deliveryId) ?? null]);
      },
      claim(name) {
        const until = state.claims.get(name);
        claims(name, until === undefined ? undefined : [until]);
      },
    },
  };
}
