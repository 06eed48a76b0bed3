import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { AppError } from '@tollgate/envelope';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time. Without a configured token the
 * admin API does not exist: every admin route answers 404 saying how to enable it.
 */
export function createAdminAuth(adminToken: string | undefined): RequestHandler {
  if (!adminToken) {
    return () => {
      throw new AppError('NOT_FOUND', 'the admin API is disabled: set ADMIN_TOKEN to enable it');
    };
  }
  const expected = digest(adminToken);
  return (req, _res, next) => {
    const header = req.headers.authorization ?? '';
    // The scheme is case-insensitive, and one or more spaces follow it (RFC 9110 §11.1, §11.4).
    const match = /^bearer +(.+)$/i.exec(header);
    if (match && timingSafeEqual(digest(match[1] as string), expected)) {
      next();
      return;
    }
    throw new AppError('UNAUTHORIZED', match ? 'wrong admin token' : 'admin API: send Authorization: Bearer <ADMIN_TOKEN>', {
      headers: { 'WWW-Authenticate': 'Bearer realm="tollgate-admin"' },
    });
  };
}
