import type { Request, Router } from 'express';
import { AppError, sendOk } from '@tollgate/envelope/core';
import type { RouteDoc } from '@tollgate/envelope/core';
import { deviceName } from '../domain/device-name';
import { sessionId } from '../data/session-store';
import type { Session, SessionStore } from '../data/session-store';
import { appendAudit } from '../data/audited-account-store';
import type { AuditDeps } from '../data/audited-account-store';
import { requestSource } from '../http/audit-source';
import { CALLER_ERRORS } from './dashboard-auth';
import { cookieIsSecure } from '../http/session-cookie';
import { clearSessionCookie } from './session-auth';
import type { SessionCaller } from './session-auth';

const time = { type: 'string', format: 'date-time' };
const SESSION_ID_PATTERN = '^[0-9a-f]{24}$';

const SESSION_ITEM = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'device', 'created_at', 'last_seen_at', 'expires_at', 'current'],
  properties: {
    id: { type: 'string', pattern: SESSION_ID_PATTERN, description: 'What the session is signed out by (it tells nothing of its cookie)' },
    device: { type: 'string', description: 'The browser and system it was signed in from, read from its User-Agent ("Firefox on Windows")' },
    created_at: time,
    last_seen_at: { ...time, description: 'Its last use, at most a minute behind' },
    expires_at: time,
    current: { type: 'boolean', description: 'Whether it is the session of this request' },
  },
};

const SESSION_LIST = { type: 'object', additionalProperties: false, required: ['sessions'], properties: { sessions: { type: 'array', items: SESSION_ITEM } } };
const SIGNED_OUT = { type: 'object', additionalProperties: false, required: ['signed_out'], properties: { signed_out: { type: 'integer', minimum: 0, description: 'How many sessions were signed out' } } };

/** What the account-settings routes may answer besides their own errors: they take the session cookie only. */
export const SETTINGS_ERRORS = CALLER_ERRORS;

/** The account's sessions, described once (merged into DASHBOARD_ROUTES). */
export const ACCOUNT_SESSION_ROUTES = {
  accountSessions: {
    method: 'get',
    path: '/dashboard/v1/account/sessions',
    summary: 'The portal sessions signed in to your account (session cookie only): the device each came from, when it began and was last used',
    data: SESSION_LIST,
    message: 'Sessions listed',
    errors: [...SETTINGS_ERRORS],
  },
  endSession: {
    method: 'delete',
    path: '/dashboard/v1/account/sessions/{id}',
    summary: 'Sign out one session of your account (this one too, which clears its cookie); needs the CSRF header',
    data: SIGNED_OUT,
    message: 'Session signed out',
    errors: ['NOT_FOUND', ...SETTINGS_ERRORS],
  },
  endOtherSessions: { method: 'delete', path: '/dashboard/v1/account/sessions', summary: 'Sign out every other session of your account (this one stays); needs the CSRF header', data: SIGNED_OUT, message: 'Other sessions signed out', errors: [...SETTINGS_ERRORS] },
} satisfies Record<string, RouteDoc>;

/**
 * Whether a session is the caller's own: the same person on the same team (one begun before teams
 * is the person whose address the account has). A member sees and ends only their own sessions.
 */
export function isOwnSession(session: Session, caller: Pick<SessionCaller, 'account' | 'person'>): boolean {
  if (session.account_id !== caller.account.id) return false;
  return session.person_id !== undefined ? session.person_id === caller.person.id : caller.account.email === caller.person.email;
}

/** Ends the account's live sessions but `keep` (none: all), only those `only` accepts when given; resolves with how many ended. */
export async function endSessions(sessionStore: SessionStore, accountId: string, keep: string | undefined, nowMs: number, only?: (session: Session) => boolean): Promise<number> {
  let ended = 0;
  for (const { tokenHash, session } of await sessionStore.listSessions(accountId)) {
    if (tokenHash === keep || (only !== undefined && !only(session))) continue;
    await sessionStore.deleteSession(tokenHash);
    if (Date.parse(session.expires_at) > nowMs) ended++;
  }
  return ended;
}

/** What the session routes need. */
export interface AccountSessionDeps extends AuditDeps {
  sessionStore: SessionStore;
  clock: () => number;
  publicUrl?: string;
  /** The signed-in caller (session cookie, CSRF on changes). */
  signedIn: (req: Request) => Promise<SessionCaller>;
}

/** Adds `/account/sessions` (list, sign out others) and `/account/sessions/{id}` to the dashboard router. */
export function addAccountSessionRoutes(router: Router, deps: AccountSessionDeps): void {
  const { sessionStore, clock, signedIn } = deps;

  router.get('/account/sessions', async (req, res) => {
    const caller = await signedIn(req);
    const { account, tokenHash: own } = caller;
    const nowMs = clock();
    const sessions = (await sessionStore.listSessions(account.id))
      .filter(({ session }) => Date.parse(session.expires_at) > nowMs && isOwnSession(session, caller))
      .map(({ tokenHash, session }) => ({
        id: sessionId(tokenHash),
        device: deviceName(session.user_agent),
        created_at: session.created_at,
        last_seen_at: session.last_seen_at ?? session.created_at,
        expires_at: session.expires_at,
        current: tokenHash === own,
      }));
    sendOk(res, { sessions }, ACCOUNT_SESSION_ROUTES.accountSessions.message);
  });

  // Sessions ended by their person: who ended how many, from where (none ended: no entry).
  const recordEnded = async (req: Request, caller: SessionCaller, ended: number, which: 'others' | 'one' | 'this one'): Promise<void> => {
    if (ended > 0) await appendAudit(deps, { account_id: caller.account.id, ...requestSource(req, { type: 'customer', id: caller.person.id, via: 'portal' }), action: 'account.sessions_end', target: null, details: { ended, which } });
  };

  router.delete('/account/sessions', async (req, res) => {
    const caller = await signedIn(req);
    const { account, tokenHash } = caller;
    const ended = await endSessions(sessionStore, account.id, tokenHash, clock(), (session) => isOwnSession(session, caller));
    await recordEnded(req, caller, ended, 'others');
    sendOk(res, { signed_out: ended }, ACCOUNT_SESSION_ROUTES.endOtherSessions.message);
  });

  router.delete('/account/sessions/:id', async (req, res) => {
    const caller = await signedIn(req);
    const { account, tokenHash: own } = caller;
    const { id } = req.params;
    const found = new RegExp(SESSION_ID_PATTERN).test(id)
      ? (await sessionStore.listSessions(account.id)).find((s) => sessionId(s.tokenHash) === id && Date.parse(s.session.expires_at) > clock() && isOwnSession(s.session, caller))
      : undefined;
    if (!found) throw new AppError('NOT_FOUND', 'no signed-in session of your account has this id (it may have signed out or expired): list them with GET /dashboard/v1/account/sessions');
    await sessionStore.deleteSession(found.tokenHash);
    await recordEnded(req, caller, 1, found.tokenHash === own ? 'this one' : 'one');
    if (found.tokenHash === own) clearSessionCookie(res, cookieIsSecure(req, deps.publicUrl));
    sendOk(res, { signed_out: 1 }, ACCOUNT_SESSION_ROUTES.endSession.message);
  });
}
