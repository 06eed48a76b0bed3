import type { Account, AccountStore, ApiKey } from './account-store';
import type { Actor, AuditLog, NewAuditEntry } from './audit-log';

/** Who is changing accounts through an {@link auditedAccountStore}, and from where. */
export interface AuditSource {
  actor: Actor;
  /** The client address of the request, or the host of a CLI run; null when none. */
  from: string | null;
}

/** What an audited store needs besides the store itself. */
export interface AuditDeps {
  auditLog: AuditLog;
  /**
   * Told of an entry the log could not take (the store failed after the change was made): the
   * change stands and is answered as made, so the entry must at least reach the log lines.
   */
  onAuditFailure: (entry: NewAuditEntry, err: Error) => void;
}

/**
 * Adds an entry to the audit log once the change it records is made; an entry the log cannot take
 * goes to `onAuditFailure` (the change stands, so the entry must at least reach the log lines).
 */
export async function appendAudit(deps: AuditDeps, entry: NewAuditEntry): Promise<void> {
  try {
    await deps.auditLog.append(entry);
  } catch (err) {
    deps.onAuditFailure(entry, err as Error);
  }
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const keyFacts = (key: ApiKey) => ({ name: key.name, prefix: key.prefix, last4: key.last4 });

/**
 * `store`, with every change it makes to an account recorded in the audit log as made by `source`:
 * accounts created, moved to another address and deleted, subscriptions set or cancelled,
 * suspensions, proofs of address, keys created,
 * rolled, revoked and their grace ended. A change that changes nothing (a second revocation, a
 * plan set to what it was) is not recorded. Reads pass through untouched; nothing here is on the
 * API path (admission reads the quota store).
 */
export function auditedAccountStore(store: AccountStore, deps: AuditDeps, source: AuditSource): AccountStore {
  const record = (entry: Omit<NewAuditEntry, 'actor' | 'from'>): Promise<void> => appendAudit(deps, { ...entry, actor: source.actor, from: source.from });
  const onKey = async (keyId: string, change: () => Promise<ApiKey | undefined>, entry: (before: ApiKey, after: ApiKey) => Omit<NewAuditEntry, 'actor' | 'from' | 'account_id' | 'target'> | undefined) => {
    const before = await store.getKey(keyId);
    const after = await change();
    const made = before && after && entry(before, after);
    if (after && made) await record({ account_id: after.account_id, target: keyId, ...made });
    return after;
  };
  const onAccount = async (accountId: string, change: () => Promise<Account | undefined>, entry: (before: Account, after: Account) => Omit<NewAuditEntry, 'actor' | 'from' | 'account_id'> | undefined) => {
    const before = await store.getAccount(accountId);
    const after = await change();
    const made = before && after && entry(before, after);
    if (after && made) await record({ account_id: accountId, ...made });
    return after;
  };
  return {
    ...store,
    async createAccount(input) {
      const account = await store.createAccount(input);
      await record({ account_id: account.id, action: 'account.create', target: null, details: { email: account.email, name: account.name, email_verified: account.email_verified, subscriptions: account.subscriptions } });
      return account;
    },
    setSubscription: (accountId, api, subscription) =>
      onAccount(
        accountId,
        () => store.setSubscription(accountId, api, subscription),
        (before, after) => {
          const was = before.subscriptions[api] ?? null;
          const now = after.subscriptions[api] ?? null;
          if (same(was, now)) return undefined;
          return { action: now ? 'subscription.set' : 'subscription.cancel', target: api, details: { before: was, after: now } };
        },
      ),
    setEmailVerified: (accountId) =>
      onAccount(accountId, () => store.setEmailVerified(accountId), (before) => (before.email_verified ? undefined : { action: 'account.email_verified', target: null, details: { email: before.email } })),
    changeEmail: (accountId, email) =>
      onAccount(accountId, () => store.changeEmail(accountId, email), (before, after) => (before.email === after.email ? undefined : { action: 'account.email_change', target: null, details: { before: before.email, after: after.email } })),
    // The entry names no person: the account's address and name are what the deletion erases.
    async deleteAccount(accountId) {
      const deleted = await store.deleteAccount(accountId);
      if (deleted) await record({ account_id: accountId, action: 'account.delete', target: null, details: { subscriptions: deleted.subscriptions } });
      return deleted;
    },
    setStatus: (accountId, status) =>
      onAccount(
        accountId,
        () => store.setStatus(accountId, status),
        (before, after) => (before.status === after.status ? undefined : { action: status === 'suspended' ? 'account.suspend' : 'account.reactivate', target: null, details: { before: before.status, after: after.status } }),
      ),
    async createKey(accountId, input) {
      const created = await store.createKey(accountId, input);
      if (created) await record({ account_id: accountId, action: 'key.create', target: created.record.id, details: { ...keyFacts(created.record), expires_at: created.record.expires_at } });
      return created;
    },
    async rollKey(keyId, graceMs) {
      const rolled = await store.rollKey(keyId, graceMs);
      if (rolled) await record({ account_id: rolled.record.account_id, action: 'key.roll', target: keyId, details: { ...keyFacts(rolled.record), grace_until: rolled.record.grace_until } });
      return rolled;
    },
    endGrace: (keyId) => onKey(keyId, () => store.endGrace(keyId), (before) => (before.grace_until && !before.revoked_at ? { action: 'key.end_grace', details: { ...keyFacts(before), grace_until: before.grace_until } } : undefined)),
    revokeKey: (keyId) => onKey(keyId, () => store.revokeKey(keyId), (before, after) => (before.revoked_at ? undefined : { action: 'key.revoke', details: { ...keyFacts(after), revoked_at: after.revoked_at } })),
  };
}
