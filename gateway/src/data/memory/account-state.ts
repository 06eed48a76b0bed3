import { accountOfKeyId, generateApiKey, newAccountId, shownStart } from '../../domain/api-key';
import type { SecretEntry } from '../../domain/admission';
import { isIndexedPrefix } from '../account-store';
import type { Account, ApiKey, Page } from '../account-store';
import type { AccountBilling } from '../billing-store';

/** A key as this store holds it: its record and the hashes of its current and previous secrets. */
export interface StoredKey {
  record: ApiKey;
  hash: string;
  previousHash?: string;
}

/** One account's history for one day: `<api>:<outcome>` → count and its details (usage-breakdown.ts), with when the day lapses. */
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
  /** Every account's listing member (see {@link listingMember}), sorted: a page is a binary search, not a sort. */
  order: string[];
  /** Key prefix → the ids of the keys whose record has it (see {@link indexPrefix}). */
  prefixes: Map<string, Set<string>>;
  /** Account id → the ids of its keys: an account’s keys without a pass over every key of every account. */
  accountKeys: Map<string, Set<string>>;
  /** UTC month → account → calls counted that month: the `*top|<month>|<account>` history entries, indexed. */
  monthCalls: Map<string, Map<string, number>>;
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
  const prefixes = new Map<string, Set<string>>();
  const accountKeys = new Map<string, Set<string>>();
  for (const { record } of state.keys.values()) {
    // A key stored before issue 40 shows its secret's own start from now on (see shownStart).
    record.prefix = shownStart(record.prefix, record.account_id);
    indexPrefix(prefixes, record.prefix, record.id, true);
    indexAccountKey(accountKeys, record.account_id, record.id);
  }
  const monthCalls = new Map<string, Map<string, number>>();
  for (const [name, entry] of state.history) {
    const [kind, month, accountId] = name.split('|');
    if (kind !== TOP_HISTORY || month === undefined || accountId === undefined) continue;
    const calls = monthCalls.get(month) ?? new Map<string, number>();
    monthCalls.set(month, calls.set(accountId, entry.counts.get('calls') ?? 0));
  }
  return {
    ...state,
    order: [...state.accounts.values()].map(listingMember).sort(),
    prefixes,
    accountKeys,
    monthCalls,
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

/**
 * The history's entries that are the server's, under names no account id can take: `*all|<day>`
 * (the server's calls by `<api>:<outcome>`) and `*top|<month>|<account>` (one account's calls that
 * month: one entry each, so a flush writes only the accounts that called).
 */
export const SERVER_HISTORY = '*all';
export const TOP_HISTORY = '*top';

/** A copy the caller may change without changing the store. */
export const copy = <T>(value: T | undefined): T | undefined => (value === undefined ? undefined : structuredClone(value));

/** A record's place in a listing: creation time first, as the Redis store's index members are. */
export const listingMember = (item: { id: string; created_at: string }): string => `${String(Date.parse(item.created_at)).padStart(13, '0')}:${item.id}`;

/** A page of records in creation order, as the Redis store's index pages them. */
export function pageOf<T extends { id: string; created_at: string }>(all: Iterable<T>, cursor: string | undefined, limit: number): Page<T> {
  const sorted = [...all].sort((a, b) => listingMember(a).localeCompare(listingMember(b)));
  const after = cursor === undefined ? sorted : sorted.filter((item) => listingMember(item) > cursor);
  const items = after.slice(0, limit);
  return { items: structuredClone(items), next_cursor: after.length > limit ? listingMember(items.at(-1)!) : null };
}

/** Where `member` goes in the sorted `members` (the first index holding one not less than it). */
export function sortedIndex(members: readonly string[], member: string): number {
  let low = 0;
  let high = members.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (members[mid]! < member) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Adds a key id to its account's (keys are only ever removed with their account). */
export function indexAccountKey(accountKeys: Map<string, Set<string>>, accountId: string, keyId: string): void {
  const ids = accountKeys.get(accountId);
  if (ids) ids.add(keyId);
  else accountKeys.set(accountId, new Set([keyId]));
}

/** Adds (or removes) a key id under its prefix. */
export function indexPrefix(prefixes: Map<string, Set<string>>, prefix: string, keyId: string, add: boolean): void {
  if (!isIndexedPrefix(prefix)) return;
  const ids = prefixes.get(prefix) ?? new Set<string>();
  if (add) prefixes.set(prefix, ids.add(keyId));
  else if (ids.delete(keyId) && ids.size === 0) prefixes.delete(prefix);
}

