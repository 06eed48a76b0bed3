import { createHash } from 'node:crypto';
import { badInput } from './query-input.js';

/** Where the next page starts: at block `from`, after log index `afterLogIndex` in that block. */
export interface CursorState {
  /** Fingerprint of the query the cursor belongs to. */
  query: string;
  from: number;
  afterLogIndex: number;
  /** The end of the range, fixed on the first page so that `latest` does not move under it. */
  to: number;
  /** Blocks that should hold about one page, learned from the density seen so far. */
  spanHint: number;
}

/** A short fingerprint of everything that defines a query apart from its position. */
export function queryFingerprint(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
}

/** Encodes a cursor as opaque base64url text. */
export function encodeCursor(state: CursorState): string {
  const { query, from, afterLogIndex, to, spanHint } = state;
  return Buffer.from(JSON.stringify([1, query, from, afterLogIndex, to, spanHint])).toString('base64url');
}

const isCount = (n: unknown, min: number): n is number => Number.isSafeInteger(n) && (n as number) >= min;

/** Decodes a cursor and checks it belongs to `query`; a foreign or damaged cursor is a 400. */
export function decodeCursor(text: string, query: string): CursorState {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    parts = undefined;
  }
  if (!Array.isArray(parts) || parts[0] !== 1) throw badInput('cursor', 'cursor must be a cursor returned by this endpoint, unchanged');
  const [, q, from, after, to, span] = parts as unknown[];
  if (typeof q !== 'string' || !isCount(from, 0) || !isCount(after, -1) || !isCount(to, 0) || !isCount(span, 1) || from > to) {
    throw badInput('cursor', 'cursor must be a cursor returned by this endpoint, unchanged');
  }
  if (q !== query) {
    throw badInput('cursor', 'cursor belongs to a different query; repeat the same chain, address, topic and event parameters');
  }
  return { query: q, from, afterLogIndex: after, to, spanHint: span };
}
