import type { TokenId } from './token-id';

/** Tokens split by what the indexer answered, each list in request order. */
export interface SortedTokens<R> {
  found: R[];
  /** Caller spellings the indexer has no (fresh enough) price for. */
  not_found: string[];
  /** Caller spellings whose confidence is below `min_confidence` (or unknown while one is asked). */
  below_confidence: string[];
}

/** count, not_found and below_confidence: what every price answer carries beside its list of records. */
export function outcomeFields<R>(sorted: SortedTokens<R>): { count: number; not_found: string[]; below_confidence: string[] } {
  return { count: sorted.found.length, not_found: sorted.not_found, below_confidence: sorted.below_confidence };
}

/**
 * Splits tokens into found, not found and below the confidence floor. `build` returns the record
 * and its confidence, or undefined when the indexer did not answer for the token.
 */
export function sortTokens<R>(
  tokens: readonly TokenId[],
  build: (token: TokenId) => { record: R; confidence: number | null } | undefined,
  minConfidence: number | undefined,
): SortedTokens<R> {
  const sorted: SortedTokens<R> = { found: [], not_found: [], below_confidence: [] };
  for (const token of tokens) {
    const built = build(token);
    if (!built) sorted.not_found.push(token.input);
    else if (minConfidence !== undefined && (built.confidence === null || built.confidence < minConfidence)) sorted.below_confidence.push(token.input);
    else sorted.found.push(built.record);
  }
  return sorted;
}
