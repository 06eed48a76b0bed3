import type { Request, Router } from 'express';
import type { AccountStore } from '../data/account-store';
import type { AuditDeps } from '../data/audited-account-store';
import type { AccountBilling } from '../data/billing-store';
import type { TeamStore } from '../data/team-store';
import type { SessionStore } from '../data/session-store';
import type { Mailer } from '../mail/mailer';
import { ACCOUNT_DELETION_ROUTES, addAccountDeletionRoutes } from './account-deletion-routes';
import { ACCOUNT_EMAIL_ROUTES, addAccountEmailRoutes } from './account-email-routes';
import { ACCOUNT_SESSION_ROUTES, addAccountSessionRoutes } from './account-sessions-routes';
import { PERSON_DELETION_ROUTES, addPersonDeletionRoutes } from './person-deletion-routes';
import { createSessionAuth } from './session-auth';
import type { SessionCaller } from './session-auth';
import type { Codes } from '../http/mailed-codes';

/** Account settings (sessions, address, export, deletion of the team or of yourself), described once (merged into DASHBOARD_ROUTES). */
export const ACCOUNT_SETTINGS_ROUTES = { ...ACCOUNT_SESSION_ROUTES, ...ACCOUNT_EMAIL_ROUTES, ...ACCOUNT_DELETION_ROUTES, ...PERSON_DELETION_ROUTES };

/** What the account settings need. */
export interface AccountSettingsDeps extends AuditDeps {
  accountStore: AccountStore;
  sessionStore: SessionStore;
  teamStore: TeamStore;
  codes: Codes;
  mailer: Mailer;
  clock: () => number;
  publicUrl?: string;
  /** The catalogue's API names now, for the usage history. */
  apis: () => readonly string[];
  supportEmail?: string;
  /** The account store as a signed-in customer changes it: each change recorded in the audit log as theirs. */
  changesBy: (req: Request, caller: { account: SessionCaller['account'] }) => AccountStore;
  billingOf?: (accountId: string) => Promise<AccountBilling | undefined>;
  closeBilling?: (accountId: string) => Promise<void>;
}

/**
 * Adds the account settings to the dashboard router. They take the portal's session cookie only
 * (with its CSRF check on changes), never an API key: a key that leaked must not be able to move
 * the account to another address, or delete it.
 */
export function addAccountSettingsRoutes(router: Router, deps: AccountSettingsDeps): void {
  const signedIn = createSessionAuth(deps);
  const shared = { ...deps, signedIn };
  addAccountSessionRoutes(router, shared);
  addAccountEmailRoutes(router, shared);
  addAccountDeletionRoutes(router, shared);
  addPersonDeletionRoutes(router, shared);
}
