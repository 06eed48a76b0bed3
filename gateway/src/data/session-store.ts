import { createHash } from 'node:crypto';
import { dayWindow, hourWindow } from '../domain/windows';
import type { Window } from '../domain/windows';

/** A portal session, stored under the SHA-256 of its cookie value (the value itself never is). */
export interface Session {
  account_id: string;
  /** Sent back in `x-csrf-token` with every state change made with the cookie. */
  csrf_token: string;
  created_at: string;
  expires_at: string;
}

/** A one-time code sent by mail, stored as its hash. */
export interface StoredCode {
  hash: string;
  expiresAtMs: number;
  /** Wrong tries allowed before the code is void. */
  tries: number;
}

/**
 * What checking a code found: it matched (and is now used up), it did not (tries left; 0: now
 * void), it lapsed, or there is none (never sent, used, or voided).
 */
export type CodeCheck = { outcome: 'ok' } | { outcome: 'wrong'; triesLeft: number } | { outcome: 'expired' } | { outcome: 'none' };

/**
 * Seconds a lapsed session or code is kept after its end, so it is refused as expired rather than
 * as unknown (a clearer message), then dropped.
 */
export const KEEP_AFTER_END_SECONDS = 86_400;

/**
 * Portal sessions, the codes mailed to prove an address, and the counters that limit asking for
 * them. Every record has an end and is dropped after it ({@link KEEP_AFTER_END_SECONDS}).
 */
export interface SessionStore {
  putSession(tokenHash: string, session: Session): Promise<void>;
  /** The session, also one that has lapsed (callers compare `expires_at` with their clock). */
  getSession(tokenHash: string): Promise<Session | undefined>;
  deleteSession(tokenHash: string): Promise<void>;
  /** Stores the code for a subject (`sign-in:<email>`, `verify:<accountId>`), replacing any before. */
  putCode(subject: string, code: StoredCode): Promise<void>;
  /** Checks a code's hash against the subject's, as one atomic step: a match uses it up, a miss costs a try. */
  checkCode(subject: string, hash: string, nowMs: number): Promise<CodeCheck>;
  /** Counts one attempt of `subject` in the current UTC hour (or day); returns the count including it. */
  countAttempt(subject: string, nowMs: number, window?: AttemptWindow): Promise<number>;
}

/** The calendar window an attempt is counted in. */
export type AttemptWindow = 'hour' | 'day';

/** The UTC window of `nowMs` that attempts are counted in. */
export function attemptWindow(window: AttemptWindow, nowMs: number): Window {
  return window === 'day' ? dayWindow(nowMs) : hourWindow(nowMs);
}

/** SHA-256 in hex: how session cookies and codes are stored. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** The hash a code is stored as: bound to its subject, so one subject's code never opens another's. */
export function codeHash(subject: string, code: string): string {
  return sha256(`${subject}\n${code}`);
}
