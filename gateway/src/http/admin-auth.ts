import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { AppError } from '@tollgate/envelope/core';
import { clientBucket } from '../domain/client-address';
import { hourWindow, secondsUntil } from '../domain/windows';
import type { AdminToken } from '../data/admin-token';
import type { SessionStore } from '../data/session-store';
import { StoreError } from '../data/stores';

/**
 * Wrong admin tokens one client network (an IPv6 one by its /64) may send in one UTC hour, to the
 * admin API, `/metrics` and the console together. Past them, every try from that network is 429
 * until the hour ends, the right token too: the limit stops guessing, and another network (the
 * operator's) is let in meanwhile.
 */
export const WRONG_TOKENS_PER_HOUR = 20;

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** Whether `presented` is the admin token now (compared in constant time); false when there is none. */
export function isAdminToken(token: AdminToken, presented: string): boolean {
  const current = token.current();
  return current !== undefined && timingSafeEqual(digest(presented), digest(current));
}

/** Checks presented admin tokens, counting the wrong ones per client network; see {@link createAdminTokenCheck}. */
export interface AdminTokenCheck {
  token: AdminToken;
  /**
   * Resolves true when `presented` is the admin token now, false when it is not (counted against
   * the request's network); 429 `token_guesses` with Retry-After to the hour's end once the network
   * has sent {@link WRONG_TOKENS_PER_HOUR} wrong ones this hour, whatever it presents now.
   */
  check(req: Request, presented: string): Promise<boolean>;
}

/** What the admin token's check needs: the counters are the sign-in counters of the session store. */
export interface AdminTokenCheckDeps {
  token: AdminToken;
  sessionStore: Pick<SessionStore, 'countAttempt' | 'readAttempts'>;
  clock: () => number;
}

/**
 * The admin token's check, shared by every door it opens. The wrong tokens of a network are counted
 * in the store (every gateway on it shares them); the right one only reads the count, so an operator
 * using it all day is never limited. When the store cannot be read the right token still opens (the
 * metrics are most needed while the store is down); a wrong one is refused uncounted.
 */
export function createAdminTokenCheck(deps: AdminTokenCheckDeps): AdminTokenCheck {
  const { token, sessionStore, clock } = deps;
  const refuse = (nowMs: number): never => {
    const retry = secondsUntil(hourWindow(nowMs).endMs, nowMs);
    throw new AppError('RATE_LIMITED', `more than ${WRONG_TOKENS_PER_HOUR} wrong admin tokens came from your network this hour, so none is taken from it until the hour ends; retry after ${retry} s`, {
      headers: { 'Retry-After': String(retry) },
      details: { reason: 'token_guesses', retry_after_seconds: retry },
    });
  };
  const unlessStoreDown = async (read: () => Promise<number>, fallback: number): Promise<number> => {
    try {
      return await read();
    } catch (err) {
      if (err instanceof StoreError) return fallback;
      throw err;
    }
  };
  return {
    token,
    async check(req, presented) {
      const nowMs = clock();
      const subject = `admin-token:${clientBucket(req.ip)}`;
      if (isAdminToken(token, presented)) {
        if ((await unlessStoreDown(() => sessionStore.readAttempts(subject, nowMs), 0)) >= WRONG_TOKENS_PER_HOUR) refuse(nowMs);
        return true;
      }
      if ((await unlessStoreDown(() => sessionStore.countAttempt(subject, nowMs), 0)) > WRONG_TOKENS_PER_HOUR) refuse(nowMs);
      return false;
    },
  };
}

/** What a bearer-protected route says when refused. */
export interface AdminAuthWording {
  /** What is protected, e.g. `admin API` or `metrics`. */
  what: string;
}

/**
 * `Authorization: Bearer <admin token>`, compared in constant time with the token as it is now (a
 * rotated token works at once, the old one no longer), wrong ones limited per network ({@link
 * createAdminTokenCheck}). Without a token the routes do not exist: they answer 404 saying how to
 * enable them.
 */
export function createAdminAuth(check: AdminTokenCheck, wording: AdminAuthWording = { what: 'admin API' }): RequestHandler {
  return async (req, _res, next) => {
    if (check.token.source === 'none') throw new AppError('NOT_FOUND', `the ${wording.what} is disabled: set ADMIN_TOKEN to enable it`);
    // The scheme is case-insensitive, and one or more spaces follow it (RFC 9110 §11.1, §11.4).
    const match = /^bearer +(.+)$/i.exec(req.headers.authorization ?? '');
    if (match && (await check.check(req, match[1] as string))) {
      next();
      return;
    }
    // Where the token is kept is not said: the answer goes to anyone who asks.
    throw new AppError('UNAUTHORIZED', match ? `wrong admin token for the ${wording.what}` : `the ${wording.what} needs the admin token: send Authorization: Bearer <admin token> (ADMIN_TOKEN, or the gateway's admin-token file)`, {
      headers: { 'WWW-Authenticate': 'Bearer realm="tollgate-admin"' },
    });
  };
}
