import { summarizeError, type Logger } from '@tollgate/envelope';
import type { ChainRpc } from './data/chain-rpc.js';
import { findChain, rpcEnvName } from './domain/chains.js';

/**
 * Asks each overridden RPC for its chain id and compares it with the table. Returns a one-line
 * error for the first mismatch; an RPC that does not answer is logged and left to fail per call.
 */
export async function checkOverriddenChainIds(slugs: readonly string[], rpcs: Readonly<Record<string, ChainRpc>>, logger: Logger): Promise<string | undefined> {
  const results = await Promise.all(
    slugs.map(async (slug) => {
      const chain = findChain(slug);
      const rpc = rpcs[slug];
      if (!chain || !rpc) return undefined;
      try {
        const id = await rpc.chainId();
        return id === chain.id ? undefined : `${rpcEnvName(chain)} points at chain id ${id}, but ${chain.name} is chain id ${chain.id}`;
      } catch (err) {
        logger.warn({ cause: summarizeError(err), chain: slug }, `${rpcEnvName(chain)} did not answer eth_chainId at start; requests will report it`);
        return undefined;
      }
    }),
  );
  return results.find((r) => r !== undefined);
}
