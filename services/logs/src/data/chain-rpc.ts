import type { Hex } from 'viem';
import type { Heads } from '../domain/block-range.js';
import type { TopicFilter } from '../domain/query-input.js';
import type { RpcLog } from '../domain/rpc-log.js';

export type { RpcLog } from '../domain/rpc-log.js';

/** An `eth_getLogs` filter over numeric blocks. */
export interface LogFilter {
  fromBlock: number;
  toBlock: number;
  address?: Hex[];
  topics: TopicFilter;
}

/** The JSON-RPC calls the service makes on one chain. */
export interface ChainRpc {
  chainId(): Promise<number>;
  /** The head and, where the node knows them, the safe and finalized block numbers. */
  heads(): Promise<Heads>;
  getLogs(filter: LogFilter): Promise<RpcLog[]>;
}

/** The node answered, but with an error (JSON-RPC error object or an HTTP error status). */
export class RpcRejection extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'RpcRejection';
  }
}
