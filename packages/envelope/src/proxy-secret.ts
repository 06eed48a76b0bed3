import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { AppError } from './app-error';

export const PROXY_SECRET_HEADER = 'x-tollgate-proxy-secret';

// Hashing both sides gives equal-length buffers, so the comparison leaks neither content nor length.
function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * When a secret is configured, rejects calls whose `x-tollgate-proxy-secret` differs with 403
 * `FORBIDDEN`; without one, every call passes (local development).
 */
export function createProxySecretMiddleware(secret: string | undefined): RequestHandler {
  if (!secret) return (_req, _res, next) => next();
  const expected = digest(secret);
  return (req, _res, next) => {
    const given = req.headers[PROXY_SECRET_HEADER];
    if (typeof given === 'string' && timingSafeEqual(digest(given), expected)) {
      next();
      return;
    }
    next(new AppError('FORBIDDEN', 'calls must come through the Tollgate gateway (proxy secret missing or wrong)'));
  };
}
