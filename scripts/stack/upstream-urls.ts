import { DEFAULT_DATA_URL } from '../../services/burger/src/config';

/** The upstream each service will call, as `npm start` passes it on. */
export interface UpstreamUrls {
  /** The Big Mac CSV: an http(s) URL or a local path. */
  burger: string;
  /** The price indexer. */
  token: string;
  /** Ethereum's JSON-RPC, standing for the logs service's chains. */
  logs: string;
}

// The token service's default for TOKEN_UPSTREAM_URL (services/token/src/config.ts, where it is inline).
const TOKEN_DEFAULT_URL = 'https://coins.llama.fi';

/**
 * Resolves each service's upstream the way the service will: the variable the stack passes it,
 * else the one inherited from `npm start`'s environment, else the service's default.
 */
export async function upstreamUrls(
  passed: Partial<Record<keyof UpstreamUrls, Record<string, string>>>,
  inherited: Record<string, string | undefined>,
): Promise<UpstreamUrls> {
  const pick = (service: keyof UpstreamUrls, variable: string) => passed[service]?.[variable] || inherited[variable] || undefined;
  // The logs service is an ES module; a dynamic import loads its chain table from this CommonJS script.
  const { CHAINS } = await import('../../services/logs/src/domain/chains.js');
  return {
    burger: pick('burger', 'BURGER_DATA_URL') ?? DEFAULT_DATA_URL,
    token: pick('token', 'TOKEN_UPSTREAM_URL') ?? TOKEN_DEFAULT_URL,
    logs: pick('logs', 'LOGS_RPC_ETHEREUM') ?? CHAINS.find((c) => c.slug === 'ethereum')!.rpcUrl,
  };
}
