/** Which browser origins may call the data APIs (`CORS_ORIGINS`), and the headers that say so. */
export interface CorsPolicy {
  /** The `Access-Control-Allow-Origin` value for a request's `Origin`, or undefined when not allowed. */
  allow(origin: string | undefined): string | undefined;
  /** Headers of the gateway's answer to an allowed preflight. */
  preflight(allowed: string): Record<string, string>;
  /** Headers added to an allowed origin's actual call. */
  response(allowed: string): Record<string, string>;
}

// The limit and request-id headers a browser script may read from a cross-origin answer.
const EXPOSED = 'X-RateLimit-Requests-Limit, X-RateLimit-Requests-Remaining, X-RateLimit-Requests-Reset, RateLimit-Policy, RateLimit, Retry-After, X-Request-Id';

/**
 * A policy from `CORS_ORIGINS`: unset or empty allows no origin (the default), `*` any origin,
 * otherwise a comma-separated list of exact origins (`https://app.example.com`). Credentials are
 * never allowed: the key travels in a header the page sets, not in a cookie.
 */
export function createCorsPolicy(origins: readonly string[], keyHeader: string): CorsPolicy {
  const any = origins.includes('*');
  const listed = new Set(origins);
  return {
    allow: (origin) => (origin === undefined ? undefined : any ? '*' : listed.has(origin) ? origin : undefined),
    preflight: (allowed) => ({
      'Access-Control-Allow-Origin': allowed,
      'Access-Control-Allow-Methods': 'GET, HEAD',
      'Access-Control-Allow-Headers': `${keyHeader}, x-request-id`,
      'Access-Control-Max-Age': '600',
      Vary: 'Origin',
    }),
    response: (allowed) => ({ 'Access-Control-Allow-Origin': allowed, 'Access-Control-Expose-Headers': EXPOSED, Vary: 'Origin' }),
  };
}
