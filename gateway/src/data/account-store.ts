import type { Subscription } from '../domain/admission';
import { isDetailField } from './usage-breakdown';
import type { UsageBreakdownDay, UsageDetail } from './usage-breakdown';

/** An account: who holds the subscriptions, shared by all its keys. */
export interface Account {
  id: string;
  /** Lower-cased and unique; null for an account made from a key whose owner was not an address. */
  email: string | null;
  /**
   * Whether the email was proven (a code mailed to it came back) or vouched for by an operator.
   * Unproven accounts (self-service JSON sign-up) can use only the playground.
   */
  email_verified: boolean;
  name: string;
  status: 'active' | 'suspended';
  created_at: string;
  subscriptions: Record<string, Subscription>;
}

/** A key as operators and dashboards see it; the secret itself is never stored. */
export interface ApiKey {
  id: string;
  account_id: string;
  name: string;
  created_at: string;
  /** The secret's first characters and last four, to tell keys apart. */
  prefix: string;
  last4: string;
  expires_at: string | null;
  revoked_at: string | null;
  /** Updated at most once a minute per key. */
  last_used_at: string | null;
  /** When the secret was last rolled, and until when the one before it still works. */
  rolled_at: string | null;
  grace_until: string | null;
  /**
   * The person who made the key through the dashboard, with the address they had then; null for a
   * key made before teams, by an operator (admin API, CLI, console) or with another key.
   */
  created_by: KeyCreator | null;
}

/** Who made a key: a person of the team (`per_…`) and their address when they made it. */
export interface KeyCreator {
  person_id: string;
  email: string;
}

/** A page of a listing; `next_cursor` is null on the last page. */
export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/** What creating an account takes. */
export interface NewAccount {
  email?: string | null;
  /** True unless said: accounts made by operators (admin API, CLI) are vouched for. */
  email_verified?: boolean;
  name?: string;
  subscriptions?: Record<string, Subscription>;
}

/** What creating a key takes. */
export interface NewApiKey {
  name: string;
  expiresAtMs?: number;
  /**
   * The most live (neither revoked nor expired) keys the account may hold: at that many the key is
   * not made ({@link KeyLimitError}). Counted and made in one atomic step, so requests at once
   * cannot pass the count together. Unset: no cap (operators).
   */
  maxLive?: number;
  /** The signed-in person making it (the dashboard); unset for operators and keys made with a key. */
  createdBy?: KeyCreator;
}

/** Counted calls of one account, API, UTC day and outcome. */
export type HistoryOutcome = '2xx' | '4xx' | '429' | '5xx' | 'refunded';
export const HISTORY_OUTCOMES: readonly HistoryOutcome[] = ['2xx', '4xx', '429', '5xx', 'refunded'];

/**
 * The APIs a history lists: those asked for (the catalogue's), then every other API a day's counts
 * name (`api:outcome`), in the order found. An API withdrawn from the catalogue keeps its history
 * readable for as long as history is kept; a stored name that is not an API's is never made one.
 */
export function historyApis(apis: readonly string[], fieldsOfDays: Iterable<Iterable<string>>): string[] {
  const listed = new Set(apis);
  for (const fields of fieldsOfDays) {
    for (const field of fields) {
      const colon = field.lastIndexOf(':');
      if (colon > 0 && HISTORY_OUTCOMES.includes(field.slice(colon + 1) as HistoryOutcome) && !isDetailField(field)) listed.add(field.slice(0, colon));
    }
  }
  return [...listed];
}

/** One aggregated count, as the gateway flushes it. */
export interface HistoryCount {
  accountId: string;
  api: string;
  dayId: string;
  outcome: HistoryOutcome;
  count: number;
}

/** One day of one API's history, every outcome present. */
export interface HistoryDay {
  day: string;
  api: string;
  counts: Record<HistoryOutcome, number>;
}

