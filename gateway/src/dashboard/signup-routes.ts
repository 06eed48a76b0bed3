import type { Router } from 'express';
import { AppError } from '@tollgate/envelope/core';
import type { QuerySchema, RouteDoc } from '@tollgate/envelope/core';
import { KeyLimitError } from '../data/account-store';
import type { AccountStore } from '../data/account-store';
import type { QuotaStore } from '../data/quota-store';
import { ACCOUNT_SCHEMA, API_KEY_WITH_SECRET_SCHEMA } from '../http/account-schemas';
import { createBodyParser } from '../http/body';
import { sendCreated } from '../http/send-created';
import { clientBucket } from '../domain/client-address';
import { hourWindow, secondsUntil } from '../domain/windows';
import { MAX_LIVE_KEYS } from './dashboard-key-routes';
import type { MailedSignIn } from '../http/mailed-sign-in';
import { createProvenAccount } from './proven-account';
import { CODE_SENT_SCHEMA, EMAIL_FIELD, VERIFY_BODY, emailOf, sendAccepted } from './sign-in-routes';

const SIGNUP_BODY: QuerySchema = { type: 'object', additionalProperties: false, required: ['email'], properties: { email: EMAIL_FIELD } };
const SIGNED_UP_SCHEMA = { type: 'object', additionalProperties: false, required: ['account', 'key'], properties: { account: ACCOUNT_SCHEMA, key: API_KEY_WITH_SECRET_SCHEMA } };

/** JSON sign-up, described once (merged into DASHBOARD_ROUTES). */
export const SIGNUP_ROUTES = {
  signup: {
    method: 'post',
    path: '/dashboard/v1/signup',
    summary: 'Sign up by JSON: mails a sign-in code to the address, exactly as POST /dashboard/v1/sign-in does, whether or not it already has an account (the answer is the same either way)',
    body: SIGNUP_BODY,
    data: CODE_SENT_SCHEMA,
    message: 'Code sent; check your mail, then send it to POST /dashboard/v1/signup/verify',
    successStatus: 202,
    errors: ['BAD_REQUEST', 'RATE_LIMITED', 'UPSTREAM_UNAVAILABLE', 'STORE_UNAVAILABLE'],
  },
  verifySignup: {
    method: 'post',
    path: '/dashboard/v1/signup/verify',
    summary: 'Prove the address with the mailed code: its account (made now for a new address, the existing one otherwise) gets a new key, whose secret is shown once',
    body: VERIFY_BODY,
    data: SIGNED_UP_SCHEMA,
    message: 'Signed up; keep this key, it is shown once',
    successStatus: 201,
    errors: ['BAD_REQUEST', 'UNAUTHORIZED', 'FORBIDDEN', 'CONFLICT', 'RATE_LIMITED', 'STORE_UNAVAILABLE'],
  },
} satisfies Record<string, RouteDoc>;

/** What JSON sign-up needs. */
export interface SignupDeps {
  /** The account store as the sign-up changes it (audited). */
  accountStore: AccountStore;
  quotaStore: QuotaStore;
  clock: () => number;
  signupsPerHour: number;
  /** The portal's sign-in: its code proves the address here too. */
  signIn: MailedSignIn;
}

/**
 * Adds `/signup` and `/signup/verify`. No account is made until its address is proven, so an
 * address that already has one leads into that account (a new key in it), never to a second
 * account, and the first answer cannot tell whether the address was known.
 */
export function addSignupRoutes(router: Router, deps: SignupDeps): void {
  const parseSignup = createBodyParser<{ email: string }>(SIGNUP_BODY);
  const parseVerify = createBodyParser<{ email: string; code: string }>(VERIFY_BODY);
  const accountFor = createProvenAccount(deps.accountStore);

  router.post('/signup', async (req, res) => {
    const email = emailOf(parseSignup(req.body).email);
    const nowMs = deps.clock();
    // An IPv6 client by its /64: one host holds them all.
    const count = await deps.quotaStore.countSignup(clientBucket(req.ip), nowMs);
    if (count > deps.signupsPerHour) {
      const retry = secondsUntil(hourWindow(nowMs).endMs, nowMs);
      throw new AppError('RATE_LIMITED', `Too many sign-ups from your network this hour. Try again in ${retry} seconds.`, { headers: { 'Retry-After': String(retry) } });
    }
    sendAccepted(res, await deps.signIn.ask(req, email), SIGNUP_ROUTES.signup.message);
  });

  router.post('/signup/verify', async (req, res) => {
    const body = parseVerify(req.body);
    const email = emailOf(body.email);
    await deps.signIn.type(req, email, body.code);
    const account = await accountFor(email);
    let created;
    try {
      created = await deps.accountStore.createKey(account.id, { name: 'default', maxLive: MAX_LIVE_KEYS });
    } catch (err) {
      if (!(err instanceof KeyLimitError)) throw err;
      throw new AppError('CONFLICT', `Your account already has ${MAX_LIVE_KEYS} live keys, the most it may hold. Revoke one on the Keys page (/portal/keys) first.`, { cause: err, details: { max_live_keys: MAX_LIVE_KEYS } });
    }
    if (!created) throw new AppError('UNAUTHORIZED', 'This account no longer exists. Sign up again.', { details: { reason: 'unknown' } });
    sendCreated(res, { account, key: { ...created.record, key: created.key } }, SIGNUP_ROUTES.verifySignup.message);
  });
}
