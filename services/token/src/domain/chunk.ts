/** Most coins per indexer call: DefiLlama's own SDK uses 100, well inside URL-length limits. */
export const UPSTREAM_CHUNK_SIZE = 100;

/** Splits a list into consecutive pieces of at most `size`. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const pieces: T[][] = [];
  for (let i = 0; i < items.length; i += size) pieces.push(items.slice(i, i + size));
  return pieces;
}
