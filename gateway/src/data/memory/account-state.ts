import { accountOfKeyId, generateApiKey, newAccountId } from '../../domain/api-key';
import type { SecretEntry } from '../../domain/admission';
import type { Account, ApiKey, Page } from '../account-store';
import type { AccountBilling } from '../billing-store';

/** A key as this store holds it: its record and the hashes of its current and previous secrets. */
export interface StoredKey {
  record: ApiKey;
  hash: string;
  previousHash?: string;
}

/** One account's history for one day: `<api>:<outcome>` → count, with when the day lapses. */
export interface HistoryEntry {
  counts: Map<string, number>;
  expiresAtMs: number;
}

/** Everything the account store holds; given to it pre-filled by a store that keeps it on disk. */
export interface MemoryAccountState {
  accounts: Map<string, Account>;
  /** Email → account id. */
  emails: Map<string, string>;
  keys: Map<string, StoredKey>;
  /** Secret hash → its entry. */
  secrets: Map<string, SecretEntry>;
  /** `<accountId>|<day>` → that day's counts. */
  history: Map<string, HistoryEntry>;
  /** Account id → its billing (customers, paid subscriptions). */
  billing: Map<string, AccountBilling>;
  /** A provider's customer id → the account id. */
  customers: Map<string, string>;
  /** Webhook event id → how it stands, and until when that is kept. */
  events: Map<string, BillingEvent>;
}

/** A webhook event being handled (a lease) or handled. */
export interface BillingEvent {
  state: 'processing' | 'done';
  expiresAtMs: number;
}

/** Told of every change, for a store that writes the state through to disk. */
export interface MemoryAccountsPersistence {
  /** An account was created or changed: called before the operation resolves. */
  account(id: string): void;
  /** A key was created, rolled or revoked (its record and secrets): called before the operation resolves. */
  key(keyId: string): void;
  /** A key's last use was set (may be written later). */
  keyUsed(keyId: string): void;
  /** A history day was changed or dropped (may be written later). */
  history(name: string): void;
  /** An account's billing changed, and with `withAccount` its record too, in one write: before the operation resolves. */
  billing(accountId: string, withAccount: boolean): void;
  /** A webhook event was claimed, settled or dropped: before the operation resolves. */
  event(eventId: string): void;
}

/** Options of {@link createMemoryAccountStore}. */
export interface MemoryAccountsOptions {
  clock: () => number;
  newAccountId?: () => string;
  generateKey?: (accountId: string) => string;
  /** Told the id of every key revoked and account suspended. */
  revoked: (id: string) => void;
  /** The state to start from (and keep changing); unset: empty. */
  state?: MemoryAccountState;
  persistence?: MemoryAccountsPersistence;
}

/** An empty {@link MemoryAccountState}. */
export function emptyAccountState(): MemoryAccountState {
  return { accounts: new Map(), emails: new Map(), keys: new Map(), secrets: new Map(), history: new Map(), billing: new Map(), customers: new Map(), events: new Map() };
}

/** What each part of the memory account store (accounts, keys, history) works on. */
export interface MemoryParts extends MemoryAccountState {
  options: MemoryAccountsOptions;
  persist: MemoryAccountsPersistence | undefined;
  makeAccountId: () => string;
  makeKey: (accountId: string) => string;
  /** The entry of a secret, if it belongs to the account. */
  secretOf(hash: string, accountId: string): SecretEntry | undefined;
}

/** The state and helpers every part shares. */
export function memoryParts(options: MemoryAccountsOptions): MemoryParts {
  const state = options.state ?? emptyAccountState();
  return {
    ...state,
    options,
    persist: options.persistence,
    makeAccountId: options.newAccountId ?? (() => newAccountId()),
    makeKey: options.generateKey ?? ((accountId: string) => generateApiKey(accountId)),
    secretOf: (hash, accountId) => {
      const entry = state.secrets.get(hash);
      return entry && accountOfKeyId(entry.keyId) === accountId ? entry : undefined;
    },
  };
}

/** A copy the caller may change without changing the store. */
export const copy = <T>(value: T | undefined): T | undefined => (value === undefined ? undefined : structuredClone(value));

/** A page of records in creation order, as the Redis store's index pages them. */
export function pageOf<T extends { id: string; created_at: string }>(all: Iterable<T>, cursor: string | undefined, limit: number): Page<T> {
  const member = (item: T): string => `${String(Date.parse(item.created_at)).padStart(13, '0')}:${item.id}`;
  const sorted = [...all].sort((a, b) => member(a).localeCompare(member(b)));
  const after = cursor === undefined ? sorted : sorted.filter((item) => member(item) > cursor);
  const items = after.slice(0, limit);
  return { items: structuredClone(items), next_cursor: after.length > limit ? member(items.at(-1)!) : null };
}

