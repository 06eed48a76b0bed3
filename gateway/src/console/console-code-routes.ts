import type { Request, Router } from 'express';
import { AppError, okEnvelope, requestIdOf, sendOk } from '@tollgate/envelope';
import type { QuerySchema } from '@tollgate/envelope';
import { clientBucket } from '../domain/client-address';
import { MAX_EMAIL_LENGTH, normaliseEmail } from '../domain/email';
import type { AccountStore } from '../data/account-store';
import type { AuditDeps } from '../data/audited-account-store';
import { createBodyParser } from '../http/body';
import { mailProofOfAddress } from '../http/mailed-codes';
import type { MailedCodes } from '../http/mailed-codes';
import type { ConsoleSessions, Operator, OperatorCaller } from './console-session';
import { sessionView } from './console-sign-in-routes';

/** What the console's mailed codes need. */
export interface ConsoleCodeDeps extends AuditDeps {
  sessions: ConsoleSessions;
  codes: MailedCodes;
  accountStore: AccountStore;
  operatorEmails: readonly string[];
  /** The console's origin for the mail (PUBLIC_URL); unset: the mail names the page's path alone. */
  publicUrl?: string;
  signedIn: (req: Request) => Promise<OperatorCaller>;
  clock: () => number;
}

// An operator's codes are theirs alone: a portal sign-in code for the same address opens nothing here.
const subjectOf = (email: string): string => `operator:${email}`;

const minutes = (ms: number): number => ms / 60_000;

/**
 * `/sign-in/code` and `/sign-in/code/verify` (an operator's address, listed in OPERATOR_EMAILS,
 * and the code mailed to it), and `/accounts/:id/verification` (a customer's proof of address
 * mailed again, by an operator) on the console's JSON router.
 */
export function addConsoleCodeRoutes(router: Router, deps: ConsoleCodeDeps): void {
  const { codes } = deps;
  const emailField = { type: 'string', minLength: 3, maxLength: MAX_EMAIL_LENGTH, description: 'an operator’s email address' };
  const parseAsk = createBodyParser<{ email: string }>({ type: 'object', additionalProperties: false, required: ['email'], properties: { email: emailField } } as QuerySchema);
  const parseVerify = createBodyParser<{ email: string; code: string }>({ type: 'object', additionalProperties: false, required: ['email', 'code'], properties: { email: emailField, code: codes.field } } as QuerySchema);
  const emailOf = (raw: string): string => {
    const email = normaliseEmail(raw);
    if (email === null) throw new AppError('BAD_REQUEST', 'email must be an email address, such as ops@example.com', { details: { parameter: 'email' } });
    return email;
  };
  const where = `${deps.publicUrl ?? ''}/admin/sign-in`;

  // The same answer whether the address is an operator's or not: only an operator's gets a mail.
  router.post('/sign-in/code', async (req, res) => {
    const email = emailOf(parseAsk(req.body).email);
    if (deps.operatorEmails.length === 0) throw new AppError('NOT_FOUND', 'signing in by mail is off: set OPERATOR_EMAILS to the operators’ addresses');
    await codes.limit(req, email);
    let expiresAtMs = deps.clock() + codes.ttlMs;
    if (deps.operatorEmails.includes(email)) {
      expiresAtMs = await codes.send(subjectOf(email), clientBucket(req.ip), (code) => ({
        to: email,
        subject: 'Your Tollgate console sign-in code',
        text: ['Your code to sign in to the Tollgate console:', '', `    ${code}`, '', `Enter it on ${where}. It works once, for ${minutes(codes.ttlMs)} minutes.`, 'If you did not ask for it, ignore this mail: nobody can sign in without it.'].join('\n'),
      }));
    }
    res.status(202).json(okEnvelope({ email, expires_at: new Date(expiresAtMs).toISOString() }, 'If this is an operator’s address, a code is on its way', requestIdOf(res)));
  });

  router.post('/sign-in/code/verify', async (req, res) => {
    const body = parseVerify(req.body);
    const email = emailOf(body.email);
    // A code of an address no longer among the operators' was never sent (or is void now): the same refusal.
    await codes.check(subjectOf(email), clientBucket(req.ip), body.code);
    if (!deps.operatorEmails.includes(email)) throw new AppError('UNAUTHORIZED', 'no code is waiting here: ask for a new one', { details: { reason: 'code_expired' } });
    const operator: Operator = { by: 'email', name: email };
    const session = await deps.sessions.start(req, res, operator);
    sendOk(res, sessionView({ operator, session }), 'Signed in');
  });

  router.post('/accounts/:id/verification', async (req, res) => {
    const { operator } = await deps.signedIn(req);
    const account = await deps.accountStore.getAccount(req.params.id);
    if (!account) throw new AppError('NOT_FOUND', `no account with id ${req.params.id}`);
    const { email, expiresAtMs } = await mailProofOfAddress(codes, req, account, {
      ttlMs: codes.ttlMs,
      intro: 'Our operators sent you a new code to prove this address for your Tollgate account:',
      noEmail: 'this account has no email address to prove',
    });
    const entry = { account_id: account.id, actor: { type: 'operator' as const, id: operator.name, via: 'console' }, from: req.ip ?? null, action: 'account.verification_sent' as const, target: null, details: { email } };
    await deps.auditLog.append(entry).catch((err: unknown) => deps.onAuditFailure(entry, err as Error));
    res.status(202).json(okEnvelope({ email, expires_at: new Date(expiresAtMs).toISOString() }, 'Verification code sent', requestIdOf(res)));
  });
}
