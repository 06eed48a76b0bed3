import { randomInt } from 'node:crypto';
import type { Request } from 'express';
import { AppError } from '@tollgate/envelope/core';
import { clientBucket } from '../domain/client-address';
import { dayWindow, hourWindow, secondsUntil } from '../domain/windows';
import { codeHash } from '../data/session-store';
import type { SessionStore } from '../data/session-store';
import type { Codes } from '../http/mailed-codes';
import { MailError } from '../mail/mailer';
import type { Mail, Mailer } from '../mail/mailer';
import { newToken } from './session-auth';

/** Digits of a mailed code. */
export const CODE_DIGITS = 6;
/** How long a mailed code (and its link) works. */
export const CODE_TTL_MS = 15 * 60_000;
/** Wrong typed tries after which a code's digits are void (its link still works to its end). */
export const CODE_TRIES = 5;
/**
 * Live codes one address (or account) may hold at once, each asked for from another client
 * network. Asking again from the same network replaces that network's code and no other; past this
 * many from other networks a new one is refused, while those already mailed keep working.
 */
export const LIVE_CODES = 3;
/** Codes one client network may ask for one address in one UTC hour. */
export const CODES_PER_ADDRESS_PER_HOUR = 3;
/** Typed codes checked per address and client network in one UTC day, counted only against that network's live code. */
export const CODE_CHECKS_PER_NETWORK = 10;
/**
 * Typed codes checked per address (or account) in one UTC day from every network together, counted
 * only against live codes: 20 guesses a day against a million codes is under 1% a year. Past it,
 * typed codes wait for the next UTC day; the link in the mail still signs in.
 */
export const CODE_CHECKS_PER_DAY = 20;

/** JSON Schema of a code in a body: checked before the store is asked, so a typo costs no try. */
export const CODE_FIELD = { type: 'string', pattern: `^[0-9]{${CODE_DIGITS}}$`, description: `the ${CODE_DIGITS}-digit code from the mail` };

/** The slot a client's codes are kept in: its network (an IPv6 client by its /64). */
export const clientSlot = (req: Request): string => clientBucket(req.ip);

/** What issuing and checking codes needs. */
export interface CodeDeps {
  sessionStore: SessionStore;
  mailer: Mailer;
  clock: () => number;
  /** Codes asked for per client network (every address together) in one UTC hour. */
  signInsPerHour: number;
}

/** Sends a mail; a mail server that does not take it is a 502 to retry. */
export async function mailOrRefuse(mailer: Mailer, mail: Mail): Promise<void> {
  try {
    await mailer.send(mail);
  } catch (err) {
    if (!(err instanceof MailError)) throw err;
    throw new AppError('UPSTREAM_UNAVAILABLE', 'the mail server did not take the message; retry shortly', { cause: err, headers: { 'Retry-After': '30' } });
  }
}

const LIMITS = { perSlot: CODE_CHECKS_PER_NETWORK, perSubject: CODE_CHECKS_PER_DAY };

