import { hashApiKey, keyHints, newKeyId, parseApiKey } from '../../domain/api-key';
import type { SecretEntry } from '../../domain/admission';
import { KeyLimitError, KeyRevokedError, newKeyRecord } from '../account-store';
import type { AccountStore, ApiKey } from '../account-store';
import { copy, indexAccountKey, indexPrefix, pageOf } from './account-state';
import type { MemoryParts, StoredKey } from './account-state';

type ApiKeysPart = Pick<AccountStore, 'createKey' | 'getKey' | 'listKeys' | 'rollKey' | 'endGrace' | 'revokeKey' | 'keysExpiringBetween' | 'findKeysByPrefix' | 'findKey'>;

/** An account's keys in this process: records, the secrets admission reads, and their lifecycle. */
export function memoryApiKeys(parts: MemoryParts): ApiKeysPart {
  const { accounts, keys, secrets, prefixes, accountKeys, persist, options } = parts;
  const { clock } = options;
  const recordsOf = (accountId: string): ApiKey[] => [...(accountKeys.get(accountId) ?? [])].map((keyId) => keys.get(keyId)!.record);
  const setEntries = (stored: StoredKey, change: (entry: SecretEntry) => SecretEntry): void => {
    for (const hash of [stored.hash, stored.previousHash]) {
      const entry = hash === undefined ? undefined : secrets.get(hash);
      if (hash !== undefined && entry) secrets.set(hash, change(entry));
    }
  };
  const liveKeys = (accountId: string, nowMs: number): number => {
    let live = 0;
    for (const record of recordsOf(accountId)) {
      if (record.revoked_at === null && (record.expires_at === null || Date.parse(record.expires_at) > nowMs)) live++;
    }
    return live;
  };
  return {
    async createKey(accountId, input) {
      if (!accounts.has(accountId)) return undefined;
      // Counted and made with no await between: one step for every request of this process.
      if (input.maxLive !== undefined && liveKeys(accountId, clock()) >= input.maxLive) throw new KeyLimitError(input.maxLive);
      const key = parts.makeKey(accountId);
      const hash = hashApiKey(key);
      const record = newKeyRecord(newKeyId(accountId), accountId, input, keyHints(key), clock());
      keys.set(record.id, { record, hash });
      indexPrefix(prefixes, record.prefix, record.id, true);
      indexAccountKey(accountKeys, accountId, record.id);
      secrets.set(hash, { keyId: record.id, expiresAtMs: input.expiresAtMs ?? 0, revokedAtMs: 0, graceUntilMs: 0 });
      persist?.key(record.id);
      return { key, record: copy(record)! };
    },
    getKey: async (keyId) => copy(keys.get(keyId)?.record),
    async listKeys(accountId, { cursor, limit }) {
      if (!accounts.has(accountId)) return undefined;
      return pageOf(recordsOf(accountId), cursor, limit);
    },
    rollKey: memoryRollKey(parts),
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
    // Every key is in this process's memory: one pass over them is the index.
    async keysExpiringBetween(fromMs, toMs) {
      const found = [];
      for (const { record } of keys.values()) {
        const expiresMs = record.expires_at === null ? 0 : Date.parse(record.expires_at);
        const account = accounts.get(record.account_id);
        if (record.revoked_at === null && expiresMs > fromMs && expiresMs <= toMs && account) found.push({ key: copy(record)!, account: copy(account)! });
      }
      return found;
    },
    async findKeysByPrefix(prefix, limit) {
      return [...(prefixes.get(prefix) ?? [])].slice(0, limit).map((keyId) => copy(keys.get(keyId)!.record)!);
    },
    async findKey(secret) {
      const parsed = parseApiKey(secret);
      const entry = parsed.ok ? parts.secretOf(parsed.hash, parsed.accountId) : undefined;
      const stored = entry && keys.get(entry.keyId);
      const account = stored && accounts.get(stored.record.account_id);
      if (!parsed.ok || !stored || !account) return undefined;
      return { key: copy(stored.record)!, account: copy(account)!, secret: stored.hash === parsed.hash ? 'current' : 'previous' };
    },
  };
}

/** A new secret for a key, the old one kept for the grace. */
function memoryRollKey(parts: MemoryParts): AccountStore['rollKey'] {
  const { keys, secrets, prefixes, persist, options } = parts;
  return async (keyId, graceMs) => {
    const stored = keys.get(keyId);
    if (!stored) return undefined;
    if (stored.record.revoked_at) throw new KeyRevokedError(keyId);
    const nowMs = options.clock();
    const current = secrets.get(stored.hash)!;
    if (stored.previousHash !== undefined) secrets.delete(stored.previousHash);
    // With no grace the previous secret ends now: refused as rolled, not as unknown.
    secrets.set(stored.hash, { ...current, graceUntilMs: nowMs + graceMs });
    stored.previousHash = stored.hash;
    const key = parts.makeKey(stored.record.account_id);
    stored.hash = hashApiKey(key);
    secrets.set(stored.hash, { ...current, graceUntilMs: 0 });
    const hints = keyHints(key);
    indexPrefix(prefixes, stored.record.prefix, keyId, false);
    indexPrefix(prefixes, hints.prefix, keyId, true);
    Object.assign(stored.record, hints, { rolled_at: new Date(nowMs).toISOString(), grace_until: graceMs > 0 ? new Date(nowMs + graceMs).toISOString() : null });
    persist?.key(keyId);
    // As with Redis: every gateway drops what it remembered of the old secret for failing open.
    options.revoked(keyId);
    return { key, record: copy(stored.record)! };
  };
}
