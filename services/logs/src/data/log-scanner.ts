import { AppError } from '@tollgate/envelope';
import { matchesTopics, type TopicFilter } from '../domain/query-input.js';
import { nextSpan, readRangeRejection } from '../domain/range-rejection.js';
import { RpcRejection, type ChainRpc, type RpcLog } from './chain-rpc.js';
import type { SpanMemory } from './span-memory.js';

/** One page's worth of scanning. */
export interface ScanRequest {
  chain: string;
  rpc: ChainRpc;
  address?: `0x${string}`[];
  topics: TopicFilter;
  /** First block, and the log index in it after which to start (-1: the whole block). */
  from: number;
  afterLogIndex: number;
  to: number;
  limit: number;
  /** Which logs count towards the page (the rest are skipped, e.g. ERC-721 Transfers). */
  keep?: (log: RpcLog) => boolean;
  /** Blocks expected to hold about one page (from the previous page's cursor). */
  spanHint?: number;
}

/** Where a page stopped, when the range is not exhausted. */
export interface ScanPosition {
  from: number;
  afterLogIndex: number;
  spanHint: number;
}

/** A page of logs in (block, log index) order. */
export interface ScanResult {
  logs: RpcLog[];
  next: ScanPosition | null;
  /** `eth_getLogs` calls made, rejected ones included. */
  calls: number;
}

/** Limits of {@link scanLogs}. */
export interface ScanOptions {
  spans: SpanMemory;
  /** Calls per page before answering with what was found and a cursor. */
  maxCalls: number;
  /** First span of a page without a hint: small, then grown by the density seen. */
  probeSpan: number;
}

interface Positioned {
  log: RpcLog;
  block: number;
  index: number;
}

// Next span: enough blocks for the logs still needed at the density just seen, plus a margin,
// growing at most eightfold per step so a sparse stretch does not jump to a huge range at once.
function grow(span: number, kept: number, needed: number): number {
  if (kept === 0) return span * 8;
  return Math.max(1, Math.min(span * 8, Math.ceil(((needed * span) / kept) * 1.1)));
}

function position(logs: RpcLog[], from: number, to: number, after: number, first: number, topics: TopicFilter): Positioned[] {
  const out: Positioned[] = [];
  for (const log of logs) {
    const block = Number(log.blockNumber);
    const index = Number(log.logIndex);
    if (block < from || block > to || (block === first && index <= after) || !matchesTopics(log.topics, topics)) continue;
    out.push({ log, block, index });
  }
  return out.sort((a, b) => a.block - b.block || a.index - b.index);
}

/**
 * Fetches up to `limit` logs from [from, to], splitting the range adaptively: a rejected span
 * is retried with the provider's suggestion or stated limit, else half, and the learned limit
 * is kept per chain. Stops after `limit` logs or `maxCalls` calls with the exact next position.
 */
export async function scanLogs(request: ScanRequest, options: ScanOptions): Promise<ScanResult> {
  const { chain, rpc, limit, to } = request;
  const keep = request.keep ?? (() => true);
  const logs: RpcLog[] = [];
  let calls = 0;
  let start = request.from;
  let span = request.spanHint ?? options.probeSpan;

  while (start <= to) {
    span = Math.max(1, Math.min(span, options.spans.get(chain) ?? Number.POSITIVE_INFINITY));
    const end = Math.min(to, start + span - 1);
    let raw: RpcLog[];
    calls += 1;
    try {
      raw = await rpc.getLogs({ fromBlock: start, toBlock: end, address: request.address, topics: request.topics });
    } catch (err) {
      if (!(err instanceof RpcRejection)) throw err;
      const advice = readRangeRejection(err.message);
      if (!advice || end === start) {
        throw new AppError('UPSTREAM_UNAVAILABLE', `the ${chain} RPC rejected eth_getLogs: ${err.message}`, { cause: err, details: { rpc_message: err.message } });
      }
      span = nextSpan(advice, end - start + 1);
      options.spans.lower(chain, span);
      if (calls >= options.maxCalls) return { logs, next: { from: start, afterLogIndex: -1, spanHint: span }, calls };
      continue;
    }
    const found = position(raw, start, end, request.afterLogIndex, request.from, request.topics);
    const kept = found.filter((p) => keep(p.log));
    const needed = limit - logs.length;
    if (kept.length >= needed) {
      const last = kept[needed - 1] as Positioned;
      for (const p of kept.slice(0, needed)) logs.push(p.log);
      const exhausted = end === to && found[found.length - 1] === last;
      const spanHint = grow(end - start + 1, kept.length, limit);
      return { logs, next: exhausted ? null : { from: last.block, afterLogIndex: last.index, spanHint }, calls };
    }
    for (const p of kept) logs.push(p.log);
    span = grow(end - start + 1, kept.length, limit - logs.length);
    start = end + 1;
    if (calls >= options.maxCalls && start <= to) return { logs, next: { from: start, afterLogIndex: -1, spanHint: span }, calls };
  }
  return { logs, next: null, calls };
}