/** Codes mailed to prove an address: stored hashed, {@link CODE_TTL_MS} long, limited as the constants above say. */
export function createCodes(deps: CodeDeps): Codes {
  const { sessionStore, clock, signInsPerHour } = deps;
  // A 429 until `windowEndMs`: `message` is told the seconds to wait.
  const refuse = (windowEndMs: number, nowMs: number, reason: string, message: (retry: number) => string): never => {
    const retry = secondsUntil(windowEndMs, nowMs);
    throw new AppError('RATE_LIMITED', message(retry), { headers: { 'Retry-After': String(retry) }, details: { reason, retry_after_seconds: retry } });
  };
  const refuseThisHour = (limit: number, what: string, nowMs: number): never =>
    refuse(hourWindow(nowMs).endMs, nowMs, 'codes_per_hour', (retry) => `at most ${limit} codes an hour ${what}; retry after ${retry} s`);
  const refuseToday = (what: string, nowMs: number): never =>
    refuse(dayWindow(nowMs).endMs, nowMs, 'checks_per_day', (retry) => `${what} today: open the link in the newest mail instead, or retry after ${retry} s (the next UTC day)`);
  const expired = (message: string): AppError => new AppError('UNAUTHORIZED', message, { details: { reason: 'code_expired' } });
  // Stores a slot's code; resolves with when it lapses, or 429 while other slots hold LIVE_CODES.
  const store = async (subject: string, slot: string, hash: string, tokenHash: string): Promise<number> => {
    const nowMs = clock();
    const expiresAtMs = nowMs + CODE_TTL_MS;
    const stored = await sessionStore.putCode(subject, slot, { hash, tokenHash, expiresAtMs, tries: CODE_TRIES }, { maxLive: LIVE_CODES, nowMs });
    if (!stored.stored) {
      refuse(stored.freeAtMs, nowMs, 'codes_pending', (retry) => `${LIVE_CODES} codes mailed here in the last ${CODE_TTL_MS / 60_000} minutes still work: use one of them (or the link in its mail); a new code can be asked for in ${retry} s`);
    }
    return expiresAtMs;
  };
  return {
    async limit(req, email) {
      const nowMs = clock();
      const network = clientSlot(req);
      // The network first: one client cycling through addresses is stopped without counting against them.
      if ((await sessionStore.countAttempt(`ip:${network}`, nowMs)) > signInsPerHour) refuseThisHour(signInsPerHour, 'from one client network', nowMs);
      // Per address and network, not per address alone: a stranger's requests never use up the owner's.
      if ((await sessionStore.countAttempt(`email:${email}|${network}`, nowMs)) > CODES_PER_ADDRESS_PER_HOUR) refuseThisHour(CODES_PER_ADDRESS_PER_HOUR, 'for one email address from one client network', nowMs);
    },
    async send(subject, slot, compose, options = {}) {
      const code = String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0');
      const token = newToken();
      const expiresAtMs = await store(subject, slot, codeHash(subject, code), codeHash(subject, token));
      const mail = compose(code, token);
      const { background } = options;
      if (background) void mailOrRefuse(deps.mailer, mail).catch((err: unknown) => background(err as Error));
      else await mailOrRefuse(deps.mailer, mail);
      return expiresAtMs;
    },
    hold(subject, slot) {
      // Hashes of 32 random bytes: no six digits and no link match them.
      return store(subject, slot, codeHash(subject, newToken()), codeHash(subject, newToken()));
    },
    async check(subject, slot, code) {
      const nowMs = clock();
      const found = await sessionStore.checkCode(subject, slot, codeHash(subject, code), nowMs, LIMITS);
      switch (found.outcome) {
        case 'ok':
          return;
        case 'wrong': {
          const left = found.triesLeft;
          const message = left > 0 ? `wrong code; ${left} ${left === 1 ? 'try' : 'tries'} left` : 'wrong code, and that was the last try: ask for a new code, or open the link in the mail';
          throw new AppError('UNAUTHORIZED', message, { details: { reason: 'code_wrong', tries_left: left } });
        }
        case 'limited':
          return refuseToday(found.scope === 'slot' ? `more than ${CODE_CHECKS_PER_NETWORK} codes were tried here from your network` : `more than ${CODE_CHECKS_PER_DAY} codes were tried here from every network together`, nowMs);
        case 'expired':
          throw expired(`this code has expired (codes work for ${CODE_TTL_MS / 60_000} minutes): ask for a new one`);
        default:
          throw expired(
            `no code is waiting here for your network (it was used, replaced by a newer one, voided after ${CODE_TRIES} wrong tries, or never sent; a typed code works only from the network that asked for it, the link in its mail from anywhere): ask for a new one`,
          );
      }
    },
    async checkLink(subject, token) {
      const found = await sessionStore.useLink(subject, codeHash(subject, token), clock());
      if (found.outcome === 'ok') return;
      throw expired(found.outcome === 'expired' ? `this link has expired (links work for ${CODE_TTL_MS / 60_000} minutes): ask for a new code` : 'this link was used already, or is not one we sent: ask for a new code');
    },
  };
}
