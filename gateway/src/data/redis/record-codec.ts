import { shownStart } from '../../domain/api-key';
import { LAPSE_REASONS } from '../../domain/admission';
import type { LapseReason, SecretEntry, Subscription } from '../../domain/admission';
import type { Account, ApiKey } from '../account-store';

const SUB_PREFIX = 'sub:';
// Beside `sub:<api>`, which the admission script reads as `<status>|<plan>` and must stay so.
const COMP_PREFIX = 'comp:';

// A lapsed subscription's status field: the admission script refuses it without the playground.
const LAPSED_PREFIX = 'lapsed:';

/**
 * A subscription as stored in one hash field: `<status>|<plan>` (read by the admission script),
 * the status `active`, `inactive`, or `lapsed:<reason>` for one billing stopped.
 */
export function encodeSubscription(subscription: Subscription): string {
  const status = subscription.status === 'inactive' && subscription.lapsed ? `${LAPSED_PREFIX}${subscription.lapsed}` : subscription.status;
  return `${status}|${subscription.plan}`;
}

/** A stored subscription read back. */
export function decodeSubscription(value: string): Subscription {
  const bar = value.indexOf('|');
  const status = value.slice(0, bar);
  const plan = value.slice(bar + 1);
  if (status === 'active') return { status: 'active', plan };
  const lapsed = status.startsWith(LAPSED_PREFIX) ? (status.slice(LAPSED_PREFIX.length) as LapseReason) : undefined;
  return lapsed && LAPSE_REASONS.includes(lapsed) ? { status: 'inactive', plan, lapsed } : { status: 'inactive', plan };
}

/** The hash field of an API's subscription. */
export const subscriptionField = (api: string): string => SUB_PREFIX + api;

/** The hash field marking an API's subscription as a comp (`1`), absent otherwise. */
export const compField = (api: string): string => COMP_PREFIX + api;

/** The hash fields of a new account. */
export function encodeAccount(account: Account): Record<string, string> {
  const fields: Record<string, string> = { email: account.email ?? '', email_verified: account.email_verified ? '1' : '0', name: account.name, status: account.status, created_at: account.created_at };
  for (const [api, sub] of Object.entries(account.subscriptions)) {
    fields[SUB_PREFIX + api] = encodeSubscription(sub);
    if (sub.comp) fields[COMP_PREFIX + api] = '1';
  }
  return fields;
}

/** An account from its hash fields; undefined for a missing (empty) hash. */
export function decodeAccount(id: string, fields: Record<string, string>): Account | undefined {
  if (fields.created_at === undefined) return undefined;
  const subscriptions: Record<string, Subscription> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (name.startsWith(SUB_PREFIX)) subscriptions[name.slice(SUB_PREFIX.length)] = decodeSubscription(value);
  }
  for (const api of Object.keys(subscriptions)) if (fields[COMP_PREFIX + api] === '1') subscriptions[api]!.comp = true;
  // No field: an account made before proofs existed (or migrated from a key), which counts as proven.
  return { id, email: fields.email || null, email_verified: fields.email_verified !== '0', name: fields.name ?? '', status: fields.status === 'suspended' ? 'suspended' : 'active', created_at: fields.created_at, subscriptions };
}

/** A key's stored fields: its record, its current secret's hash and its expiry in ms for the scripts. */
export function encodeKey(key: ApiKey, hash: string): Record<string, string> {
  return {
    name: key.name,
    created_at: key.created_at,
    prefix: key.prefix,
    last4: key.last4,
    hash,
    expires_ms: key.expires_at ? String(Date.parse(key.expires_at)) : '0',
    expires_at: key.expires_at ?? '',
    // Only when set: keys made before teams (or by operators) have neither field.
    ...(key.created_by ? { created_by: key.created_by.person_id, created_by_email: key.created_by.email } : {}),
  };
}

/** A key from its hash fields; undefined for a missing (empty) hash. */
export function decodeKey(id: string, accountId: string, fields: Record<string, string>): ApiKey | undefined {
  if (fields.hash === undefined) return undefined;
  return {
    id,
    account_id: accountId,
    name: fields.name ?? '',
    created_at: fields.created_at ?? '',
    prefix: shownStart(fields.prefix ?? '', accountId),
    last4: fields.last4 ?? '',
    expires_at: fields.expires_at || null,
    revoked_at: fields.revoked_at || null,
    last_used_at: fields.last_used_at || null,
    rolled_at: fields.rolled_at || null,
    grace_until: fields.grace_until || null,
    created_by: fields.created_by ? { person_id: fields.created_by, email: fields.created_by_email ?? '' } : null,
  };
}

/**
 * A secret's entry is the field of its account's hash named by the secret's SHA-256, the bare 64
 * hex digits: no other field of an account (`email`, `email_verified`, `name`, `status`,
 * `created_at`, `sub:<api>`, `comp:<api>`) is 64 hex digits, and a name of at most 64 bytes keeps a
 * small account's hash a listpack (Redis's `hash-max-listpack-value`), where `s:<hash>` made it a
 * hashtable of three times the memory.
 */
export const secretField = (hash: string): string => hash;

/** The prefix of a secret's field as gateways of 2026-11 wrote it (`s:<hash>`): read and moved, never written. */
export const OLD_SECRET_PREFIX = 's:';

/** A secret's entry as the admission script reads it. */
export function encodeSecret(entry: SecretEntry): string {
  return `${entry.keyId}|${entry.expiresAtMs}|${entry.revokedAtMs}|${entry.graceUntilMs}`;
}

/** A stored secret entry read back. */
export function decodeSecret(value: string): SecretEntry {
  const [keyId = '', expires = '0', revoked = '0', grace = '0'] = value.split('|');
  return { keyId, expiresAtMs: Number(expires), revokedAtMs: Number(revoked), graceUntilMs: Number(grace) };
}
