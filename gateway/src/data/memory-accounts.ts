import { accountOfKeyId, generateApiKey, hashApiKey, keyHints, newAccountId, newKeyId, parseApiKey } from '../domain/api-key';
import type { SecretEntry } from '../domain/admission';
import { dayIds } from '../domain/windows';
import { EmailTakenError, HISTORY_OUTCOMES, KeyRevokedError, newAccountRecord, newKeyRecord } from './account-store';
import type { Account, AccountStore, ApiKey, HistoryDay, Page } from './account-store';
import { HISTORY_BATCH_TTL_SECONDS, HISTORY_TTL_SECONDS } from './redis-keys';

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
  return { accounts: new Map(), emails: new Map(), keys: new Map(), secrets: new Map(), history: new Map() };
}

/** The account store in this process, plus what the quota store beside it reads in the same step. */
export interface MemoryAccountStore extends AccountStore {
  /** The secret's entry and its account's state for one API, read synchronously by admission. */
  admissionState(accountId: string, hash: string, api: string): { secret: SecretEntry | undefined; account: { suspended: boolean; subscription?: Account['subscriptions'][string] } | undefined };
}

function pageOf<T extends { id: string; created_at: string }>(all: Iterable<T>, cursor: string | undefined, limit: number): Page<T> {
  const member = (item: T): string => `${String(Date.parse(item.created_at)).padStart(13, '0')}:${item.id}`;
  const sorted = [...all].sort((a, b) => member(a).localeCompare(member(b)));
  const after = cursor === undefined ? sorted : sorted.filter((item) => member(item) > cursor);
  const items = after.slice(0, limit);
  return { items: structuredClone(items), next_cursor: after.length > limit ? member(items.at(-1)!) : null };
}

/**
 * Accounts, keys and history in this process: the same rules as the Redis store. Lost on restart,
 * unless a `persistence` writes `state` through to disk (the SQLite store).
 */
