import { AppError } from '@tollgate/envelope';
import { BaseError, HttpRequestError, RpcRequestError, TimeoutError, createPublicClient, http, type PublicClient } from 'viem';
import type { Heads } from '../domain/block-range.js';
import { RpcRejection, type ChainRpc, type LogFilter, type RpcLog } from './chain-rpc.js';

/** Options of {@link createViemChainRpc}. */
export interface ViemChainRpcOptions {
  url: string;
  /** Chain name used in error messages. */
  name: string;
  timeoutMs: number;
}

const hex = (n: number): string => `0x${n.toString(16)}`;

// Turns viem's errors into: 504 (timeout), 502 (unreachable) or an RpcRejection the range
// splitter can read (the node or provider said no, in words).
function translate(err: unknown, name: string): Error {
  if (!(err instanceof BaseError)) return new AppError('UPSTREAM_UNAVAILABLE', `the ${name} RPC failed`, { cause: err });
  if (err.walk((e) => e instanceof TimeoutError)) {
    return new AppError('UPSTREAM_TIMEOUT', `the ${name} RPC did not answer in time`, { cause: err });
  }
  const rpcError = err.walk((e) => e instanceof RpcRequestError) as RpcRequestError | null;
  if (rpcError) return new RpcRejection(rpcError.details || rpcError.shortMessage);
  const httpError = err.walk((e) => e instanceof HttpRequestError) as HttpRequestError | null;
  if (httpError?.status) return new RpcRejection(`HTTP ${httpError.status}: ${httpError.details || httpError.shortMessage}`, httpError.status);
  return new AppError('UPSTREAM_UNAVAILABLE', `the ${name} RPC is unreachable`, { cause: err });
}

async function blockNumberOf(client: PublicClient, tag: 'safe' | 'finalized'): Promise<number | null> {
  try {
    const block = (await client.request({ method: 'eth_getBlockByNumber', params: [tag, false] })) as { number?: string } | null;
    return block?.number ? Number(block.number) : null;
  } catch (err) {
    // Chains without safe/finalized answer with an error; only a dead RPC is worth failing on.
    if (translate(err, '') instanceof RpcRejection) return null;
    throw err;
  }
}

/** A {@link ChainRpc} over viem's HTTP transport; viem retries are off, the splitter decides. */
export function createViemChainRpc(options: ViemChainRpcOptions): ChainRpc {
  const client = createPublicClient({ transport: http(options.url, { timeout: options.timeoutMs, retryCount: 0 }) });
  const call = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      throw translate(err, options.name);
    }
  };
  return {
    chainId: () => call(() => client.getChainId()),
    heads: () =>
      call(async () => {
        const [latest, safe, finalized] = await Promise.all([client.getBlockNumber({ cacheTime: 0 }), blockNumberOf(client, 'safe'), blockNumberOf(client, 'finalized')]);
        return { latest: Number(latest), safe, finalized } satisfies Heads;
      }),
    getLogs: (filter: LogFilter) =>
      call(async () => {
        const params = {
          fromBlock: hex(filter.fromBlock),
          toBlock: hex(filter.toBlock),
          ...(filter.address?.length ? { address: filter.address } : {}),
          ...(filter.topics.length ? { topics: filter.topics } : {}),
        };
        return (await client.request({ method: 'eth_getLogs', params: [params] } as never)) as RpcLog[];
      }),
  };
}
