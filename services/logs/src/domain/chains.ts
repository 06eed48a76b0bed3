/** One chain the service can query. */
export interface ChainInfo {
  /** Lower-case key used in `chain=` and, upper-cased, in `LOGS_RPC_<CHAIN>`. */
  slug: string;
  id: number;
  name: string;
  /** Default public JSON-RPC URL (viem 2.57's `rpcUrls.default.http`). */
  rpcUrl: string;
  /** One of the six chains every plan includes. */
  core: boolean;
}

/** The built-in chain table; ids and URLs from the reference (viem 2.57.20 `viem/chains`). */
export const CHAINS: readonly ChainInfo[] = Object.freeze([
  { slug: 'ethereum', id: 1, name: 'Ethereum', rpcUrl: 'https://ethereum.reth.rs/rpc', core: true },
  { slug: 'base', id: 8453, name: 'Base', rpcUrl: 'https://mainnet.base.org', core: true },
  { slug: 'arbitrum', id: 42161, name: 'Arbitrum One', rpcUrl: 'https://arb1.arbitrum.io/rpc', core: true },
  { slug: 'optimism', id: 10, name: 'OP Mainnet', rpcUrl: 'https://mainnet.optimism.io', core: true },
  { slug: 'bnb', id: 56, name: 'BNB Smart Chain', rpcUrl: 'https://56.rpc.thirdweb.com', core: true },
  { slug: 'polygon', id: 137, name: 'Polygon', rpcUrl: 'https://polygon.drpc.org', core: true },
  { slug: 'avalanche', id: 43114, name: 'Avalanche', rpcUrl: 'https://api.avax.network/ext/bc/C/rpc', core: false },
  { slug: 'gnosis', id: 100, name: 'Gnosis', rpcUrl: 'https://rpc.gnosischain.com', core: false },
  { slug: 'linea', id: 59144, name: 'Linea Mainnet', rpcUrl: 'https://rpc.linea.build', core: false },
  { slug: 'scroll', id: 534352, name: 'Scroll', rpcUrl: 'https://rpc.scroll.io', core: false },
  { slug: 'zksync', id: 324, name: 'ZKsync Era', rpcUrl: 'https://mainnet.era.zksync.io', core: false },
  { slug: 'fantom', id: 250, name: 'Fantom', rpcUrl: 'https://250.rpc.thirdweb.com', core: false },
  { slug: 'sonic', id: 146, name: 'Sonic', rpcUrl: 'https://rpc.soniclabs.com', core: false },
  { slug: 'celo', id: 42220, name: 'Celo', rpcUrl: 'https://forno.celo.org', core: false },
]);

/** The environment variable that overrides a chain's RPC URL. */
export function rpcEnvName(chain: ChainInfo): string {
  return `LOGS_RPC_${chain.slug.toUpperCase()}`;
}

/** Finds a chain by slug (any case) or by decimal chain id. */
export function findChain(value: string, chains: readonly ChainInfo[] = CHAINS): ChainInfo | undefined {
  const key = value.trim().toLowerCase();
  return chains.find((c) => c.slug === key || String(c.id) === key);
}
