import { randomInt } from 'node:crypto';
import type { Request } from 'express';
import { AppError } from '@tollgate/envelope';
import { clientBucket } from '../domain/client-address';
import { dayWindow, hourWindow, secondsUntil } from '../domain/windows';
import { codeHash } from '../data/session-store';
import type { SessionStore } from '../data/session-store';
import { MailError } from '../mail/mailer';
import type { Mail, Mailer } from '../mail/mailer';

/** Digits of a mailed code: a million codes, five tries each, a few codes an hour. */
export const CODE_DIGITS = 6;
/** How long a mailed code works. */
export const CODE_TTL_MS = 15 * 60_000;
/** Wrong tries after which a code is void. */
export const CODE_TRIES = 5;
/**
 * Codes checked per subject (address or account) in one UTC day, right or wrong. Tries per code
 * and codes per hour alone let a patient guesser make 1,200 guesses a day (about a 35% chance a
 * year against a million codes); with this cap it is 30 (under 1% a year). Someone who makes the
 * guesses locks the address out of signing in until the next UTC day, and the 429 says so.
 */
export const CODE_CHECKS_PER_DAY = 30;

/** JSON Schema of a code in a body: checked before the store is asked, so a typo costs no try. */
export const CODE_FIELD = { type: 'string', pattern: `^[0-9]{${CODE_DIGITS}}$`, description: `the ${CODE_DIGITS}-digit code from the mail` };

/** What issuing and checking codes needs. */
export interface CodeDeps {
  sessionStore: SessionStore;
  mailer: Mailer;
  clock: () => number;
  /** Codes asked for per address and per client address in one UTC hour. */
  signInsPerHour: number;
}

/** Issues codes (rate-limited, mailed) and checks them; see {@link createCodes}. */
export interface Codes {
  /** Counts one request for a code from this client and for this address; 429 past the limit of either. */
  limit(req: Request, email: string): Promise<void>;
  /** Makes a code for `subject`, replacing any before, and mails `compose(code)`; resolves with when it lapses. */
  send(subject: string, compose: (code: string) => Mail): Promise<number>;
  /** Checks a code for `subject`: resolves when it matched (it is used up), else 401 `code_wrong` / `code_expired`. */
  check(subject: string, code: string): Promise<void>;
}

/** Codes mailed to prove an address: stored hashed, {@link CODE_TTL_MS} long, {@link CODE_TRIES} wrong tries. */
export function createCodes(deps: CodeDeps): Codes {
  const { sessionStore, clock, signInsPerHour } = deps;
  // A 429 until the window's end: `message` is told the seconds to wait.
  const refuse = (windowEndMs: number, nowMs: number, message: (retry: number) => string): never => {
    const retry = secondsUntil(windowEndMs, nowMs);
    throw new AppError('RATE_LIMITED', message(retry), { headers: { 'Retry-After': String(retry) }, details: { retry_after_seconds: retry } });
  };
  const refuseThisHour = (what: string, nowMs: number): never => refuse(hourWindow(nowMs).endMs, nowMs, (retry) => `at most ${signInsPerHour} codes an hour ${what}; retry after ${retry} s`);
  return {
    async limit(req, email) {
      const nowMs = clock();
      // The client first (an IPv6 one by its /64): one client cycling through addresses is stopped without counting against them.
      if ((await sessionStore.countAttempt(`ip:${clientBucket(req.ip)}`, nowMs)) > signInsPerHour) refuseThisHour('from one client address', nowMs);
      if ((await sessionStore.countAttempt(`email:${email}`, nowMs)) > signInsPerHour) refuseThisHour('for one email address', nowMs);
    },
    async send(subject, compose) {
      const code = String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0');
      const expiresAtMs = clock() + CODE_TTL_MS;
      await sessionStore.putCode(subject, { hash: codeHash(subject, code), expiresAtMs, tries: CODE_TRIES });
      try {
        await deps.mailer.send(compose(code));
      } catch (err) {
        if (!(err instanceof MailError)) throw err;
        throw new AppError('UPSTREAM_UNAVAILABLE', 'the mail server did not take the message; retry shortly', { cause: err, headers: { 'Retry-After': '30' } });
      }
      return expiresAtMs;
    },
    async check(subject, code) {
      const nowMs = clock();
      if ((await sessionStore.countAttempt(`check:${subject}`, nowMs, 'day')) > CODE_CHECKS_PER_DAY) {
        refuse(dayWindow(nowMs).endMs, nowMs, (retry) => `more than ${CODE_CHECKS_PER_DAY} codes were tried here today; retry after ${retry} s (the next UTC day)`);
      }
      const found = await sessionStore.checkCode(subject, codeHash(subject, code), nowMs);
      if (found.outcome === 'ok') return;
      if (found.outcome === 'wrong') {
        const left = found.triesLeft;
        const message = left > 0 ? `wrong code; ${left} ${left === 1 ? 'try' : 'tries'} left` : 'wrong code, and that was the last try: ask for a new code';
        throw new AppError('UNAUTHORIZED', message, { details: { reason: 'code_wrong', tries_left: left } });
      }
      const message =
        found.outcome === 'expired'
          ? `this code has expired (codes work for ${CODE_TTL_MS / 60_000} minutes): ask for a new one`
          : `no code is waiting here (it was used, replaced by a newer one, voided after ${CODE_TRIES} wrong tries, or never sent): ask for a new one`;
      throw new AppError('UNAUTHORIZED', message, { details: { reason: 'code_expired' } });
    },
  };
}
