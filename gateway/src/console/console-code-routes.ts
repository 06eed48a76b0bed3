import type { Request, Response, Router } from 'express';
import { AppError, okEnvelope, requestIdOf, sendOk } from '@tollgate/envelope/core';
import type { QuerySchema } from '@tollgate/envelope/core';
import { MAX_EMAIL_LENGTH, normaliseEmail } from '../domain/email';
import type { AccountStore } from '../data/account-store';
import { appendAudit } from '../data/audited-account-store';
import type { AuditDeps } from '../data/audited-account-store';
import { requestSource } from '../http/audit-source';
import { createBodyParser } from '../http/body';
import { mailProofOfAddress } from '../http/mailed-codes';
import type { MailedCodes } from '../http/mailed-codes';
import { LINK_TOKEN_FIELD, createMailedSignIn } from '../http/mailed-sign-in';
import type { Mail } from '../mail/mailer';
import type { ConsoleSessions, Operator, OperatorCaller } from './console-session';
import { sessionView } from './console-sign-in-routes';

/** What the console's mailed codes need. */
export interface ConsoleCodeDeps extends AuditDeps {
  sessions: ConsoleSessions;
  codes: MailedCodes;
  accountStore: AccountStore;
  operatorEmails: readonly string[];
  /** The origin of the mail's link (PUBLIC_URL); unset: the request's own when it names this gateway (http/link-origin.ts). */
  publicUrl?: string;
  signedIn: (req: Request) => Promise<OperatorCaller>;
  /** Told of a sign-in mail the mail server did not take (it goes after the answer). */
  mailFailed: (err: Error) => void;
}

const minutes = (ms: number): number => ms / 60_000;

/** The console's sign-in mail: the code, and (when its origin can be trusted) the link that signs in from anywhere. */
function consoleMail(to: string, code: string, link: string | undefined, ttlMs: number): Mail {
  const how = link ? ['Enter it on the console’s sign-in page, or open this link (on any device):', link] : ['Enter it on the console’s sign-in page (/admin/sign-in).'];
  return {
    to,
    subject: 'Your Tollgate console sign-in code',
    text: ['Your code to sign in to the Tollgate console:', '', `    ${code}`, '', ...how, '', `It works once, for ${minutes(ttlMs)} minutes. If you did not ask for it, ignore this mail: nobody can sign in without it.`].join('\n'),
  };
}

/**
 * `/sign-in/code`, `/sign-in/code/verify` and `/sign-in/link` (an operator's address, listed in
 * OPERATOR_EMAILS, and the code or link mailed to it), and `/accounts/:id/verification` (a customer's proof of address
 * mailed again, by an operator) on the console's JSON router.
 */
export function addConsoleCodeRoutes(router: Router, deps: ConsoleCodeDeps): void {
  const { codes } = deps;
  const emailField = { type: 'string', minLength: 3, maxLength: MAX_EMAIL_LENGTH, description: 'an operator’s email address' };
  const parseAsk = createBodyParser<{ email: string }>({ type: 'object', additionalProperties: false, required: ['email'], properties: { email: emailField } } as QuerySchema);
  const parseVerify = createBodyParser<{ email: string; code: string }>({ type: 'object', additionalProperties: false, required: ['email', 'code'], properties: { email: emailField, code: codes.field } } as QuerySchema);
  const parseLink = createBodyParser<{ email: string; token: string }>({ type: 'object', additionalProperties: false, required: ['email', 'token'], properties: { email: emailField, token: LINK_TOKEN_FIELD } } as QuerySchema);
  const emailOf = (raw: string): string => {
    const email = normaliseEmail(raw);
    if (email === null) throw new AppError('BAD_REQUEST', 'email must be an email address, such as ops@example.com', { details: { parameter: 'email' } });
    return email;
  };
  // The portal's rules, under a subject of the console's own: a portal code for the same address
  // opens nothing here. Any address gets the same answers; only an operator's gets a mail.
  const signIn = createMailedSignIn(codes, {
    subjectOf: (email) => `operator:${email}`,
    page: '/admin/sign-in',
    mail: (email, code, link) => consoleMail(email, code, link, codes.ttlMs),
    admits: (email) => deps.operatorEmails.includes(email),
    mailFailed: deps.mailFailed,
    publicUrl: deps.publicUrl,
  });
  const mailOn = (): void => {
    if (deps.operatorEmails.length === 0) throw new AppError('NOT_FOUND', 'signing in by mail is off: set OPERATOR_EMAILS to the operators’ addresses');
  };
  const start = async (req: Request, res: Response, email: string, by: 'code' | 'link'): Promise<void> => {
    const operator: Operator = { by: 'email', name: email };
    const session = await deps.sessions.start(req, res, operator, by);
    sendOk(res, sessionView({ operator, session }), 'Signed in');
  };

  router.post('/sign-in/code', async (req, res) => {
    const email = emailOf(parseAsk(req.body).email);
    mailOn();
    res.status(202).json(okEnvelope(await signIn.ask(req, email), 'If this is an operator’s address, a code is on its way', requestIdOf(res)));
  });

  router.post('/sign-in/code/verify', async (req, res) => {
    const body = parseVerify(req.body);
    const email = emailOf(body.email);
    mailOn();
    await signIn.type(req, email, body.code);
    await start(req, res, email, 'code');
  });

  router.post('/sign-in/link', async (req, res) => {
    const body = parseLink(req.body);
    const email = emailOf(body.email);
    mailOn();
    await signIn.follow(email, body.token);
    await start(req, res, email, 'link');
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
    await appendAudit(deps, { account_id: account.id, ...requestSource(req, { type: 'operator', id: operator.name, via: 'console' }), action: 'account.verification_sent', target: null, details: { email } });
    res.status(202).json(okEnvelope({ email, expires_at: new Date(expiresAtMs).toISOString() }, 'Verification code sent', requestIdOf(res)));
  });
}
