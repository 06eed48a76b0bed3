import { parseEnv, secretSchema } from '@tollgate/envelope';
import type { QuerySchema } from '@tollgate/envelope';

/** The token service's configuration, parsed once from the environment. */
export interface Config {
  PORT: number;
  PROXY_SECRET?: string;
  TOKEN_UPSTREAM_URL: string;
  TOKEN_UPSTREAM_TIMEOUT_MS: number;
  LOG_LEVEL: string;
}

const SCHEMA: QuerySchema = {
  type: 'object',
  properties: {
    PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 8082 },
    PROXY_SECRET: secretSchema(),
    TOKEN_UPSTREAM_URL: { type: 'string', pattern: '^https?://[^\\s]+$', default: 'https://coins.llama.fi', description: 'an http(s) URL' },
    TOKEN_UPSTREAM_TIMEOUT_MS: { type: 'integer', minimum: 100, maximum: 120000, default: 10000 },
    LOG_LEVEL: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
  },
};

/** Reads and checks the environment; throws a one-line error naming the first bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Readonly<Config> {
  return Object.freeze(parseEnv<Config>(SCHEMA, env));
}
