import { createHash } from 'node:crypto';
import { dayWindow, hourWindow } from '../domain/windows';
import type { Window } from '../domain/windows';

/** A portal session, stored under the SHA-256 of its cookie value (the value itself never is). */
export interface Session {
  /** The team (account) the session is signed in to: the current team. */
  account_id: string;
  /** The person signed in (docs/teams.md); absent on sessions begun before teams (read as the account's owner). */
  person_id?: string;
  /** Sent back in `x-csrf-token` with every state change made with the cookie. */
  csrf_token: string;
  created_at: string;
  expires_at: string;
  /** The browser's User-Agent at sign-in (cut to {@link USER_AGENT_LENGTH}), to tell a person's devices apart. */
  user_agent?: string;
  /** When the session was last used, at most {@link LAST_SEEN_EVERY_MS} behind. */
  last_seen_at?: string;
}

/** The longest User-Agent a session keeps. */
export const USER_AGENT_LENGTH = 256;
/** How often a session's last use is written: not on every request. */
export const LAST_SEEN_EVERY_MS = 60_000;

/** One of an account's sessions, as {@link SessionStore.listSessions} finds it. */
export interface ListedSession {
  tokenHash: string;
  session: Session;
}

/** The id a session is shown and signed out by: derived from its stored hash, so it tells nothing of the cookie. */
export const sessionId = (tokenHash: string): string => sha256(`session-id\n${tokenHash}`).slice(0, 24);

/**
 * A one-time code sent by mail, stored as hashes: the digits to type and the token of the mail's
 * link. Each is bound to its subject ({@link codeHash}).
 */
export interface StoredCode {
  hash: string;
  tokenHash: string;
  expiresAtMs: number;
  /** Wrong typed tries left before the digits are void (the link keeps working to the end). */
  tries: number;
}

/**
 * What checking a typed code found: it matched (and is now used up), it did not (tries left; 0:
 * now void), it lapsed, there is none (never sent, used, voided or another slot's), or a daily
 * limit on checks is reached for the slot or the whole subject (nothing was compared).
 */
export type CodeCheck =
  | { outcome: 'ok' }
  | { outcome: 'wrong'; triesLeft: number }
  | { outcome: 'expired' }
  | { outcome: 'none' }
  | { outcome: 'limited'; scope: 'slot' | 'subject' };

/** What following a mailed link found: it matched (used up), it lapsed, or there is none. */
export type LinkCheck = { outcome: 'ok' } | { outcome: 'expired' } | { outcome: 'none' };

/** Typed checks allowed per UTC day, counted only against a live code of the slot asking. */
export interface CheckLimits {
  /** Per slot (the client network that asked for the code) and subject. */
  perSlot: number;
  /** Per subject, every slot together. */
  perSubject: number;
}

/** Whether a code was stored, or refused because other slots hold `maxLive` live codes (free again at `freeAtMs`). */
export type PutCode = { stored: true } | { stored: false; freeAtMs: number };

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
  /** Ends a session (and drops it from its account's index). */
  deleteSession(tokenHash: string): Promise<void>;
  /** Sets a session's `last_seen_at`, only while it exists: a session ended meanwhile stays ended. */
  touchSession(tokenHash: string, lastSeenAt: string): Promise<void>;
  /**
   * The account's sessions, from an index kept beside them (no scan), oldest first; lapsed ones too
   * until they are dropped ({@link KEEP_AFTER_END_SECONDS}): callers compare `expires_at`.
   */
  listSessions(accountId: string): Promise<ListedSession[]>;
  /**
   * Stores a code for a subject (`sign-in:<email>`, `verify:<accountId>`) in one slot (the client
   * network that asked), replacing that slot's code and no other; refused while `maxLive` other
   * slots hold a live code. One atomic step.
   */
  putCode(subject: string, slot: string, code: StoredCode, options: { maxLive: number; nowMs: number }): Promise<PutCode>;
  /**
   * Checks typed digits against the slot's code, as one atomic step: with no live code nothing is
   * counted; else the check counts against both daily limits (refused past either, uncompared), a
   * match uses the code up and a miss costs one of its tries. Other slots' codes are not touched.
   */
  checkCode(subject: string, slot: string, hash: string, nowMs: number, limits: CheckLimits): Promise<CodeCheck>;
  /** Finds the live code of any slot whose link token has this hash and uses it up (one atomic step). */
  useLink(subject: string, tokenHash: string, nowMs: number): Promise<LinkCheck>;
  /** Counts one attempt of `subject` in the current UTC hour (or day); returns the count including it. */
  countAttempt(subject: string, nowMs: number, window?: AttemptWindow): Promise<number>;
  /** The attempts of `subject` counted so far in the current UTC hour (or day), counting none. */
  readAttempts(subject: string, nowMs: number, window?: AttemptWindow): Promise<number>;
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
