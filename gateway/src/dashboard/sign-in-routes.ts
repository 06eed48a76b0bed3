import type { Request, Response, Router } from 'express';
import { AppError, okEnvelope, requestIdOf, sendOk } from '@tollgate/envelope/core';
import type { QuerySchema, RouteDoc } from '@tollgate/envelope/core';
import { MAX_EMAIL_LENGTH, parseEmail } from '../domain/email';
import type { Account, AccountStore } from '../data/account-store';
import { USER_AGENT_LENGTH, sha256 } from '../data/session-store';
import type { Session, SessionStore } from '../data/session-store';
import type { TeamStore } from '../data/team-store';
import { teamOnSignIn } from './team-membership';
import { ACCOUNT_SCHEMA } from '../http/account-schemas';
import { createBodyParser } from '../http/body';
import { CODE_FIELD, CODE_TTL_MS } from './sign-in-codes';
import type { Codes } from '../http/mailed-codes';
import { LINK_TOKEN_FIELD, createMailedSignIn } from '../http/mailed-sign-in';
import type { MailedSignIn } from '../http/mailed-sign-in';
import { signInMail } from './sign-in-mail';
import { createProvenAccount } from './proven-account';
import { cookieIsSecure } from '../http/session-cookie';
import { clearSessionCookie, createSessionAuth, csrfMatches, newToken, sessionCookieOf, setSessionCookie } from './session-auth';

/** An address in a body. */
export const EMAIL_FIELD = { type: 'string', minLength: 3, maxLength: MAX_EMAIL_LENGTH, description: 'an email address' };
const SIGN_IN_BODY: QuerySchema = { type: 'object', additionalProperties: false, required: ['email'], properties: { email: EMAIL_FIELD } };
/** An address and the code mailed to it. */
export const VERIFY_BODY: QuerySchema = { type: 'object', additionalProperties: false, required: ['email', 'code'], properties: { email: EMAIL_FIELD, code: CODE_FIELD } };
const LINK_BODY: QuerySchema = { type: 'object', additionalProperties: false, required: ['email', 'token'], properties: { email: EMAIL_FIELD, token: LINK_TOKEN_FIELD } };

/** JSON Schema of a code on its way: where it went and until when it works. */
export const CODE_SENT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['email', 'expires_at'],
  properties: { email: { type: 'string' }, expires_at: { type: 'string', format: 'date-time', description: 'When the mailed code stops working' } },
};

const SESSION_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['account', 'csrf_token', 'expires_at'],
  properties: {
    account: ACCOUNT_SCHEMA,
    csrf_token: { type: 'string', description: 'Send it back in the x-csrf-token header with every POST, PUT and DELETE made with the session cookie' },
    expires_at: { type: 'string', format: 'date-time' },
  },
};

const SESSION_STATE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['signed_in'],
  properties: { signed_in: { type: 'boolean' }, session: SESSION_SCHEMA },
};

const SIGNED_OUT_SCHEMA = { type: 'object', additionalProperties: false, required: ['signed_out'], properties: { signed_out: { const: true } } };

