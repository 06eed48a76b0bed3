/**
 * What a provider's "range too large" rejection tells us about the span to use instead. `halve`
 * says whether the span itself was too long (`blocks`) or this range held too many logs (`results`).
 */
export type RangeAdvice =
  | { kind: 'suggested'; from: number; to: number; limit?: number }
  | { kind: 'limit'; blocks: number }
  | { kind: 'halve'; cause: 'blocks' | 'results' };

const num = (text: string): number => (text.startsWith('0x') || text.startsWith('0X') ? Number.parseInt(text, 16) : Number(text.replace(/,/g, '')));

// Messages that carry a block range to retry with (Alchemy, Infura/zkSync, reth).
const SUGGESTED: readonly RegExp[] = [
  /this block range should work: \[(0x[0-9a-f]+|\d+),\s*(0x[0-9a-f]+|\d+)\]/i,
  /try with this block range \[(0x[0-9a-f]+|\d+),\s*(0x[0-9a-f]+|\d+)\]/i,
  /retry with the range (\d+)-(\d+)/i,
];

// Messages that state the largest span allowed (publicnode/geth, thirdweb, QuickNode, BlockPI,
// drpc, avalanche, moonbeam, Cloudflare, coinbase, merkle, Alchemy free tier, reth, ankr TAC).
// Group 1 is the number, group 2 an optional "k" (thousands).
const LIMIT: readonly RegExp[] = [
  /exceed(?:s|ed)? maximum block range:? (\d[\d,]*)()/i,
  /query exceeds max block range (\d[\d,]*)()/i,
  /maximum allowed number of requested blocks is (\d[\d,]*)()/i,
  /eth_getLogs (?:and eth_newFilter )?(?:is|are) limited to (?:an? )?(\d[\d,]*)()(?: blocks?)? range/i,
  /ranges over (\d[\d,]*)() blocks are not supported/i,
  /maximum is set to (\d[\d,]*)()/i,
  /block range is too wide \(maximum (\d[\d,]*)()\)/i,
  /max range: (\d[\d,]*)()/i,
  /limit the query to at most (\d[\d,]*)() blocks/i,
  /max is (\d+)(k) blocks/i,
  /up to an? (\d[\d,]*)(k?) block range/i,
  /maximum \[from, to\] blocks distance: (\d[\d,]*)()/i,
];

// Messages that say the span is too long without saying what would fit.
const TOO_MANY_BLOCKS: readonly RegExp[] = [/block range (?:is )?too (?:large|wide)/i, /block range limit exceeded/i, /range is too large/i, /limit exceeded/i];

// Messages that say this range held too many logs (or bytes) without saying what would fit.
const TOO_MANY_RESULTS: readonly RegExp[] = [
  /query returned more than \d+ results/i,
  /query exceeds max results/i,
  /logs matched by query exceeds limit/i,
  /log response size exceeded/i,
  /backend response too large/i,
  /response size should not greater than/i,
  /response is too big/i,
];

/**
 * Reads a provider's rejection of an `eth_getLogs` range: a suggested range, a stated block
 * limit, or just "too big" (halve). Undefined when the message is not about the range.
 */
export function readRangeRejection(message: string): RangeAdvice | undefined {
  const limit = statedLimit(message);
  // Results first: "logs matched by query exceeds limit" is about logs, not blocks.
  const results = TOO_MANY_RESULTS.some((p) => p.test(message));
  for (const pattern of SUGGESTED) {
    const m = pattern.exec(message);
    if (!m?.[1] || !m[2]) continue;
    // Alchemy's free tier states its block limit beside the suggestion; its response-size message
    // states one too, but there the limit is an alternative to a log cap, not the chain's bound.
    return limit === undefined || results ? { kind: 'suggested', from: num(m[1]), to: num(m[2]) } : { kind: 'suggested', from: num(m[1]), to: num(m[2]), limit };
  }
  if (limit !== undefined) return { kind: 'limit', blocks: limit };
  if (results) return { kind: 'halve', cause: 'results' };
  return TOO_MANY_BLOCKS.some((p) => p.test(message)) ? { kind: 'halve', cause: 'blocks' } : undefined;
}

function statedLimit(message: string): number | undefined {
  for (const pattern of LIMIT) {
    const m = pattern.exec(message);
    if (m?.[1]) {
      const blocks = num(m[1]) * (m[2] ? 1000 : 1);
      if (blocks >= 1) return blocks;
    }
  }
  return undefined;
}

/**
 * The span to remember as the chain's limit after a rejection that led to `next`, or undefined.
 * Suggested ranges without a stated limit (Infura, reth, Alchemy's size cap) and result caps are
 * sized by this query's log density: remembered, one dense query would shrink every later query on
 * the chain, however sparse.
 */
export function chainSpanLimit(advice: RangeAdvice, next: number): number | undefined {
  if (advice.kind === 'suggested') return advice.limit;
  if (advice.kind === 'limit' || advice.cause === 'blocks') return next;
  return undefined;
}

/** The span to retry with after a rejection of `span` blocks; never more than half when unsure. */
export function nextSpan(advice: RangeAdvice, span: number): number {
  if (advice.kind === 'suggested') {
    const suggested = Math.min(advice.to - advice.from + 1, advice.limit ?? Number.POSITIVE_INFINITY);
    return suggested >= 1 && suggested < span ? suggested : Math.max(1, Math.floor(span / 2));
  }
  if (advice.kind === 'limit') return advice.blocks < span ? advice.blocks : Math.max(1, Math.floor(span / 2));
  return Math.max(1, Math.floor(span / 2));
}
