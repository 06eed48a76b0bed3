import type { Request, Router } from 'express';
import { sendOk } from '@tollgate/envelope/core';
import type { QuerySchema, RouteDoc } from '@tollgate/envelope/core';
import { dayWindow } from '../domain/windows';
import { HISTORY_DAYS } from '../data/account-store';
import type { Account, AccountStore, ApiKey } from '../data/account-store';
import type { AuditEntry, AuditLog } from '../data/audit-log';
import { allPages } from '../data/all-pages';
import type { AccountBilling } from '../data/billing-store';
import type { SessionStore } from '../data/session-store';
import type { TeamStore } from '../data/team-store';
import { ACCOUNT_SCHEMA, API_KEY_SCHEMA, AUDIT_ENTRY_SCHEMA, HISTORY_SCHEMA, MEMBER_SCHEMA } from '../http/account-schemas';
import { entryForCustomer } from '../http/audit-source';
import { createBodyParser } from '../http/body';
import { ACCOUNT_SLOT } from '../http/mailed-codes';
import { deletionCodeMail } from './account-settings-mail';
import { SETTINGS_ERRORS, endSessions } from './account-sessions-routes';
import { CODE_FIELD, CODE_TTL_MS } from './sign-in-codes';
import type { Codes } from '../http/mailed-codes';
import { CODE_SENT_SCHEMA, sendAccepted } from './sign-in-routes';
import { cookieIsSecure } from '../http/session-cookie';
import { clearSessionCookie } from './session-auth';
import type { SessionCaller } from './session-auth';
import { memberView } from '../data/member-view';
import { INVITATION_SCHEMA } from './team-route-docs';

/** No body: the session says who. */
export const EMPTY_BODY: QuerySchema = { type: 'object', additionalProperties: false, properties: {} };
/** `{code}`: the code a deletion mailed. */
export const CONFIRM_BODY: QuerySchema = { type: 'object', additionalProperties: false, required: ['code'], properties: { code: CODE_FIELD } };

const EXPORT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['exported_at', 'account', 'keys', 'subscriptions', 'usage', 'billing', 'audit', 'members', 'invitations'],
  properties: {
    exported_at: { type: 'string', format: 'date-time' },
    account: ACCOUNT_SCHEMA,
    keys: { type: 'array', items: API_KEY_SCHEMA, description: 'Every key, revoked ones too; never a secret (the store keeps only their hashes)' },
    subscriptions: ACCOUNT_SCHEMA.properties.subscriptions,
    usage: { ...HISTORY_SCHEMA, description: `Calls per UTC day, API and outcome, the last ${HISTORY_DAYS} days (all that is kept)` },
    billing: {
      type: 'object',
      additionalProperties: false,
      required: ['customers', 'subscriptions'],
      properties: {
        customers: { type: 'object', additionalProperties: { type: 'string' }, description: 'The card provider’s customer id per currency' },
        subscriptions: { type: 'object', additionalProperties: { type: 'object' }, description: 'Paid plans by API: plan, price, status, period end, as billing keeps them' },
      },
    },
    audit: { type: 'array', items: AUDIT_ENTRY_SCHEMA, description: 'Every change made to the account and by whom, oldest first; a change by the people who run this portal names none of them and not where they came from' },
    members: { type: 'array', items: MEMBER_SCHEMA, description: 'The team’s members with their roles, in the order they joined' },
    invitations: { type: 'array', items: INVITATION_SCHEMA, description: 'Invitations not yet accepted or dropped (never their codes: only a hash of each is kept)' },
  },
};

const DELETED = {
  type: 'object',
  additionalProperties: false,
  required: ['deleted', 'account_id'],
  properties: { deleted: { const: true }, account_id: { type: 'string' } },
};

/** Export and deletion, described once (merged into DASHBOARD_ROUTES). */
export const ACCOUNT_DELETION_ROUTES = {
  exportAccount: {
    method: 'get',
    path: '/dashboard/v1/account/export',
    summary: 'Everything kept about your account, as one JSON document (session cookie only): the account, its keys (no secrets), subscriptions, usage history, billing and audit log',
    data: EXPORT_SCHEMA,
    message: 'Account exported',
    errors: [...SETTINGS_ERRORS],
  },
  deleteAccount: {
    method: 'post',
    path: '/dashboard/v1/account/delete',
    summary: `Ask to delete your account (session cookie only): mails a ${CODE_TTL_MS / 60_000}-minute code to its address`,
    body: EMPTY_BODY,
    data: CODE_SENT_SCHEMA,
    message: 'Code sent; check your mail',
    successStatus: 202,
    errors: ['CONFLICT', 'RATE_LIMITED', 'UPSTREAM_UNAVAILABLE', ...SETTINGS_ERRORS],
  },
  confirmDeleteAccount: {
    method: 'post',
    path: '/dashboard/v1/account/delete/confirm',
    summary: 'Delete your account with the mailed code: paid plans are canceled at the card provider, its keys stop working at once, its sessions end, and its data is erased (usage is kept only in the server’s anonymous totals)',
    body: CONFIRM_BODY,
    data: DELETED,
    message: 'Account deleted',
    errors: ['RATE_LIMITED', 'UPSTREAM_UNAVAILABLE', ...SETTINGS_ERRORS],
  },
} satisfies Record<string, RouteDoc>;

