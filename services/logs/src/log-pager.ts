import { AppError } from '@tollgate/envelope';
import type { Hex } from 'viem';
import type { ChainRpc } from './data/chain-rpc.js';
import { scanLogs } from './data/log-scanner.js';
import type { ResponseCache } from './data/response-cache.js';
import type { SpanMemory } from './data/span-memory.js';
import { resolveRange } from './domain/block-range.js';
import type { ChainInfo } from './domain/chains.js';
import { decodeCursor, encodeCursor, queryFingerprint } from './domain/cursor.js';
import type { BlockRef, TopicFilter } from './domain/query-input.js';
import type { RpcLog } from './domain/rpc-log.js';

/** One page request, parsed and validated. */
export interface PageQuery {
  /** Which endpoint asks; cursors of one endpoint are not accepted by another. */
  kind: 'logs' | 'transfers';
  chain: ChainInfo;
  address?: Hex[];
  topics: TopicFilter;
  from: BlockRef;
  to: BlockRef;
  limit: number;
  cursor?: string;
  /** Which logs count towards the page. */
  keep?: (log: RpcLog) => boolean;
}

/** A page of raw logs with the resolved range and the next cursor. */
export interface LogPage {
  fromBlock: number;
  toBlock: number;
  logs: RpcLog[];
  cursor: string | null;
}

/** What {@link createLogPager} needs. */
export interface LogPagerDeps {
  rpcs: Readonly<Record<string, ChainRpc>>;
  spans: SpanMemory;
  cache: ResponseCache;
  maxBlockRange: number;
  maxRpcCalls: number;
  /** Span of a page's first call when there is no hint yet. */
  probeSpan?: number;
}

/** Fetches pages of logs: resolves and clamps the range, follows cursors, caches finalized answers. */
export type LogPager = (query: PageQuery) => Promise<LogPage>;

/** Builds the {@link LogPager} the routes share. */
export function createLogPager(deps: LogPagerDeps): LogPager {
  return async (query) => {
    const rpc = deps.rpcs[query.chain.slug];
    if (!rpc) throw new AppError('UPSTREAM_UNAVAILABLE', `no RPC is configured for ${query.chain.slug}`);
    const fingerprint = queryFingerprint([query.kind, query.chain.id, query.address ?? [], query.topics]);
    const resumed = query.cursor === undefined ? undefined : decodeCursor(query.cursor, fingerprint);
    const heads = await rpc.heads();
    const position = resumed ?? { ...resolveRange(query.from, query.to, heads, deps.maxBlockRange), afterLogIndex: -1, spanHint: undefined };

    const finalized = heads.finalized !== null && position.to <= heads.finalized;
    const cacheKey = JSON.stringify([fingerprint, position.from, position.afterLogIndex, position.to, query.limit]);
    if (finalized) {
      const cached = deps.cache.get<LogPage>(cacheKey);
      if (cached) return cached;
    }
    const result = await scanLogs(
      {
        chain: query.chain.slug,
        rpc,
        address: query.address,
        topics: query.topics,
        from: position.from,
        afterLogIndex: position.afterLogIndex,
        to: position.to,
        limit: query.limit,
        keep: query.keep,
        spanHint: position.spanHint,
      },
      { spans: deps.spans, maxCalls: deps.maxRpcCalls, probeSpan: deps.probeSpan ?? 64 },
    );
    const cursor = result.next ? encodeCursor({ query: fingerprint, to: position.to, ...result.next }) : null;
    const page: LogPage = { fromBlock: position.from, toBlock: position.to, logs: result.logs, cursor };
    if (finalized) deps.cache.set(cacheKey, page);
    return page;
  };
}
