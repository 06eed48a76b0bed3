import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { sha256 } from '../data/session-store';

/** The header that must repeat a session's CSRF token on every state change made with its cookie. */
export const CSRF_HEADER = 'x-csrf-token';

/** Methods that change state: each needs the CSRF header when made with a session cookie. */
export const STATE_CHANGING: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** What the gateway issues as a session cookie's value: 32 random bytes in base64url; anything else is not looked up. */
export const SESSION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A new unguessable token (session cookie value, CSRF token). */
export const newToken = (): string => randomBytes(32).toString('base64url');

/**
 * Whether a session cookie (the portal's or the console's) is marked Secure: when `PUBLIC_URL` is
 * https (the public origin, whatever a TLS-terminating proxy in front forwards), or when the request
 * came over TLS (itself, or X-Forwarded-Proto from a TRUSTED_PROXIES hop).
 */
export function cookieIsSecure(req: Request, publicUrl: string | undefined): boolean {
  return req.secure || isHttps(publicUrl);
}

/** Whether `PUBLIC_URL` is an https origin: cookies are Secure and every answer carries HSTS. */
export const isHttps = (publicUrl: string | undefined): boolean => publicUrl?.startsWith('https:') === true;

/**
 * Every value of the cookie `name` in the request's `Cookie` header (no cookie parser). A browser
 * sends two when a second cookie of the name was planted on another path or a parent domain (one
 * that shadows the real session is a fixation).
 */
export function cookiesOf(req: Request, name: string): string[] {
  const header = req.headers.cookie;
  if (typeof header !== 'string') return [];
  const values: string[] = [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) values.push(part.slice(eq + 1).trim());
  }
  return values;
}

/** The value of the cookie `name` when the request sends it once; undefined when it sends none or several (neither is believed). */
export function cookieOf(req: Request, name: string): string | undefined {
  const values = cookiesOf(req, name);
  return values.length === 1 ? values[0] : undefined;
}

const digest = (value: string): Buffer => Buffer.from(sha256(value), 'hex');

/** Whether the request repeats `csrfToken` in {@link CSRF_HEADER} (compared in constant time). */
export function repeatsCsrfToken(req: Request, csrfToken: string): boolean {
  const sent = req.headers[CSRF_HEADER];
  return typeof sent === 'string' && timingSafeEqual(digest(sent), digest(csrfToken));
}
