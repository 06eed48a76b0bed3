import type { RequestHandler } from 'express';

/**
 * `Cache-Control: no-store` on every answer after it, errors included: answers that carry account
 * data, key secrets, sessions or CSRF tokens are kept by no browser cache, back/forward cache or
 * shared proxy.
 */
export const noStore: RequestHandler = (_req, res, next) => {
  res.set('Cache-Control', 'no-store');
  next();
};