/** What export and deletion need. */
export interface AccountDeletionDeps {
  accountStore: AccountStore;
  sessionStore: SessionStore;
  teamStore: TeamStore;
  auditLog: AuditLog;
  codes: Codes;
  clock: () => number;
  publicUrl?: string;
  /** The catalogue's API names now, for the usage history. */
  apis: () => readonly string[];
  signedIn: (req: Request) => Promise<SessionCaller>;
  changesBy: (req: Request, caller: Pick<SessionCaller, 'account'>) => AccountStore;
  /** The account's billing as kept (customers, paid plans); unset: none. */
  billingOf?: (accountId: string) => Promise<AccountBilling | undefined>;
  /** Ends the account's paid plans at the card provider, before anything is erased; unset: card payments are off. */
  closeBilling?: (accountId: string) => Promise<void>;
}

const PAGE = 100;

/** Adds `/account/export`, `/account/delete` and its `/confirm` to the dashboard router. */
export function addAccountDeletionRoutes(router: Router, deps: AccountDeletionDeps): void {
  const { accountStore, codes, signedIn } = deps;
  const parseEmpty = createBodyParser<object>(EMPTY_BODY);
  const parseConfirm = createBodyParser<{ code: string }>(CONFIRM_BODY);
  const subjectOf = (account: Account): string => `delete:${account.id}`;

  router.get('/account/export', async (req, res) => {
    const { account } = await signedIn(req);
    const nowMs = deps.clock();
    const from = dayWindow(nowMs - (HISTORY_DAYS - 1) * 86_400_000).id;
    const to = dayWindow(nowMs).id;
    const [keys, days, billing, audit, members, invitations] = await Promise.all([
      allPages<ApiKey>((cursor) => accountStore.listKeys(account.id, { cursor, limit: PAGE })),
      accountStore.history(account.id, deps.apis(), from, to),
      deps.billingOf?.(account.id),
      allPages<AuditEntry>((cursor) => deps.auditLog.list({ accountId: account.id, cursor, limit: PAGE, oldestFirst: true })),
      deps.teamStore.listMembers(account.id).then((list) => Promise.all(list.map((m) => memberView(deps.teamStore, m)))),
      deps.teamStore.listInvitations(account.id),
    ]);
    sendOk(
      res,
      {
        exported_at: new Date(nowMs).toISOString(),
        account,
        keys,
        subscriptions: account.subscriptions,
        usage: { account_id: account.id, from, to, days: days ?? [] },
        billing: billing ?? { customers: {}, subscriptions: {} },
        audit: audit.map(entryForCustomer),
        members,
        invitations,
      },
      ACCOUNT_DELETION_ROUTES.exportAccount.message,
    );
  });

  router.post('/account/delete', async (req, res) => {
    const { account, person } = await signedIn(req);
    parseEmpty(req.body);
    // The code goes to the owner asking (a team's owner may not be the address it was made with).
    const email = person.email;
    await codes.limit(req, email);
    const expiresAtMs = await codes.send(subjectOf(account), ACCOUNT_SLOT, (code) => deletionCodeMail(email, code));
    sendAccepted(res, { email, expires_at: new Date(expiresAtMs).toISOString() }, ACCOUNT_DELETION_ROUTES.deleteAccount.message);
  });

  router.post('/account/delete/confirm', async (req, res) => {
    const caller = await signedIn(req);
    const { account } = caller;
    const { code } = parseConfirm(req.body);
    await codes.check(subjectOf(account), ACCOUNT_SLOT, code);
    await eraseTeam(deps, req, caller);
    clearSessionCookie(res, cookieIsSecure(req, deps.publicUrl));
    sendOk(res, { deleted: true, account_id: account.id }, ACCOUNT_DELETION_ROUTES.confirmDeleteAccount.message);
  });
}

/**
 * Erases a team as an owner deleting it does: paid plans ended at the provider first (one that cannot
 * be reached leaves the team as it was: a 502 to retry), then the account, its keys' secrets and its
 * data in one step (every key answers 401 from now on), its sessions, and its memberships and
 * invitations (the people stay: they may be in other teams).
 */
export async function eraseTeam(deps: Pick<AccountDeletionDeps, 'closeBilling' | 'changesBy' | 'sessionStore' | 'teamStore' | 'clock'>, req: Request, caller: SessionCaller): Promise<void> {
  const { account } = caller;
  await deps.closeBilling?.(account.id);
  // The deletion's own entry names no person (docs/portal.md#account-settings): by the team, not its member.
  await deps.changesBy(req, { account }).deleteAccount(account.id);
  await endSessions(deps.sessionStore, account.id, undefined, deps.clock());
  await deps.teamStore.forgetTeam(account.id);
}
