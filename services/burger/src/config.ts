import { parseEnv, secretSchema } from '@tollgate/envelope';
import type { QuerySchema } from '@tollgate/envelope';

/** The Economist's full index, straight from its repository. */
export const DEFAULT_DATA_URL = 'https://raw.githubusercontent.com/TheEconomist/big-mac-data/master/output-data/big-mac-full-index.csv';

/** The burger service's configuration, parsed once from the environment. */
export interface Config {
  port: number;
  proxySecret?: string;
  dataUrl: string;
  /** What the copy at `dataUrl` is, when it is not the live file; said in `source` of every answer. */
  sourceLabel?: string;
  refreshMs: number;
  retryMs: number;
  upstreamTimeoutMs: number;
  logLevel: string;
}

interface Env {
  PORT: number;
  PROXY_SECRET?: string;
  BURGER_DATA_URL: string;
  BURGER_SOURCE_LABEL?: string;
  BURGER_REFRESH_SECONDS: number;
  BURGER_RETRY_SECONDS: number;
  BURGER_UPSTREAM_TIMEOUT_MS: number;
  LOG_LEVEL: string;
}

const schema: QuerySchema = {
  type: 'object',
  properties: {
    PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 8081 },
    PROXY_SECRET: secretSchema(),
    BURGER_DATA_URL: { type: 'string', minLength: 1, default: DEFAULT_DATA_URL, description: 'an http(s) URL or a local path of the full-index CSV' },
    BURGER_SOURCE_LABEL: { type: 'string', minLength: 1, maxLength: 300, pattern: '^[^\\n\\r]*$', description: 'one line saying what the copy at BURGER_DATA_URL is, when it is not the live file' },
    BURGER_REFRESH_SECONDS: { type: 'integer', minimum: 1, maximum: 604800, default: 600 },
    BURGER_RETRY_SECONDS: { type: 'integer', minimum: 1, maximum: 86400, default: 30 },
    BURGER_UPSTREAM_TIMEOUT_MS: { type: 'integer', minimum: 100, maximum: 300000, default: 10000 },
    LOG_LEVEL: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
  },
};

/** Parses the environment; throws a one-line error naming the first bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Readonly<Config> {
  const e = parseEnv<Env>(schema, env);
  return Object.freeze({
    port: e.PORT,
    proxySecret: e.PROXY_SECRET,
    dataUrl: e.BURGER_DATA_URL,
    ...(e.BURGER_SOURCE_LABEL ? { sourceLabel: e.BURGER_SOURCE_LABEL } : {}),
    refreshMs: e.BURGER_REFRESH_SECONDS * 1000,
    retryMs: e.BURGER_RETRY_SECONDS * 1000,
    upstreamTimeoutMs: e.BURGER_UPSTREAM_TIMEOUT_MS,
    logLevel: e.LOG_LEVEL,
  });
}
