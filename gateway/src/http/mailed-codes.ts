import type { Request } from 'express';
import type { SchemaObject } from 'ajv';
import type { Mail } from '../mail/mailer';

/**
 * Codes mailed to prove an address, as any audience asks for them: the portal's sign-in and
 * proofs, and the operators' console (sign-in by an operator's address, a customer's proof sent
 * again). One implementation (the dashboard's, sign-in-codes.ts) is handed to the others by the
 * composition: its counters, tries and limits are the same whoever asks.
 */
export interface MailedCodes {
  /** JSON Schema of a code in a body: checked before the store is asked, so a typo costs no try. */
  field: SchemaObject;
  /** How long a code works, in ms. */
  ttlMs: number;
  /** Counts one request for a code from this client and for this address; 429 past the limit of either. */
  limit(req: Request, email: string): Promise<void>;
  /** Makes a code for `subject`, replacing any before, and mails `compose(code)`; resolves with when it lapses. */
  send(subject: string, compose: (code: string) => Mail): Promise<number>;
  /** Checks a code for `subject`: resolves when it matched (it is used up), else 401 `code_wrong` / `code_expired`. */
  check(subject: string, code: string): Promise<void>;
}
