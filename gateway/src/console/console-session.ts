import type { Request, Response } from 'express';
import { AppError } from '@tollgate/envelope/core';
import type { AdminToken } from '../data/admin-token';
import { appendAudit } from '../data/audited-account-store';
import type { AuditDeps } from '../data/audited-account-store';
import { sha256 } from '../data/session-store';
import type { Session, SessionStore } from '../data/session-store';
import { requestSource } from '../http/audit-source';
import { SESSION_TOKEN, STATE_CHANGING, cookieIsSecure, cookieOf, newToken, repeatsCsrfToken } from '../http/session-cookie';

/** The console's session cookie: its own name, never the portal's. */
export const CONSOLE_COOKIE = 'tg_console';
/** Where the browser sends it: the console's pages and JSON, and nothing else of the gateway. */
export const CONSOLE_COOKIE_PATH = '/admin';
/** How long a console session lasts: a working day; signing in again starts a new one. */
export const CONSOLE_SESSION_HOURS = 12;

/** Who is signed in to the console: the holder of the admin token, or an operator by address. */
export interface Operator {
  by: 'token' | 'email';
  /** `admin token`, or the operator's email address: the actor the audit log records. */
  name: string;
}

/** A signed-in operator: who, and the session (its CSRF token, its end). */
export interface OperatorCaller {
  operator: Operator;
  session: Session;
  tokenHash: string;
}

/** What the console's sessions need. */
export interface ConsoleSessionDeps extends AuditDeps {
  sessionStore: SessionStore;
  adminToken: AdminToken;
  /** Addresses allowed to sign in by mail (OPERATOR_EMAILS). */
  operatorEmails: readonly string[];
  /** An https PUBLIC_URL makes the cookie Secure whatever the proxy in front forwards. */
  publicUrl?: string;
  clock: () => number;
}

/** How an operator proved who they are: the admin token, or the code or link mailed to their address. */
export type SignedInBy = 'token' | 'code' | 'link';

/**
 * Console sessions live in the portal's session store, but under the hash of `console` and the
 * cookie's value: a portal cookie's value looks up nothing here, and a console cookie's value
 * nothing there, so neither kind of session can stand in for the other.
 */
const consoleHash = (cookie: string): string => sha256(`console\n${cookie}`);

// Who a session is for, in the store's one free field: the admin token (by a digest of it, so a
// rotated token ends its sessions) or an operator's address.
const TOKEN_SUBJECT = 'operator-token:';
const EMAIL_SUBJECT = 'operator-email:';
const tokenDigest = (token: string): string => sha256(`admin-token\n${token}`).slice(0, 32);

function unauthorized(reason: 'no_session' | 'session_expired' | 'token_rotated' | 'not_an_operator', message: string): AppError {
  return new AppError('UNAUTHORIZED', message, { details: { reason } });
}

/** The console's sessions: made at sign-in, read (and checked) on every console request. */
export interface ConsoleSessions {
  /**
   * Starts a session for `operator` (ending the one the browser had), records the sign-in in the
   * audit log and sets its cookie; resolves with the session.
   */
  start(req: Request, res: Response, operator: Operator, by: SignedInBy): Promise<Session>;
  /**
   * The operator a request's cookie names: 401 when there is none, it is unknown, lapsed, made with
   * an admin token since rotated or for an address no longer an operator's; for a state-changing
   * method, 403 `csrf` unless `x-csrf-token` repeats the session's token.
   */
  read(req: Request): Promise<OperatorCaller>;
  /** Ends the request's session (if any) and clears its cookie. */
  end(req: Request, res: Response): Promise<void>;
}

/** Builds the console's sessions over the session store. */
export function createConsoleSessions(deps: ConsoleSessionDeps): ConsoleSessions {
  const { sessionStore, clock } = deps;
  const cookie = (req: Request) => ({ httpOnly: true, sameSite: 'strict' as const, path: CONSOLE_COOKIE_PATH, secure: cookieIsSecure(req, deps.publicUrl) });
  const operatorOf = (session: Session): Operator => {
    const subject = session.account_id;
    if (subject.startsWith(TOKEN_SUBJECT)) {
      const current = deps.adminToken.current();
      if (current === undefined || tokenDigest(current) !== subject.slice(TOKEN_SUBJECT.length)) throw unauthorized('token_rotated', 'the admin token was replaced since this session began: sign in again');
      return { by: 'token', name: 'admin token' };
    }
    const email = subject.startsWith(EMAIL_SUBJECT) ? subject.slice(EMAIL_SUBJECT.length) : '';
    if (!deps.operatorEmails.includes(email)) throw unauthorized('not_an_operator', 'this address is no longer among OPERATOR_EMAILS: sign in another way');
    return { by: 'email', name: email };
  };
  return {
    async start(req, res, operator, by) {
      const before = cookieOf(req, CONSOLE_COOKIE);
      if (before !== undefined) await sessionStore.deleteSession(consoleHash(before));
      const value = newToken();
      const nowMs = clock();
      const ttlMs = CONSOLE_SESSION_HOURS * 3_600_000;
      const subject = operator.by === 'token' ? `${TOKEN_SUBJECT}${tokenDigest(deps.adminToken.current() ?? '')}` : `${EMAIL_SUBJECT}${operator.name}`;
      const session: Session = { account_id: subject, csrf_token: newToken(), created_at: new Date(nowMs).toISOString(), expires_at: new Date(nowMs + ttlMs).toISOString() };
      await sessionStore.putSession(consoleHash(value), session);
      await appendAudit(deps, { account_id: null, ...requestSource(req, { type: 'operator', id: operator.name, via: 'console' }), action: 'operator.sign_in', target: null, details: { by } });
      res.cookie(CONSOLE_COOKIE, value, { ...cookie(req), maxAge: ttlMs });
      return session;
    },
    async read(req) {
      const value = cookieOf(req, CONSOLE_COOKIE);
      if (value === undefined) throw unauthorized('no_session', 'not signed in to the console: sign in at /admin/sign-in');
      const tokenHash = consoleHash(value);
      const session = SESSION_TOKEN.test(value) ? await sessionStore.getSession(tokenHash) : undefined;
      if (!session) throw unauthorized('no_session', 'this console session is unknown or signed out: sign in again at /admin/sign-in');
      if (Date.parse(session.expires_at) <= clock()) throw unauthorized('session_expired', 'this console session has expired: sign in again at /admin/sign-in');
      const operator = operatorOf(session);
      if (STATE_CHANGING.has(req.method) && !repeatsCsrfToken(req, session.csrf_token)) {
        throw new AppError('FORBIDDEN', "a change made in the console must repeat the session's CSRF token in the x-csrf-token header", { details: { reason: 'csrf' } });
      }
      return { operator, session, tokenHash };
    },
    async end(req, res) {
      const value = cookieOf(req, CONSOLE_COOKIE);
      if (value !== undefined) await sessionStore.deleteSession(consoleHash(value));
      res.clearCookie(CONSOLE_COOKIE, cookie(req));
    },
  };
}
