import type { Subscription } from '../domain/admission';
import type { KeyRecord } from './key-store';

const SUB_PREFIX = 'sub:';

/** A subscription as stored in one hash field: `<status>|<plan>` (read by the admission script). */
export function encodeSubscription(subscription: Subscription): string {
  return `${subscription.status}|${subscription.plan}`;
}

function decodeSubscription(value: string): Subscription {
  const bar = value.indexOf('|');
  return { status: value.slice(0, bar) === 'active' ? 'active' : 'inactive', plan: value.slice(bar + 1) };
}

/** The hash fields of a new record. */
export function encodeRecord(record: KeyRecord, hash: string): Record<string, string> {
  const fields: Record<string, string> = { hash, owner: record.owner, created_at: record.created_at };
  for (const [api, sub] of Object.entries(record.subscriptions)) fields[SUB_PREFIX + api] = encodeSubscription(sub);
  return fields;
}

/** A record from its hash fields; undefined for a missing (empty) hash. */
export function decodeRecord(id: string, fields: Record<string, string>): KeyRecord | undefined {
  if (fields.hash === undefined) return undefined;
  const subscriptions: Record<string, Subscription> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (name.startsWith(SUB_PREFIX)) subscriptions[name.slice(SUB_PREFIX.length)] = decodeSubscription(value);
  }
  return { id, owner: fields.owner ?? '', created_at: fields.created_at ?? '', revoked_at: fields.revoked_at ?? null, subscriptions };
}
