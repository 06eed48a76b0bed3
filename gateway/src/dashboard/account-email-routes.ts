import type { Request, Router } from 'express';
import { AppError, sendOk } from '@tollgate/envelope/core';
import type { QuerySchema, RouteDoc } from '@tollgate/envelope/core';
import { MAX_EMAIL_LENGTH } from '../domain/email';
import { EmailTakenError } from '../data/account-store';
import type { AccountStore } from '../data/account-store';
import type { SessionStore } from '../data/session-store';
import { PersonEmailTakenError } from '../data/team-store';
import type { TeamStore } from '../data/team-store';
import { ACCOUNT_SCHEMA } from '../http/account-schemas';
import { createBodyParser } from '../http/body';
import { ACCOUNT_SLOT } from '../http/mailed-codes';
import type { Mailer } from '../mail/mailer';
import { emailChangeCodeMail, emailChangedMail, emailTakenMail } from './account-settings-mail';
import { SETTINGS_ERRORS, endSessions, isOwnSession } from './account-sessions-routes';
import { CODE_FIELD, CODE_TTL_MS, mailOrRefuse } from './sign-in-codes';
import type { Codes } from '../http/mailed-codes';
import { CODE_SENT_SCHEMA, emailOf, sendAccepted } from './sign-in-routes';
import type { SessionCaller } from './session-auth';

const EMAIL_FIELD = { type: 'string', minLength: 3, maxLength: MAX_EMAIL_LENGTH, description: 'the new email address' };
const CHANGE_BODY: QuerySchema = { type: 'object', additionalProperties: false, required: ['email'], properties: { email: EMAIL_FIELD } };
const CONFIRM_BODY: QuerySchema = { type: 'object', additionalProperties: false, required: ['email', 'code'], properties: { email: EMAIL_FIELD, code: CODE_FIELD } };
const CHANGED = {
  type: 'object',
  additionalProperties: false,
  required: ['account', 'signed_out'],
  properties: { account: ACCOUNT_SCHEMA, signed_out: { type: 'integer', minimum: 0, description: 'How many other sessions of the account were signed out' } },
};

/** Moving the account to another address, described once (merged into DASHBOARD_ROUTES). */
export const ACCOUNT_EMAIL_ROUTES = {
  changeEmail: {
    method: 'post',
    path: '/dashboard/v1/account/email',
    summary: `Move your account to another address (session cookie only): mails a ${CODE_TTL_MS / 60_000}-minute code to the new address (the same answer whether or not the address already has an account: that one gets a mail saying so instead)`,
    body: CHANGE_BODY,
    data: CODE_SENT_SCHEMA,
    message: 'Code sent to the new address; check your mail',
    successStatus: 202,
    errors: ['CONFLICT', 'RATE_LIMITED', 'UPSTREAM_UNAVAILABLE', ...SETTINGS_ERRORS],
  },
  confirmEmailChange: {
    method: 'post',
    path: '/dashboard/v1/account/email/confirm',
    summary: 'Confirm the move with the code mailed to the new address: the old address is told by mail, and every other session of the account is signed out',
    body: CONFIRM_BODY,
    data: CHANGED,
    message: 'Email address changed',
    errors: ['CONFLICT', 'RATE_LIMITED', 'UPSTREAM_UNAVAILABLE', ...SETTINGS_ERRORS],
  },
} satisfies Record<string, RouteDoc>;

/** What moving an account to another address needs. */
export interface AccountEmailDeps {
  accountStore: AccountStore;
  sessionStore: SessionStore;
  teamStore: TeamStore;
  codes: Codes;
  mailer: Mailer;
  clock: () => number;
  supportEmail?: string;
  signedIn: (req: Request) => Promise<SessionCaller>;
  /** The account store as the signed-in customer changes it (audited as theirs). */
  changesBy: (req: Request, caller: SessionCaller) => AccountStore;
}

// The code is bound to the account and the address it proves: a code for one address moves to no other.
const subjectOf = (accountId: string, email: string): string => `email-change:${accountId}|${email}`;

const taken = (): AppError => new AppError('CONFLICT', 'another account took this address meanwhile, so nothing changed: choose another address', { details: { reason: 'email_taken' } });

/** Adds `/account/email` and its `/confirm` to the dashboard router. */
export function addAccountEmailRoutes(router: Router, deps: AccountEmailDeps): void {
  const { accountStore, codes, signedIn } = deps;
  const parseChange = createBodyParser<{ email: string }>(CHANGE_BODY);
  const parseConfirm = createBodyParser<{ email: string; code: string }>(CONFIRM_BODY);
  const sameAddress = (): AppError => new AppError('CONFLICT', 'this is already your account’s address', { details: { reason: 'same_email' } });

  router.post('/account/email', async (req, res) => {
    const { account } = await signedIn(req);
    const email = emailOf(parseChange(req.body).email);
    if (email === account.email) throw sameAddress();
    await codes.limit(req, email);
    let expiresAtMs: number;
    // As sign-in answers: the asker learns nothing of whether the address has an account; its owner does.
    if ((await accountStore.findAccountByEmail(email)) || (await deps.teamStore.findPersonByEmail(email))) {
      expiresAtMs = deps.clock() + CODE_TTL_MS;
      await mailOrRefuse(deps.mailer, emailTakenMail(email));
    } else {
      expiresAtMs = await codes.send(subjectOf(account.id, email), ACCOUNT_SLOT, (code) => emailChangeCodeMail(email, code));
    }
    sendAccepted(res, { email, expires_at: new Date(expiresAtMs).toISOString() }, ACCOUNT_EMAIL_ROUTES.changeEmail.message);
  });

  router.post('/account/email/confirm', async (req, res) => {
    const caller = await signedIn(req);
    const { account } = caller;
    const body = parseConfirm(req.body);
    const email = emailOf(body.email);
    if (email === account.email) throw sameAddress();
    await codes.check(subjectOf(account.id, email), ACCOUNT_SLOT, body.code);
    if ((await accountStore.findAccountByEmail(email)) || (await deps.teamStore.findPersonByEmail(email))) throw taken();
    // Told before the change: a mail server that refuses leaves the address as it was (a 502 to retry).
    if (account.email !== null) await mailOrRefuse(deps.mailer, emailChangedMail(account.email, email, deps.supportEmail));
    // The person signs in by the address they founded the team with: it moves first, with the
    // team's after it (moved back when the team's is taken meanwhile).
    const moves = caller.person.email === account.email;
    let changed;
    try {
      if (moves) await deps.teamStore.changePersonEmail(caller.person.id, email);
      changed = await deps.changesBy(req, caller).changeEmail(account.id, email);
    } catch (err) {
      if (err instanceof EmailTakenError && moves) await deps.teamStore.changePersonEmail(caller.person.id, caller.person.email);
      throw err instanceof EmailTakenError || err instanceof PersonEmailTakenError ? taken() : err;
    }
    if (!changed) throw new AppError('UNAUTHORIZED', 'the account of this session no longer exists', { details: { reason: 'no_session' } });
    const signedOut = await endSessions(deps.sessionStore, account.id, caller.tokenHash, deps.clock(), (session) => isOwnSession(session, caller));
    sendOk(res, { account: changed, signed_out: signedOut }, ACCOUNT_EMAIL_ROUTES.confirmEmailChange.message);
  });
}
