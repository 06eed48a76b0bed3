import type { Hex } from 'viem';

/** A log exactly as `eth_getLogs` returns it (quantities in hex). */
export interface RpcLog {
  address: Hex;
  topics: Hex[];
  data: Hex;
  blockNumber: Hex;
  blockHash: Hex;
  /** Present on nodes that include it (anvil, newer geth/reth, some providers). */
  blockTimestamp?: Hex;
  transactionHash: Hex;
  transactionIndex: Hex;
  logIndex: Hex;
  removed?: boolean;
}