/** The portal's sign-in routes, described once (merged into DASHBOARD_ROUTES). */
export const SIGN_IN_ROUTES = {
  signIn: {
    method: 'post',
    path: '/dashboard/v1/sign-in',
    summary: `Mail a ${CODE_TTL_MS / 60_000}-minute sign-in code and link to an address (the same answer whether it has an account or not; a new address gets one when the code comes back)`,
    body: SIGN_IN_BODY,
    data: CODE_SENT_SCHEMA,
    message: 'Sign-in code sent; check your mail',
    successStatus: 202,
    errors: ['BAD_REQUEST', 'RATE_LIMITED', 'UPSTREAM_UNAVAILABLE', 'STORE_UNAVAILABLE'],
  },
  verifySignIn: {
    method: 'post',
    path: '/dashboard/v1/sign-in/verify',
    summary: 'Sign in with the mailed code, typed from the network that asked for it: sets the HttpOnly session cookie and answers the CSRF token (creates the account on first sign-in; proves its email)',
    body: VERIFY_BODY,
    data: SESSION_SCHEMA,
    message: 'Signed in',
    errors: ['BAD_REQUEST', 'UNAUTHORIZED', 'FORBIDDEN', 'RATE_LIMITED', 'STORE_UNAVAILABLE'],
  },
  verifySignInLink: {
    method: 'post',
    path: '/dashboard/v1/sign-in/link',
    summary: 'Sign in with the token of the mailed link, from any network: as /sign-in/verify, without its daily limits (the token cannot be guessed)',
    body: LINK_BODY,
    data: SESSION_SCHEMA,
    message: 'Signed in',
    errors: ['BAD_REQUEST', 'UNAUTHORIZED', 'FORBIDDEN', 'STORE_UNAVAILABLE'],
  },
  session: { method: 'get', path: '/dashboard/v1/session', summary: 'The signed-in session (cookie): its account, CSRF token and end', data: SESSION_SCHEMA, message: 'Signed in', errors: ['BAD_REQUEST', 'UNAUTHORIZED', 'FORBIDDEN', 'STORE_UNAVAILABLE'] },
  sessionState: {
    method: 'get',
    path: '/dashboard/v1/session/state',
    summary: 'Whether this browser is signed in: 200 either way, with the session (as GET /dashboard/v1/session) when it is, so a page asks without a refusal to log',
    data: SESSION_STATE_SCHEMA,
    message: 'Session state',
    errors: ['BAD_REQUEST', 'UNAUTHORIZED', 'FORBIDDEN', 'STORE_UNAVAILABLE'],
  },
  signOut: { method: 'delete', path: '/dashboard/v1/session', summary: 'Sign out: ends the session and clears its cookie (needs the CSRF header)', data: SIGNED_OUT_SCHEMA, message: 'Signed out', errors: ['BAD_REQUEST', 'FORBIDDEN', 'STORE_UNAVAILABLE'] },
} satisfies Record<string, RouteDoc>;

/** What the sign-in routes need. */
export interface SignInDeps {
  accountStore: AccountStore;
  sessionStore: SessionStore;
  teamStore: TeamStore;
  codes: Codes;
  clock: () => number;
  sessionTtlHours: number;
  /** The origin links in mail point at; unset: the request's own protocol and Host when it names this gateway (http/link-origin.ts). */
  publicUrl?: string;
  /** Told of each sign-in, with how it was proven (the audit log's `account.sign_in`). */
  signedIn?: (req: Request, account: Account, by: 'code' | 'link', person: { id: string; email: string }) => Promise<void>;
}

/** Answers 202 with the success envelope: a mail is on its way. */
export function sendAccepted<T>(res: Response, data: T, message: string): void {
  res.status(202).json(okEnvelope(data, message, requestIdOf(res)));
}

/** The address in a body as every path reads it (domain/email.ts), or 400 saying what is wrong with it. */
export function emailOf(raw: string): string {
  const parsed = parseEmail(raw);
  if (!parsed.ok) throw new AppError('BAD_REQUEST', `email must be a plain address such as ada@example.com: ${parsed.reason}`, { details: { parameter: 'email' } });
  return parsed.email;
}

/**
 * The portal's sign-in by mailed code and link (the rules of http/mailed-sign-in.ts, under the
 * subject `sign-in:<email>`). Nothing here asks whether the address has an account: the answer and
 * its timing are the same.
 */
export function portalSignIn(deps: Pick<SignInDeps, 'codes' | 'publicUrl'>): MailedSignIn {
  return createMailedSignIn(deps.codes, { subjectOf: (email) => `sign-in:${email}`, page: '/portal/sign-in', mail: signInMail, publicUrl: deps.publicUrl });
}

/**
 * Begins a session of a person on a team and sets its cookie: a new one each time (sign-in,
 * switching teams), so no cookie is ever fixed; the one this browser had before ends.
 */
export async function beginSession(req: Request, res: Response, deps: Pick<SignInDeps, 'sessionStore' | 'clock' | 'sessionTtlHours' | 'publicUrl'>, teamId: string, personId: string): Promise<Session> {
  const before = sessionCookieOf(req);
  if (before !== undefined) await deps.sessionStore.deleteSession(sha256(before));
  const token = newToken();
  const nowMs = deps.clock();
  const ttlMs = deps.sessionTtlHours * 3_600_000;
  const created = new Date(nowMs).toISOString();
  const userAgent = (req.get('user-agent') ?? '').slice(0, USER_AGENT_LENGTH);
  const session: Session = { account_id: teamId, person_id: personId, csrf_token: newToken(), created_at: created, expires_at: new Date(nowMs + ttlMs).toISOString(), user_agent: userAgent, last_seen_at: created };
  await deps.sessionStore.putSession(sha256(token), session);
  setSessionCookie(res, token, ttlMs, cookieIsSecure(req, deps.publicUrl));
  return session;
}

