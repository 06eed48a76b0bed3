import { AppError } from '@tollgate/envelope';
import { matchesTopics, type TopicFilter } from '../domain/query-input.js';
import { chainSpanLimit, nextSpan, readRangeRejection } from '../domain/range-rejection.js';
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

// The span expected to yield `needed` logs at the density just seen, so that a page usually ends
// at a chunk's end (the next page then starts on fresh blocks, refetching nothing); growing at
// most eightfold per step so a sparse stretch does not jump too far.
function plan(span: number, kept: number, needed: number): number {
  if (kept === 0) return span * 8;
  return Math.max(1, Math.min(span * 8, Math.floor((needed * span) / kept)));
}

// A page this full ends at the current chunk's end rather than chase the last few logs.
const FULL_ENOUGH = 0.8;

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
 * is retried with the provider's suggestion or stated limit, else half; a stated block limit is
 * kept per chain, a span shrunk for one dense range only carries on in this page's cursor. Stops at `limit` logs (or a little before, at a chunk or block boundary, so the next page
 * refetches nothing) or after `maxCalls` calls, with the exact next position.
 */
export async function scanLogs(request: ScanRequest, options: ScanOptions): Promise<ScanResult> {
  const { chain, rpc, limit, to } = request;
  const keep = request.keep ?? (() => true);
  const logs: RpcLog[] = [];
  let calls = 0;
  let start = request.from;
  let span = request.spanHint ?? options.probeSpan;
  // Below the smallest span refused in this scan: growing for density never asks for it again.
  let ceiling = Number.POSITIVE_INFINITY;

  while (start <= to) {
    span = Math.max(1, Math.min(span, ceiling, options.spans.get(chain) ?? Number.POSITIVE_INFINITY));
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
      ceiling = Math.max(1, end - start);
      span = nextSpan(advice, end - start + 1);
      const limit = chainSpanLimit(advice, span);
      if (limit !== undefined) options.spans.lower(chain, limit);
      if (calls >= options.maxCalls) return { logs, next: { from: start, afterLogIndex: -1, spanHint: span }, calls };
      continue;
    }
    const found = position(raw, start, end, request.afterLogIndex, request.from, request.topics);
    const kept = found.filter((p) => keep(p.log));
    const spanUsed = end - start + 1;
    const needed = limit - logs.length;
    if (kept.length > needed) {
      // Overflow: end at the last whole block that fits, so the next page starts on a fresh
      // block; cut inside a block only when the page would otherwise be empty.
      const last = kept[needed - 1] as Positioned;
      const whole = kept.slice(0, needed).filter((p) => p.block < last.block);
      const hint = plan(spanUsed, kept.length, limit);
      if (logs.length + whole.length > 0 && (kept[needed] as Positioned).block === last.block) {
        for (const p of whole) logs.push(p.log);
        return { logs, next: { from: last.block, afterLogIndex: -1, spanHint: hint }, calls };
      }
      for (const p of kept.slice(0, needed)) logs.push(p.log);
      return { logs, next: { from: last.block, afterLogIndex: last.index, spanHint: hint }, calls };
    }
    for (const p of kept) logs.push(p.log);
    start = end + 1;
    if (start > to) break;
    const nextPage = plan(spanUsed, kept.length, limit);
    if (logs.length >= limit * FULL_ENOUGH || calls >= options.maxCalls) return { logs, next: { from: start, afterLogIndex: -1, spanHint: nextPage }, calls };
    span = plan(spanUsed, kept.length, limit - logs.length);
  }
  return { logs, next: null, calls };
}
