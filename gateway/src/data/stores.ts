import type { AccountStore } from './account-store';
import type { BillingStore } from './billing-store';
import type { AuditLog } from './audit-log';
import type { EventStore } from './event-store';
import type { KeyStore } from './key-store';
import type { QuotaStore } from './quota-store';
import type { SessionStore } from './session-store';
import type { TeamStore } from './team-store';

/** The store could not be reached or did not answer in time. */
export class StoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
  }
}

/** Both stores over one backing store, as the gateway, CLI and tests build them. */
export interface Stores {
  accountStore: AccountStore;
  /** Keys as one-key accounts, for the routes and CLI commands made before accounts. */
  keyStore: KeyStore;
  quotaStore: QuotaStore;
  /** Portal sessions and mailed codes (session-store.ts). */
  sessionStore: SessionStore;
  /** Paid subscriptions, provider customers and handled webhook events (billing-store.ts). */
  billingStore: BillingStore;
  /** Every change made to an account, and by whom (audit-log.ts). */
  auditLog: AuditLog;
  /** Event settings, webhook endpoints, the delivery queue and once-only claims (event-store.ts). */
  eventStore: EventStore;
  /** People, the teams (accounts) they belong to with their roles, and invitations (team-store.ts). */
  teamStore: TeamStore;
  /** Which backing store this is, for logs and `/readyz`. */
  kind: 'redis' | 'sqlite' | 'memory';
  /** How the backing store survives its own restart (Redis only), for `/readyz`. */
  persistence?: () => string;
}
