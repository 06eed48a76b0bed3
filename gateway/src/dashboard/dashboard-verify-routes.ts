import type { Request, Router } from 'express';
import { AppError, sendOk } from '@tollgate/envelope/core';
import type { QuerySchema, RouteDoc } from '@tollgate/envelope/core';
import type { AccountStore } from '../data/account-store';
import { ACCOUNT_SCHEMA } from '../http/account-schemas';
import { createBodyParser } from '../http/body';
import { ACCOUNT_SLOT, mailProofOfAddress } from '../http/mailed-codes';
import { CALLER_ERRORS } from './dashboard-auth';
import type { DashboardCaller } from './dashboard-auth';
import { CODE_FIELD, CODE_TTL_MS } from './sign-in-codes';
import type { Codes } from '../http/mailed-codes';
import { CODE_SENT_SCHEMA, sendAccepted } from './sign-in-routes';

const CONFIRM_BODY: QuerySchema = { type: 'object', additionalProperties: false, required: ['code'], properties: { code: CODE_FIELD } };
const EMPTY_BODY: QuerySchema = { type: 'object', additionalProperties: false, properties: {} };
const ACCOUNT_ONLY = { type: 'object', additionalProperties: false, required: ['account'], properties: { account: ACCOUNT_SCHEMA } };

/** How an unproven account proves its address, as the refusals say it. */
export const HOW_TO_VERIFY = 'POST /dashboard/v1/account/verify-email mails a code, POST /dashboard/v1/account/verify-email/confirm {"code": "…"} proves it (or sign in at /portal/sign-in with the address)';

/** The proof step of JSON self-service, described once (merged into DASHBOARD_ROUTES). */
export const DASHBOARD_VERIFY_ROUTES = {
  verifyEmail: {
    method: 'post',
    path: '/dashboard/v1/account/verify-email',
    summary: `Mail a ${CODE_TTL_MS / 60_000}-minute code to your account’s address, to prove it (until then only the playground is open)`,
    data: CODE_SENT_SCHEMA,
    message: 'Code sent; check your mail',
    successStatus: 202,
    errors: ['CONFLICT', 'RATE_LIMITED', 'UPSTREAM_UNAVAILABLE', ...CALLER_ERRORS],
  },
  confirmEmail: { method: 'post', path: '/dashboard/v1/account/verify-email/confirm', summary: 'Prove your account’s address with the mailed code', body: CONFIRM_BODY, data: ACCOUNT_ONLY, message: 'Email address proven', errors: ['CONFLICT', 'RATE_LIMITED', ...CALLER_ERRORS] },
} satisfies Record<string, RouteDoc>;

/** What the proof routes need. */
export interface DashboardVerifyDeps {
  accountStore: AccountStore;
  codes: Codes;
  authenticate: (req: Request) => Promise<DashboardCaller>;
  /** The account store as a caller changes it: each change recorded in the audit log as theirs. */
  changesBy: (req: Request, caller: DashboardCaller) => AccountStore;
}

const proven = (): AppError => new AppError('CONFLICT', 'this account’s email address is already proven', { details: { reason: 'already_verified' } });

/** Adds `/account/verify-email` and its `/confirm` to the dashboard router. */
export function addDashboardVerifyRoutes(router: Router, deps: DashboardVerifyDeps): void {
  const { codes, authenticate, changesBy } = deps;
  const parseConfirm = createBodyParser<{ code: string }>(CONFIRM_BODY);
  const parseEmpty = createBodyParser<object>(EMPTY_BODY);

  router.post('/account/verify-email', async (req, res) => {
    const { account } = await authenticate(req);
    parseEmpty(req.body);
    // Sign-up gives an address already held by another account no email: there is nothing to prove.
    const { email, expiresAtMs } = await mailProofOfAddress(codes, req, account, {
      ttlMs: CODE_TTL_MS,
      intro: 'Your code to prove this address for your Tollgate account:',
      noEmail: 'this account has no email address to prove (the one it signed up with belongs to another account): sign in with that address at /portal/sign-in instead',
    });
    sendAccepted(res, { email, expires_at: new Date(expiresAtMs).toISOString() }, DASHBOARD_VERIFY_ROUTES.verifyEmail.message);
  });

  router.post('/account/verify-email/confirm', async (req, res) => {
    const caller = await authenticate(req);
    const { account } = caller;
    const { code } = parseConfirm(req.body);
    if (account.email_verified) throw proven();
    await codes.check(`verify:${account.id}`, ACCOUNT_SLOT, code);
    const updated = await changesBy(req, caller).setEmailVerified(account.id);
    if (!updated) throw new AppError('UNAUTHORIZED', 'unknown API key', { details: { reason: 'unknown' } });
    sendOk(res, { account: updated }, DASHBOARD_VERIFY_ROUTES.confirmEmail.message);
  });
}
