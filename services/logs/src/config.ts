import { parseEnv, secretSchema, type QuerySchema } from '@tollgate/envelope';
import { CHAINS, rpcEnvName } from './domain/chains.js';

/** The logs service's configuration, parsed once at start. */
export interface Config {
  port: number;
  proxySecret: string | undefined;
  logLevel: string;
  /** Most blocks one request may span. */
  maxBlockRange: number;
  /** How long an answer over finalized blocks may be served from memory; 0 turns it off. */
  cacheTtlMs: number;
  rpcTimeoutMs: number;
  /** `eth_getLogs` calls per page before answering with a cursor. */
  maxRpcCalls: number;
  /** RPC URL per chain slug: the override where given, else the built-in public one. */
  rpcUrls: Readonly<Record<string, string>>;
  /** Slugs whose URL came from `LOGS_RPC_<CHAIN>`; their chain id is checked at start. */
  overridden: readonly string[];
}

const URL_SCHEMA = { type: 'string', pattern: '^https?://\\S+$', description: 'an http(s) URL' };

const SCHEMA: QuerySchema = {
  type: 'object',
  properties: {
    PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 8083 },
    PROXY_SECRET: secretSchema(),
    LOG_LEVEL: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
    LOGS_MAX_BLOCK_RANGE: { type: 'integer', minimum: 1, maximum: 10_000_000, default: 100_000 },
    LOGS_CACHE_TTL_MS: { type: 'integer', minimum: 0, maximum: 3_600_000, default: 30_000 },
    LOGS_RPC_TIMEOUT_MS: { type: 'integer', minimum: 100, maximum: 120_000, default: 10_000 },
    LOGS_MAX_RPC_CALLS: { type: 'integer', minimum: 1, maximum: 10_000, default: 50 },
    ...Object.fromEntries(CHAINS.map((c) => [rpcEnvName(c), URL_SCHEMA])),
  },
};

interface Env {
  PORT: number;
  PROXY_SECRET?: string;
  LOG_LEVEL: string;
  LOGS_MAX_BLOCK_RANGE: number;
  LOGS_CACHE_TTL_MS: number;
  LOGS_RPC_TIMEOUT_MS: number;
  LOGS_MAX_RPC_CALLS: number;
  [rpc: string]: string | number | undefined;
}

/** Parses the environment; throws one line naming the first bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = parseEnv<Env>(SCHEMA, env);
  const overridden = CHAINS.filter((c) => typeof parsed[rpcEnvName(c)] === 'string').map((c) => c.slug);
  return Object.freeze({
    port: parsed.PORT,
    proxySecret: parsed.PROXY_SECRET,
    logLevel: parsed.LOG_LEVEL,
    maxBlockRange: parsed.LOGS_MAX_BLOCK_RANGE,
    cacheTtlMs: parsed.LOGS_CACHE_TTL_MS,
    rpcTimeoutMs: parsed.LOGS_RPC_TIMEOUT_MS,
    maxRpcCalls: parsed.LOGS_MAX_RPC_CALLS,
    rpcUrls: Object.freeze(Object.fromEntries(CHAINS.map((c) => [c.slug, String(parsed[rpcEnvName(c)] ?? c.rpcUrl)]))),
    overridden,
  });
}
