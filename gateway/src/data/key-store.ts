import { hashApiKey, keyIdFromHash } from '../domain/api-key';
import type { Subscription } from '../domain/admission';

/** A key as operators and dashboards see it; the secret itself is never stored. */
export interface KeyRecord {
  id: string;
  owner: string;
  created_at: string;
  revoked_at: string | null;
  subscriptions: Record<string, Subscription>;
}

/** What creating a key takes. */
export interface NewKey {
  owner: string;
  subscriptions?: Record<string, Subscription>;
}

/** Keys and their subscriptions. */
export interface KeyStore {
  /** Creates a key; the returned secret is shown once. */
  create(input: NewKey): Promise<{ key: string; record: KeyRecord }>;
  get(id: string): Promise<KeyRecord | undefined>;
  /** The record of a presented secret (revoked ones included), or undefined when unknown. */
  findByKey(key: string): Promise<KeyRecord | undefined>;
  list(): Promise<KeyRecord[]>;
  setSubscription(id: string, api: string, subscription: Subscription): Promise<KeyRecord | undefined>;
  /** Marks a key revoked (idempotent: the first revocation time is kept). */
  revoke(id: string): Promise<KeyRecord | undefined>;
}

/** A new key, its hash (what is stored) and its record, as both stores create them. */
export function newKeyRecord(input: NewKey, key: string, nowMs: number): { key: string; hash: string; record: KeyRecord } {
  const hash = hashApiKey(key);
  const record: KeyRecord = {
    id: keyIdFromHash(hash),
    owner: input.owner,
    created_at: new Date(nowMs).toISOString(),
    revoked_at: null,
    subscriptions: { ...input.subscriptions },
  };
  return { key, hash, record };
}