/** The email is held by another account. */
export class EmailTakenError extends Error {
  constructor(readonly accountId: string) {
    super('an account with this email already exists');
    this.name = 'EmailTakenError';
  }
}

/** A revoked key cannot be rolled. */
export class KeyRevokedError extends Error {
  constructor(readonly keyId: string) {
    super(`the key ${keyId} is revoked and cannot be rolled`);
    this.name = 'KeyRevokedError';
  }
}

/** The account already holds the most live keys a creation allowed ({@link NewApiKey.maxLive}). */
export class KeyLimitError extends Error {
  constructor(readonly maxLive: number) {
    super(`the account already holds ${maxLive} live keys`);
    this.name = 'KeyLimitError';
  }
}

/** Days of history kept. */
export const HISTORY_DAYS = 90;

/** One account's calls in a month, for the operators' overview. */
export interface AccountCalls {
  account_id: string;
  /** Every call counted in its history this month, whatever the outcome. */
  calls: number;
}

/** Options of {@link AccountStore.listAccounts}. */
export interface ListAccountsOptions {
  cursor?: string;
  limit: number;
  /** Only the account holding this (normalised) email. */
  email?: string;
  /** Newest first (the operators' console); creation order unless set. */
  newestFirst?: boolean;
}

/**
 * Accounts, their keys and their history. Every method returns undefined for an unknown id;
 * lists are cursor-paginated in creation order.
 */
export interface AccountStore {
  /** Creates an account; throws {@link EmailTakenError} when the email is taken. */
  createAccount(input: NewAccount): Promise<Account>;
  getAccount(id: string): Promise<Account | undefined>;
  findAccountByEmail(email: string): Promise<Account | undefined>;
  listAccounts(options: ListAccountsOptions): Promise<Page<Account>>;
  /** How many accounts there are. */
  countAccounts(): Promise<number>;
  /** Sets (or, with null, cancels) the account's subscription to an API; `comp` is kept only when true. */
  setSubscription(accountId: string, api: string, subscription: Subscription | null): Promise<Account | undefined>;
  /** Marks the account's email as proven. */
  setEmailVerified(accountId: string): Promise<Account | undefined>;
  /**
   * Moves the account to another (normalised) address, freeing the old one; the name follows when it
   * was the old address. Throws {@link EmailTakenError} when another account holds the address.
   */
  changeEmail(accountId: string, email: string): Promise<Account | undefined>;
  /**
   * Erases the account: its record and address (free at once for a new account), its keys and their
   * secrets (every one answers as unknown from now on), its history and its billing. The server's
   * totals ({@link serverHistory}, {@link topAccounts}) stay: they name no person. Resolves with the
   * account as it was; undefined for an unknown one. Idempotent: a deletion cut short is finished by
   * the next.
   */
  deleteAccount(accountId: string): Promise<Account | undefined>;
  /** Suspends (every key refused with 403) or reactivates an account. */
  setStatus(accountId: string, status: Account['status']): Promise<Account | undefined>;
  /** Creates a key; the returned secret is shown once. Throws {@link KeyLimitError} at `input.maxLive`. */
  createKey(accountId: string, input: NewApiKey): Promise<{ key: string; record: ApiKey } | undefined>;
  getKey(keyId: string): Promise<ApiKey | undefined>;
  listKeys(accountId: string, options: { cursor?: string; limit: number }): Promise<Page<ApiKey> | undefined>;
  /** A new secret for the same key; the previous one works `graceMs` longer (0: not at all). */
  rollKey(keyId: string, graceMs: number): Promise<{ key: string; record: ApiKey } | undefined>;
  /** Ends a roll's grace now: the previous secret stops working, the current one keeps working (idempotent). */
  endGrace(keyId: string): Promise<ApiKey | undefined>;
  /** Revokes a key, every secret of it (idempotent: the first revocation time is kept). */
  revokeKey(keyId: string): Promise<ApiKey | undefined>;
  /**
   * The keys not revoked whose expiry falls in (`fromMs`, `toMs`], with their accounts, in no set
   * order: found through an index of keys by expiry, so what it reads is the keys found, not every
   * key (the hourly expiry notices ask for the next week's).
   */
  keysExpiringBetween(fromMs: number, toMs: number): Promise<{ key: ApiKey; account: Account }[]>;
  /**
   * Keys whose record's `prefix` is exactly `prefix` (a store index, not a scan), at most `limit`,
   * in no set order.
   */
  findKeysByPrefix(prefix: string, limit: number): Promise<ApiKey[]>;
  /** The key and account a secret belongs to, whatever their state (callers check it). */
  findKey(secret: string): Promise<{ key: ApiKey; account: Account; secret: 'current' | 'previous' } | undefined>;
  /**
   * Adds counts to the history (kept {@link HISTORY_DAYS} days), with `details` to the accounts'
   * days in detail ({@link usageBreakdown}: not to the server's totals), and sets keys' last use.
   * The same `batchId` sent again adds nothing, details included (a batch that timed out may have
   * been applied).
   */
  record(counts: readonly HistoryCount[], lastUsed: ReadonlyMap<string, number>, batchId?: string, details?: readonly UsageDetail[]): Promise<void>;
  /** The account's history from `fromDayId` to `toDayId` (inclusive), every day and API listed. */
  history(accountId: string, apis: readonly string[], fromDayId: string, toDayId: string): Promise<HistoryDay[] | undefined>;
  /** The account's calls in detail from `fromDayId` to `toDayId` (inclusive), every day listed: what {@link record}'s details added. */
  usageBreakdown(accountId: string, fromDayId: string, toDayId: string): Promise<UsageBreakdownDay[] | undefined>;
  /** Every account's history added up, as {@link history} lists one account's: what {@link record} added. */
  serverHistory(apis: readonly string[], fromDayId: string, toDayId: string): Promise<HistoryDay[]>;
  /** The accounts with the most calls counted in a UTC month (`2026-03`), most first, at most `limit`; `active` is how many had any. */
  topAccounts(monthId: string, limit: number): Promise<{ top: AccountCalls[]; active: number }>;
}

