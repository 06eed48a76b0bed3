import type { Router } from 'express';
import { AppError, sendOk } from '@tollgate/envelope/core';
import type { QuerySchema } from '@tollgate/envelope/core';
import type { AdminTokenCheck } from '../http/admin-auth';
import { createBodyParser } from '../http/body';
import type { ConsoleSessions, Operator, OperatorCaller } from './console-session';

const TOKEN_BODY: QuerySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['token'],
  properties: { token: { type: 'string', minLength: 1, maxLength: 500, description: 'the admin token' } },
};

/** What the console's sign-in routes need. */
export interface ConsoleSignInDeps {
  sessions: ConsoleSessions;
  /** The admin token and its check (wrong tokens limited per network, with the admin API's and /metrics'). */
  adminCheck: AdminTokenCheck;
  operatorEmails: readonly string[];
}

/** The session as the console's pages read it: who, its CSRF token, its end. */
export const sessionView = (caller: Pick<OperatorCaller, 'operator' | 'session'>): { operator: Operator; csrf_token: string; expires_at: string } => ({
  operator: caller.operator,
  csrf_token: caller.session.csrf_token,
  expires_at: caller.session.expires_at,
});

/**
 * `/sign-in` (which ways are open), `/sign-in/token`, and `/session` (read, sign out) on the
 * console's JSON router. The mailed code for operators' addresses is added beside these.
 */
export function addConsoleSignInRoutes(router: Router, deps: ConsoleSignInDeps): void {
  const { sessions, adminCheck } = deps;
  const adminToken = adminCheck.token;
  const parseToken = createBodyParser<{ token: string }>(TOKEN_BODY);

  router.get('/sign-in', (_req, res) => {
    sendOk(res, { token: adminToken.source !== 'none', email: deps.operatorEmails.length > 0 }, 'Ways to sign in');
  });

  router.post('/sign-in/token', async (req, res) => {
    const { token } = parseToken(req.body);
    if (adminToken.source === 'none') throw new AppError('NOT_FOUND', 'signing in with the admin token is off: set ADMIN_TOKEN (or run on a store file, which keeps one)');
    if (!(await adminCheck.check(req, token))) throw new AppError('UNAUTHORIZED', 'wrong admin token', { details: { reason: 'wrong_token' } });
    const operator: Operator = { by: 'token', name: 'admin token' };
    const session = await sessions.start(req, res, operator, 'token');
    sendOk(res, sessionView({ operator, session }), 'Signed in');
  });

  router.get('/session', async (req, res) => {
    sendOk(res, sessionView(await sessions.read(req)), 'Signed in');
  });

  // Signing out what is not signed in just clears the cookie; a live session ends only with its
  // CSRF token (read checks it), so another site cannot sign an operator out.
  router.delete('/session', async (req, res) => {
    try {
      await sessions.read(req);
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'UNAUTHORIZED') throw err;
    }
    await sessions.end(req, res);
    sendOk(res, { signed_out: true }, 'Signed out');
  });
}
