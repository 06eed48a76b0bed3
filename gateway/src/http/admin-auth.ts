import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { AppError } from '@tollgate/envelope';
import type { AdminToken } from '../data/admin-token';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** Whether `presented` is the admin token now (compared in constant time); false when there is none. */
export function isAdminToken(token: AdminToken, presented: string): boolean {
  const current = token.current();
  return current !== undefined && timingSafeEqual(digest(presented), digest(current));
}

/** What a bearer-protected route says when refused. */
export interface AdminAuthWording {
  /** What is protected, e.g. `admin API` or `metrics`. */
  what: string;
}

/**
 * `Authorization: Bearer <admin token>`, compared in constant time with the token as it is now (a
 * rotated token works at once, the old one no longer). Without a token the routes do not exist:
 * they answer 404 saying how to enable them.
 */
export function createAdminAuth(token: AdminToken, wording: AdminAuthWording = { what: 'admin API' }): RequestHandler {
  return (req, _res, next) => {
    if (token.source === 'none') throw new AppError('NOT_FOUND', `the ${wording.what} is disabled: set ADMIN_TOKEN to enable it`);
    // The scheme is case-insensitive, and one or more spaces follow it (RFC 9110 §11.1, §11.4).
    const match = /^bearer +(.+)$/i.exec(req.headers.authorization ?? '');
    if (match && isAdminToken(token, match[1] as string)) {
      next();
      return;
    }
    // Where the token is kept is not said: the answer goes to anyone who asks.
    throw new AppError('UNAUTHORIZED', match ? `wrong admin token for the ${wording.what}` : `the ${wording.what} needs the admin token: send Authorization: Bearer <admin token> (ADMIN_TOKEN, or the gateway's admin-token file)`, {
      headers: { 'WWW-Authenticate': 'Bearer realm="tollgate-admin"' },
    });
  };
}
