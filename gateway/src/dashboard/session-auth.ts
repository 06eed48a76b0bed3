import type { Request, Response } from 'express';
import { AppError } from '@tollgate/envelope/core';
import { ACCOUNT_SUSPENDED } from '../domain/customer-messages';
import type { Account, AccountStore } from '../data/account-store';
import { LAST_SEEN_EVERY_MS, sha256 } from '../data/session-store';
import type { Session, SessionStore } from '../data/session-store';
import type { TeamStore } from '../data/team-store';
import { actionOfRoute, mayDo, rolesFor } from '../domain/team-roles';
import { memberOfSession } from './team-membership';
import type { SessionMember } from './team-membership';
import { CSRF_HEADER, SESSION_TOKEN, STATE_CHANGING, cookiesOf, newToken as newSessionToken, repeatsCsrfToken } from '../http/session-cookie';

/** The portal session's cookie. */
export const SESSION_COOKIE = 'tg_session';
/** A new unguessable token (session cookie value, CSRF token); the one every session of the gateway uses. */
export const newToken = newSessionToken;

/** The session cookie's value in a request, or undefined. */
export function sessionCookieOf(req: Request): string | undefined {
  const values = sessionCookiesOf(req);
  return values.length === 1 ? values[0] : undefined;
}

/**
 * Every value of the session cookie in the request's `Cookie` header. A browser sends two when a
 * second cookie of the name was planted on another path or a parent domain (one that shadows the
 * real session is a fixation); neither is believed then.
 */
export function sessionCookiesOf(req: Request): string[] {
  return cookiesOf(req, SESSION_COOKIE);
}

/**
 * Where the browser sends the session cookie: the JSON routes only. The pages are the same for
 * everyone (their script asks /dashboard/v1/session), and with Path=/ the cookie would ride along
 * on every same-origin call to the proxied APIs, whose headers are forwarded to the services.
 */
export const SESSION_COOKIE_PATH = '/dashboard/v1';

/**
 * Sets the session cookie: HttpOnly (no script reads it), SameSite=Lax (not sent on cross-site
 * POSTs), Path={@link SESSION_COOKIE_PATH}, Secure as `cookieIsSecure` (http/session-cookie.ts) says.
 */
export function setSessionCookie(res: Response, value: string, maxAgeMs: number, secure: boolean): void {
  res.cookie(SESSION_COOKIE, value, { httpOnly: true, sameSite: 'lax', path: SESSION_COOKIE_PATH, secure, maxAge: maxAgeMs });
}

/** Tells the browser to forget the session cookie (with the attributes it was set with). */
export function clearSessionCookie(res: Response, secure: boolean): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: SESSION_COOKIE_PATH, secure });
}

function unauthorized(reason: 'no_session' | 'session_expired' | 'ambiguous_session' | 'not_a_member', message: string): AppError {
  return new AppError('UNAUTHORIZED', message, { details: { reason } });
}

/** A signed-in caller: the session, the SHA-256 its cookie is stored under, its account (the current team), and the person with their role in it. */
export interface SessionCaller extends SessionMember {
  session: Session;
  tokenHash: string;
  account: Account;
}

/** What reading sessions needs. */
export interface SessionAuthDeps {
  sessionStore: SessionStore;
  accountStore: AccountStore;
  /** People and their roles: every request through a session is checked against the roles table (domain/team-roles.ts). */
  teamStore: TeamStore;
  clock: () => number;
}

/** Whether the request repeats the session's CSRF token (compared in constant time). */
export function csrfMatches(req: Request, session: Session): boolean {
  return repeatsCsrfToken(req, session.csrf_token);
}

/**
 * Reads the session a request's cookie names: 401 when there is none or it is unknown
 * (`no_session`) or lapsed (`session_expired`), 403 when its account is suspended, and, for a
 * state-changing method, 403 `csrf` unless `x-csrf-token` repeats the session's token.
 */
export function createSessionAuth(deps: SessionAuthDeps): (req: Request, options?: { csrf?: boolean }) => Promise<SessionCaller> {
  return async (req, options = {}) => {
    const values = sessionCookiesOf(req);
    if (values.length > 1) throw unauthorized('ambiguous_session', `the request carries ${values.length} ${SESSION_COOKIE} cookies, so none is believed: clear this site's cookies in the browser and sign in again`);
    const value = values[0];
    if (value === undefined) throw unauthorized('no_session', 'not signed in: sign in at /portal/sign-in (POST /dashboard/v1/sign-in)');
    const tokenHash = sha256(value);
    const session = SESSION_TOKEN.test(value) ? await deps.sessionStore.getSession(tokenHash) : undefined;
    if (!session) throw unauthorized('no_session', 'this session is unknown or signed out: sign in again');
    if (Date.parse(session.expires_at) <= deps.clock()) throw unauthorized('session_expired', 'this session has expired: sign in again');
    const account = await deps.accountStore.getAccount(session.account_id);
    if (!account) throw unauthorized('no_session', 'the account of this session no longer exists');
    if (account.status === 'suspended') throw new AppError('FORBIDDEN', ACCOUNT_SUSPENDED, { details: { reason: 'suspended' } });
    const member = await memberOfSession(deps.teamStore, session, account);
    if (!member) {
      // Removed, left, or the person deleted: the session ends now, whatever its cookie's age.
      await deps.sessionStore.deleteSession(tokenHash);
      throw unauthorized('not_a_member', 'you are no longer a member of this team: sign in again');
    }
    if ((options.csrf ?? STATE_CHANGING.has(req.method)) && !csrfMatches(req, session)) {
      throw new AppError('FORBIDDEN', `a change made with the session cookie must repeat the session's CSRF token in the ${CSRF_HEADER} header (csrf_token from sign-in or GET /dashboard/v1/session)`, { details: { reason: 'csrf' } });
    }
    // The one role check: the route's action (domain/team-roles.ts) against the member's role.
    const action = actionOfRoute(req.method, `${req.baseUrl}${typeof req.route?.path === 'string' ? req.route.path : req.path}`);
    const { role } = member.membership;
    if (!mayDo(role, action)) {
      const allowed = rolesFor(action);
      throw new AppError('FORBIDDEN', `your role in this team (${role}) cannot do this; it takes the role ${allowed.join(' or ')}: ask an owner of the team`, { details: { reason: 'role', role, allowed } });
    }
    // Its last use, for the account's list of sessions: written once a minute at most, not every request.
    const nowMs = deps.clock();
    if (session.last_seen_at === undefined || Date.parse(session.last_seen_at) + LAST_SEEN_EVERY_MS <= nowMs) {
      session.last_seen_at = new Date(nowMs).toISOString();
      await deps.sessionStore.touchSession(tokenHash, session.last_seen_at);
    }
    return { session, tokenHash, account, ...member };
  };
}
