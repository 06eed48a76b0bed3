import type { RequestHandler } from 'express';

/**
 * The content security policy of every page the gateway serves (the portal, the operators' console,
 * `/docs`): every script, style, image and connection from the gateway itself, no inline script or
 * style (so an injected `<script>` or `style=` attribute does nothing), no framing (clickjacking), no `<base>`
 * rewriting, forms posting only here.
 */
export const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** Security headers on every answer of the pages and their assets (portal, console and `/docs`). */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': PAGE_CSP,
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

/** Sets {@link PAGE_HEADERS}. */
export const pageHeaders: RequestHandler = (_req, res, next) => {
  res.set(PAGE_HEADERS);
  next();
};
