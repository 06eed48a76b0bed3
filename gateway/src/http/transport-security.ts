import type { RequestHandler } from 'express';
import { isHttps } from './session-cookie';

/**
 * `Strict-Transport-Security` for a gateway whose public origin is https: a year, this origin only.
 * No `includeSubDomains` (the gateway cannot know what else runs under the name's parent or beside
 * it) and no `preload` (a list an operator opts into at hstspreload.org, not something to send
 * unasked).
 */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

/** The header's value when `PUBLIC_URL` is https; undefined otherwise (a browser would keep it for the name). */
export const transportSecurityFor = (publicUrl: string | undefined): string | undefined => (isHttps(publicUrl) ? STRICT_TRANSPORT_SECURITY : undefined);

/** Sets `Strict-Transport-Security` on every answer of the app, errors included, when there is one to send. */
export function transportSecurity(value: string | undefined): RequestHandler {
  return (_req, res, next) => {
    if (value !== undefined) res.setHeader('Strict-Transport-Security', value);
    next();
  };
}
