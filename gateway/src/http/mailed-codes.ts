import type { Request } from 'express';
import type { SchemaObject } from 'ajv';
import { AppError } from '@tollgate/envelope/core';
import type { Account } from '../data/account-store';
import type { Mail } from '../mail/mailer';

/** How a code's mail goes: awaited (a mail server that refuses it is a 502 to retry), or after the answer. */
export interface SendOptions {
  /**
   * Sends the mail after resolving, telling `background` of a failure: the answer then takes as long
   * whether a mail went or not (see {@link Codes.hold}).
   */
  background?: (err: Error) => void;
}

/**
 * Codes mailed to prove an address, as any audience asks for them: the portal's sign-in and
 * proofs, and the operators' console (sign-in by an operator's address, a customer's proof sent
 * again). One implementation (the dashboard's, sign-in-codes.ts) is handed to the others by the
 * composition: its counters, tries and limits are the same whoever asks.
 */
export interface Codes {
  /** Counts one request for a code from this client network, in all and for this address; 429 past either limit. */
  limit(req: Request, email: string): Promise<void>;
  /**
   * Makes a code (and a link token) for `subject` in `slot`, replacing that slot's code and no
   * other, and mails `compose(code, token)`; resolves with when it lapses. A slot is the client's
   * network where a stranger could ask for codes, so a request from one network never voids a code
   * another is about to use. 429 `codes_pending` while other slots hold the most live codes.
   */
  send(subject: string, slot: string, compose: (code: string, token: string) => Mail, options?: SendOptions): Promise<number>;
  /**
   * Holds `slot` as {@link send} would, with a code no digits and no link open, and mails nothing:
   * an address that may not sign in answers every request and guess as one that may.
   */
  hold(subject: string, slot: string): Promise<number>;
  /** Checks typed digits against the slot's code: resolves when they matched (it is used up), else 401 `code_wrong` / `code_expired`, or 429. */
  check(subject: string, slot: string, code: string): Promise<void>;
  /** Checks a mailed link's token against every slot's code: resolves when one matched (it is used up), else 401. */
  checkLink(subject: string, token: string): Promise<void>;
}

/** The codes as the console is handed them: with the schema of a typed code and how long one works. */
export interface MailedCodes extends Codes {
  /** JSON Schema of a code in a body: checked before the store is asked, so a typo costs no try. */
  field: SchemaObject;
  /** How long a code works, in ms. */
  ttlMs: number;
}

/** The slot of a code proving an account's address: asked for and confirmed with the account's own key or session, from any network. */
export const ACCOUNT_SLOT = 'account';

/** What mailing a proof of address needs of the codes. */
export type ProofCodes = Pick<MailedCodes, 'limit' | 'send'>;

/**
 * Mails a code that proves an account's address (subject `verify:<accountId>`), as a customer asks
 * for it and as an operator sends it again: 409 `already_verified` when it is proven, 409
 * `no_email` (saying `noEmail`) when there is no address; the limits of `codes` count it. Resolves
 * with the address and when the code lapses.
 */
export async function mailProofOfAddress(codes: ProofCodes, req: Request, account: Pick<Account, 'id' | 'email' | 'email_verified'>, wording: { ttlMs: number; intro: string; noEmail: string }): Promise<{ email: string; expiresAtMs: number }> {
  if (account.email_verified) throw new AppError('CONFLICT', 'this account’s email address is already proven', { details: { reason: 'already_verified' } });
  if (account.email === null) throw new AppError('CONFLICT', wording.noEmail, { details: { reason: 'no_email' } });
  const email = account.email;
  await codes.limit(req, email);
  const expiresAtMs = await codes.send(`verify:${account.id}`, ACCOUNT_SLOT, (code) => ({
    to: email,
    subject: 'Prove your Tollgate email address',
    text: [
      wording.intro,
      '',
      `    ${code}`,
      '',
      'Send it with POST /dashboard/v1/account/verify-email/confirm {"code": "…"} and one of your API keys, or sign in to the portal with this address.',
      '',
      `The code works once, for ${wording.ttlMs / 60_000} minutes. If you did not ask for it, ignore this mail.`,
    ].join('\n'),
  }));
  return { email, expiresAtMs };
}
