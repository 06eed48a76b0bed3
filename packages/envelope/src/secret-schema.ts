import type { SchemaObject } from 'ajv';

/** The shortest secret accepted for ADMIN_TOKEN and PROXY_SECRET: 16 characters. */
export const MIN_SECRET_LENGTH = 16;

// Placeholders published in this repository's history, its compose file and common samples: a
// deployment that starts with one of these has a public secret.
const KNOWN_DEFAULTS = [
  'change-me-admin-token',
  'change-me-proxy-secret',
  'changeme-admin-token',
  'changeme-proxy-secret',
  'admin-token-change-me',
  'proxy-secret-change-me',
  'replace-with-a-secret',
  'your-secret-here-please',
];

/**
 * JSON Schema (for `parseEnv`) of a shared secret: at least {@link MIN_SECRET_LENGTH} characters,
 * not a published placeholder, not one character repeated. A weak secret stops the deployable at
 * start with one line, instead of running an admin API or a service anyone can call.
 */
export function secretSchema(): SchemaObject {
  return {
    type: 'string',
    minLength: MIN_SECRET_LENGTH,
    not: { anyOf: [{ enum: KNOWN_DEFAULTS }, { pattern: '^(.)\\1*$' }, { pattern: '[Cc][Hh][Aa][Nn][Gg][Ee][-_ .]?[Mm][Ee]' }] },
    description: `a secret of at least ${MIN_SECRET_LENGTH} characters that is not a placeholder (e.g. the output of openssl rand -hex 24)`,
  };
}