/** Adds `/sign-in`, `/sign-in/verify` and `/session` to the dashboard router. */
export function addSignInRoutes(router: Router, deps: SignInDeps): void {
  const { accountStore, sessionStore, clock } = deps;
  const parseSignIn = createBodyParser<{ email: string }>(SIGN_IN_BODY);
  const parseVerify = createBodyParser<{ email: string; code: string }>(VERIFY_BODY);
  const parseLink = createBodyParser<{ email: string; token: string }>(LINK_BODY);
  const readSession = createSessionAuth(deps);

  const accountFor = createProvenAccount(accountStore);

  const signIn = portalSignIn(deps);
  router.post('/sign-in', async (req, res) => {
    const email = emailOf(parseSignIn(req.body).email);
    sendAccepted(res, await signIn.ask(req, email), SIGN_IN_ROUTES.signIn.message);
  });

  router.post('/sign-in/verify', async (req, res) => {
    const body = parseVerify(req.body);
    const email = emailOf(body.email);
    await signIn.type(req, email, body.code);
    await startSession(req, res, email, 'code');
  });

  router.post('/sign-in/link', async (req, res) => {
    const body = parseLink(req.body);
    const email = emailOf(body.email);
    await signIn.follow(email, body.token);
    await startSession(req, res, email, 'link');
  });

  // The address is proven: its account (made now on a first sign-in) gets a new session.
  async function startSession(req: Request, res: Response, email: string, by: 'code' | 'link'): Promise<void> {
    // The proven address's account (made now on a first sign-in), then the team the person opens.
    const { account, member } = await teamOnSignIn(deps, await accountFor(email), email);
    const session = await beginSession(req, res, deps, account.id, member.person.id);
    await deps.signedIn?.(req, account, by, member.person);
    sendOk(res, { account, csrf_token: session.csrf_token, expires_at: session.expires_at }, SIGN_IN_ROUTES.verifySignIn.message);
  }

  router.get('/session', async (req, res) => {
    const { session, account } = await readSession(req);
    sendOk(res, { account, csrf_token: session.csrf_token, expires_at: session.expires_at }, SIGN_IN_ROUTES.session.message);
  });

  // No session, an unknown or a lapsed one, or one of a member who left the team is "signed out"; two session cookies or a suspended account are still refused.
  router.get('/session/state', async (req, res) => {
    let caller;
    try {
      caller = await readSession(req);
    } catch (err) {
      const reason = err instanceof AppError && err.code === 'UNAUTHORIZED' ? (err.details as { reason?: string } | undefined)?.reason : undefined;
      if (reason !== 'no_session' && reason !== 'session_expired' && reason !== 'not_a_member') throw err;
      sendOk(res, { signed_in: false }, SIGN_IN_ROUTES.sessionState.message);
      return;
    }
    const { session, account } = caller;
    sendOk(res, { signed_in: true, session: { account, csrf_token: session.csrf_token, expires_at: session.expires_at } }, SIGN_IN_ROUTES.sessionState.message);
  });

  // Signing out what is not signed in (no cookie, unknown or lapsed) just clears the cookie; a
  // live session ends only with its CSRF token, so another site cannot sign its user out.
  router.delete('/session', async (req, res) => {
    const value = sessionCookieOf(req);
    const tokenHash = value === undefined ? undefined : sha256(value);
    const session = tokenHash === undefined ? undefined : await sessionStore.getSession(tokenHash);
    if (session && tokenHash !== undefined) {
      if (Date.parse(session.expires_at) > clock() && !csrfMatches(req, session)) {
        throw new AppError('FORBIDDEN', 'signing out needs the session’s CSRF token in the x-csrf-token header', { details: { reason: 'csrf' } });
      }
      await sessionStore.deleteSession(tokenHash);
    }
    clearSessionCookie(res, cookieIsSecure(req, deps.publicUrl));
    sendOk(res, { signed_out: true }, SIGN_IN_ROUTES.signOut.message);
  });
}