export function createMemoryAccountStore(options: MemoryAccountsOptions): MemoryAccountStore {
  const { clock } = options;
  const makeAccountId = options.newAccountId ?? (() => newAccountId());
  const makeKey = options.generateKey ?? ((accountId: string) => generateApiKey(accountId));
  const { accounts, emails, keys, secrets, history } = options.state ?? emptyAccountState();
  const batches = new Map<string, number>();
  const persist = options.persistence;
  const copy = <T>(value: T | undefined): T | undefined => (value === undefined ? undefined : structuredClone(value));
  const secretOf = (hash: string, accountId: string): SecretEntry | undefined => {
    const entry = secrets.get(hash);
    return entry && accountOfKeyId(entry.keyId) === accountId ? entry : undefined;
  };
  const setEntries = (stored: StoredKey, change: (entry: SecretEntry) => SecretEntry): void => {
    for (const hash of [stored.hash, stored.previousHash]) {
      const entry = hash === undefined ? undefined : secrets.get(hash);
      if (hash !== undefined && entry) secrets.set(hash, change(entry));
    }
  };

  return {
    async createAccount(input) {
      const email = input.email ?? null;
      const holder = email === null ? undefined : emails.get(email);
      if (holder !== undefined) throw new EmailTakenError(holder);
      const account = newAccountRecord(makeAccountId(), input, clock());
      accounts.set(account.id, account);
      if (email !== null) emails.set(email, account.id);
      persist?.account(account.id);
      return copy(account)!;
    },
    getAccount: async (id) => copy(accounts.get(id)),
    findAccountByEmail: async (email) => copy(accounts.get(emails.get(email) ?? '')),
    async listAccounts({ cursor, limit, email }) {
      if (email !== undefined) {
        const account = accounts.get(emails.get(email) ?? '');
        return { items: account && !cursor ? [copy(account)!] : [], next_cursor: null };
      }
      return pageOf(accounts.values(), cursor, limit);
    },
    async setSubscription(accountId, api, subscription) {
      const account = accounts.get(accountId);
      if (!account) return undefined;
      if (subscription) account.subscriptions[api] = { ...subscription };
      else delete account.subscriptions[api];
      persist?.account(accountId);
      return copy(account);
    },
    async setEmailVerified(accountId) {
      const account = accounts.get(accountId);
      if (!account) return undefined;
      account.email_verified = true;
      persist?.account(accountId);
      return copy(account);
    },
    async setStatus(accountId, status) {
      const account = accounts.get(accountId);
      if (!account) return undefined;
      account.status = status;
      persist?.account(accountId);
      if (status === 'suspended') options.revoked(accountId);
      return copy(account);
    },
    async createKey(accountId, input) {
      if (!accounts.has(accountId)) return undefined;
      const key = makeKey(accountId);
      const hash = hashApiKey(key);
      const record = newKeyRecord(newKeyId(accountId), accountId, input, keyHints(key), clock());
      keys.set(record.id, { record, hash });
      secrets.set(hash, { keyId: record.id, expiresAtMs: input.expiresAtMs ?? 0, revokedAtMs: 0, graceUntilMs: 0 });
      persist?.key(record.id);
      return { key, record: copy(record)! };
    },
    getKey: async (keyId) => copy(keys.get(keyId)?.record),
    async listKeys(accountId, { cursor, limit }) {
      if (!accounts.has(accountId)) return undefined;
      return pageOf([...keys.values()].map((s) => s.record).filter((k) => k.account_id === accountId), cursor, limit);
    },
    async rollKey(keyId, graceMs) {
      const stored = keys.get(keyId);
      if (!stored) return undefined;
      if (stored.record.revoked_at) throw new KeyRevokedError(keyId);
      const nowMs = clock();
      const current = secrets.get(stored.hash)!;
      if (stored.previousHash !== undefined) secrets.delete(stored.previousHash);
      // With no grace the previous secret ends now: refused as rolled, not as unknown.
      secrets.set(stored.hash, { ...current, graceUntilMs: nowMs + graceMs });
      stored.previousHash = stored.hash;
      const key = makeKey(stored.record.account_id);
      stored.hash = hashApiKey(key);
      secrets.set(stored.hash, { ...current, graceUntilMs: 0 });
      Object.assign(stored.record, keyHints(key), { rolled_at: new Date(nowMs).toISOString(), grace_until: graceMs > 0 ? new Date(nowMs + graceMs).toISOString() : null });
      persist?.key(keyId);
      // As with Redis: every gateway drops what it remembered of the old secret for failing open.
      options.revoked(keyId);
      return { key, record: copy(stored.record)! };
    },
    async endGrace(keyId) {
      const stored = keys.get(keyId);
      if (!stored) return undefined;
      const nowMs = clock();
      const previous = stored.previousHash === undefined ? undefined : secrets.get(stored.previousHash);
      if (!stored.record.revoked_at && previous && stored.previousHash !== undefined) {
        if (previous.graceUntilMs === 0 || previous.graceUntilMs > nowMs) secrets.set(stored.previousHash, { ...previous, graceUntilMs: nowMs });
        stored.record.grace_until = null;
        persist?.key(keyId);
        // As a roll: every gateway drops what it remembered of the old secret for failing open.
        options.revoked(keyId);
      }
      return copy(stored.record);
    },
    async revokeKey(keyId) {
      const stored = keys.get(keyId);
      if (!stored) return undefined;
      if (!stored.record.revoked_at) {
        const nowMs = clock();
        stored.record.revoked_at = new Date(nowMs).toISOString();
        setEntries(stored, (entry) => ({ ...entry, revokedAtMs: nowMs, graceUntilMs: 0 }));
        persist?.key(keyId);
        options.revoked(keyId);
      }
      return copy(stored.record);
    },
    async findKey(secret) {
      const parsed = parseApiKey(secret);
      const entry = parsed.ok ? secretOf(parsed.hash, parsed.accountId) : undefined;
      const stored = entry && keys.get(entry.keyId);
      const account = stored && accounts.get(stored.record.account_id);
      if (!parsed.ok || !stored || !account) return undefined;
      return { key: copy(stored.record)!, account: copy(account)!, secret: stored.hash === parsed.hash ? 'current' : 'previous' };
    },
    async record(counts, lastUsed, batchId) {
      const nowMs = clock();
      // Ids of batches added, oldest first, as long as Redis keeps its markers: a batch sent again
      // adds nothing here either (the contract is one for every store).
      for (const [id, untilMs] of batches) {
        if (untilMs > nowMs) break;
        batches.delete(id);
      }
      const fresh = batchId === undefined || !batches.has(batchId);
      if (batchId !== undefined && fresh) batches.set(batchId, nowMs + HISTORY_BATCH_TTL_SECONDS * 1000);
      for (const c of fresh ? counts : []) {
        const name = `${c.accountId}|${c.dayId}`;
        const day = history.get(name) ?? { counts: new Map<string, number>(), expiresAtMs: 0 };
        day.counts.set(`${c.api}:${c.outcome}`, (day.counts.get(`${c.api}:${c.outcome}`) ?? 0) + c.count);
        day.expiresAtMs = nowMs + HISTORY_TTL_SECONDS * 1000;
        history.set(name, day);
        persist?.history(name);
      }
      for (const [keyId, atMs] of lastUsed) {
        const stored = keys.get(keyId);
        if (stored) stored.record.last_used_at = new Date(atMs).toISOString();
        if (stored) persist?.keyUsed(keyId);
      }
      for (const [name, day] of history) {
        if (day.expiresAtMs > nowMs) continue;
        history.delete(name);
        persist?.history(name);
      }
    },
    async history(accountId, apis, fromDayId, toDayId): Promise<HistoryDay[] | undefined> {
      if (!accounts.has(accountId)) return undefined;
      return dayIds(fromDayId, toDayId).flatMap((day) => {
        const counts = history.get(`${accountId}|${day}`)?.counts;
        return apis.map((api) => ({ day, api, counts: Object.fromEntries(HISTORY_OUTCOMES.map((o) => [o, counts?.get(`${api}:${o}`) ?? 0])) as HistoryDay['counts'] }));
      });
    },
    admissionState(accountId, hash, api) {
      const account = accounts.get(accountId);
      return { secret: secretOf(hash, accountId), account: account && { suspended: account.status === 'suspended', subscription: account.subscriptions[api] } };
    },
  };
}
