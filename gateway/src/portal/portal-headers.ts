import type { RequestHandler } from 'express';

/**
 * The portal's content security policy: every script, style, image and connection from the gateway
 * itself, no inline script or style (so an injected `<script>` or `style=` attribute does nothing),
 * no framing (clickjacking), no `<base>` rewriting, forms posting only here.
 */
export const PORTAL_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** Security headers on every portal answer (pages and assets). */
export const PORTAL_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': PORTAL_CSP,
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

/** Sets {@link PORTAL_HEADERS}. */
export const portalHeaders: RequestHandler = (_req, res, next) => {
  res.set(PORTAL_HEADERS);
  next();
};
