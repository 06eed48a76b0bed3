import type { Request } from 'express';
import { AppError } from '@tollgate/envelope/core';
import { clientBucket } from '../domain/client-address';
import type { Mail } from '../mail/mailer';
import { linkOrigin } from './link-origin';
import type { Codes } from './mailed-codes';

/** JSON Schema of a mailed link's token (32 random bytes, base64url, as session tokens are made). */
export const LINK_TOKEN_FIELD = { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$', description: 'the token from the link in the mail' };

/** One audience's sign-in by mailed code and link: the portal's, the console's. */
export interface MailedSignInRules {
  /** The subject an address's codes are kept under: one audience's code opens nothing of another's. */
  subjectOf(email: string): string;
  /** The page the mailed link opens (`/portal/sign-in`), with `email` and `token` in its query. */
  page: string;
  /** The mail: the code, and the link when its origin can be trusted (see link-origin.ts). */
  mail(email: string, code: string, link: string | undefined): Mail;
  /**
   * Whether an address may sign in here (unset: every address, as the portal makes an account for a
   * new one). Any other gets every answer the same: a code held in its slot that nothing opens, no mail.
   */
  admits?(email: string): boolean;
  /** Set: each mail goes after the answer (whose time then tells nothing of the address), a failure told here. */
  mailFailed?(err: Error): void;
  /** The origin of the links (`PUBLIC_URL`). */
  publicUrl?: string;
}

/** Asking for a code, typing it and following the mailed link, under one audience's rules. */
export interface MailedSignIn {
  /** Mails a code and link to `email` within the code limits (or holds a slot for an address not admitted); says until when it works. */
  ask(req: Request, email: string): Promise<{ email: string; expires_at: string }>;
  /** Resolves when the code typed from the network that asked for it signs `email` in; else 401 or 429 as the codes say. */
  type(req: Request, email: string, code: string): Promise<void>;
  /** Resolves when the mailed link's token signs `email` in, from any network; else 401. */
  follow(email: string, token: string): Promise<void>;
}

// Only a code that reached an address admitted when it was asked for can match: the same 401 as a used one.
const notAdmitted = (): AppError => new AppError('UNAUTHORIZED', 'no code is waiting here: ask for a new one', { details: { reason: 'code_expired' } });

/**
 * The sign-in rules of the security notes (security.md, "Sign-in attack limits") for any audience:
 * a code per address and network, typed checks limited per network and address, and a link in every
 * mail that signs in from anywhere whatever the typed limits say, the way out of every lockout.
 */
export function createMailedSignIn(codes: Codes, rules: MailedSignInRules): MailedSignIn {
  const admitted = (email: string): boolean => rules.admits?.(email) ?? true;
  return {
    async ask(req, email) {
      const origin = linkOrigin(req, rules.publicUrl);
      await codes.limit(req, email);
      const subject = rules.subjectOf(email);
      const slot = clientBucket(req.ip);
      const linkOf = (token: string): string | undefined => (origin === undefined ? undefined : `${origin}${rules.page}?${new URLSearchParams({ email, token }).toString()}`);
      const expiresAtMs = admitted(email)
        ? await codes.send(subject, slot, (code, token) => rules.mail(email, code, linkOf(token)), rules.mailFailed ? { background: rules.mailFailed } : {})
        : await codes.hold(subject, slot);
      return { email, expires_at: new Date(expiresAtMs).toISOString() };
    },
    async type(req, email, code) {
      await codes.check(rules.subjectOf(email), clientBucket(req.ip), code);
      if (!admitted(email)) throw notAdmitted();
    },
    async follow(email, token) {
      await codes.checkLink(rules.subjectOf(email), token);
      if (!admitted(email)) throw notAdmitted();
    },
  };
}
