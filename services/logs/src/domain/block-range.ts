import { badInput, type BlockRef } from './query-input.js';

/** Block numbers the node reported for the tags, at one moment. */
export interface Heads {
  latest: number;
  safe: number | null;
  finalized: number | null;
}

/** A resolved, clamped block range. */
export interface BlockRange {
  from: number;
  to: number;
}

function resolve(parameter: string, ref: BlockRef, heads: Heads): number {
  if (typeof ref === 'number') return ref;
  const number = heads[ref];
  if (number === null) throw badInput(parameter, `${parameter}=${ref} is not supported by this chain's RPC; use a block number or latest`);
  return number;
}

/**
 * Resolves tags to numbers, clamps `to` to the head, and enforces from ≤ to and the maximum
 * span; messages name the parameter and the maximum.
 */
export function resolveRange(from: BlockRef, to: BlockRef, heads: Heads, maxRange: number): BlockRange {
  const fromBlock = resolve('from_block', from, heads);
  const toBlock = Math.min(resolve('to_block', to, heads), heads.latest);
  if (fromBlock > heads.latest) {
    throw badInput('from_block', `from_block ${fromBlock} is beyond the chain head ${heads.latest}`);
  }
  if (fromBlock > toBlock) {
    throw badInput('from_block', `from_block ${fromBlock} is after to_block ${toBlock}; a request spans at most ${maxRange} blocks`);
  }
  const span = toBlock - fromBlock + 1;
  if (span > maxRange) {
    throw badInput('to_block', `the block range spans ${span} blocks; the maximum is ${maxRange} blocks per request (use a narrower range)`);
  }
  return { from: fromBlock, to: toBlock };
}