/**
 * Whether a key prefix goes into the stores' prefix index: keys made before accounts all show `tg_`
 * alone, a prefix that tells nothing.
 */
export const isIndexedPrefix = (prefix: string): boolean => prefix.length > 3;

/** A subscription as stores keep it: `comp` only when true, nothing else. */
export function storedSubscription(subscription: Subscription): Subscription {
  return subscription.comp ? { plan: subscription.plan, status: subscription.status, comp: true } : { plan: subscription.plan, status: subscription.status };
}

/** A new account record, as every store makes it. */
export function newAccountRecord(id: string, input: NewAccount, nowMs: number): Account {
  return {
    id,
    email: input.email ?? null,
    email_verified: input.email_verified ?? true,
    name: input.name ?? input.email ?? '',
    status: 'active',
    created_at: new Date(nowMs).toISOString(),
    subscriptions: Object.fromEntries(Object.entries(input.subscriptions ?? {}).map(([api, sub]) => [api, storedSubscription(sub)])),
  };
}

/** A new key record, as every store makes it, from its secret's hints. */
export function newKeyRecord(id: string, accountId: string, input: NewApiKey, hints: { prefix: string; last4: string }, nowMs: number): ApiKey {
  return {
    id,
    account_id: accountId,
    name: input.name,
    created_at: new Date(nowMs).toISOString(),
    ...hints,
    expires_at: input.expiresAtMs === undefined ? null : new Date(input.expiresAtMs).toISOString(),
    revoked_at: null,
    last_used_at: null,
    rolled_at: null,
    grace_until: null,
    created_by: input.createdBy ? { person_id: input.createdBy.person_id, email: input.createdBy.email } : null,
  };
}
