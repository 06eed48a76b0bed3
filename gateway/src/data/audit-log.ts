import type { Page } from './account-store';

/** Who made a change: an operator, the account's own customer, or the gateway itself. */
export interface Actor {
  type: 'operator' | 'customer' | 'system';
  /**
   * Which one: an operator's email address or `admin token` (or `cli:<user>@<host>`), the
   * customer's account or key id, or what the system was doing (`sign-in`, `billing`, …).
   */
  id: string;
  /** Through what: `console`, `admin-api`, `cli`, `portal`, `dashboard-api`, `billing`, … */
  via: string;
}

/**
 * What was done: to an account, or (with no account) to the gateway's own access: operators
 * signing in to the console and the admin token replaced. Readers show unknown actions as they are.
 */
export type AuditAction =
  | 'account.create'
  | 'account.suspend'
  | 'account.reactivate'
  | 'account.email_verified'
  | 'account.sign_in'
  | 'account.sessions_end'
  | 'account.verification_sent'
  | 'account.email_change'
  | 'account.delete'
  | 'subscription.set'
  | 'subscription.cancel'
  | 'key.create'
  | 'key.roll'
  | 'key.end_grace'
  | 'key.revoke'
  | 'webhook.create'
  | 'webhook.update'
  | 'webhook.rotate_secret'
  | 'webhook.delete'
  | 'webhook.disable'
  | 'events.settings'
  | 'operator.sign_in'
  | 'admin_token.rotate'
  | 'catalogue.reload'
  | `billing.${string}`
  /** Teams (docs/teams.md#audit): `team.invite`, `team.invite_revoke`, `team.invite_accept`, `team.member_add` (operators), `team.member_remove`, `team.member_leave`, `team.role_change`, `team.owner_transfer` (operators). */
  | `team.${string}`;

/** One entry of the audit log. Entries are only ever added: nothing edits or deletes one (but the retention). */
export interface AuditEntry {
  /** Unique, in the order entries were added. */
  id: string;
  at: string;
  /** The account changed; null for a change to no account. */
  account_id: string | null;
  actor: Actor;
  /** Where the change came from: the client address of an HTTP request, the host of a CLI run; null when none. */
  from: string | null;
  action: AuditAction;
  /** The key changed, or the API whose subscription changed; null when the account itself. */
  target: string | null;
  /** What changed: before and after, or what was made. */
  details: Record<string, unknown>;
}

/** What adding an entry takes: everything but its id and time, which the log gives it. */
export type NewAuditEntry = Omit<AuditEntry, 'id' | 'at'>;

/** Options of {@link AuditLog.list}. */
export interface AuditListOptions {
  /** Only this account's entries. */
  accountId?: string;
  cursor?: string;
  limit: number;
  /** Oldest first (an export); newest first unless set. */
  oldestFirst?: boolean;
}

/** Days an entry is kept. */
export const AUDIT_RETENTION_DAYS = 400;

/**
 * The audit log: every change made to an account by an operator, its customer or the system, kept
 * in the store {@link AUDIT_RETENTION_DAYS} days. There is no way to change or remove an entry.
 */
export interface AuditLog {
  append(entry: NewAuditEntry): Promise<AuditEntry>;
  /** A page of entries, newest first unless asked; cursors are opaque. */
  list(options: AuditListOptions): Promise<Page<AuditEntry>>;
}
