import type { BigMacRow, PublishedBase } from './big-mac-row';

/** A country's valuation against a base, in percent. */
export interface Valuation {
  rawPct: number;
  /** Absent where the dataset has no GDP-adjusted figure for the country or the base. */
  adjustedPct?: number;
}

/**
 * Ratio to percent, rounded as The Economist rounds its published ratios (five decimals), so a
 * published 0.11607 becomes exactly 11.607 and computed bases carry no float noise.
 */
export function toPct(ratio: number): number {
  return Math.round(ratio * 1e5) / 1e3 + 0;
}

/** Valuation against a base with published columns: the column × 100. */
export function publishedValuation(row: BigMacRow, base: PublishedBase): Valuation {
  const rawPct = toPct(row.raw[base]);
  return row.adjusted ? { rawPct, adjustedPct: toPct(row.adjusted[base]) } : { rawPct };
}

/**
 * Valuation against any other country of the same release, as The Economist computes it:
 * raw = dollar_price / base dollar_price − 1;
 * adjusted = (dollar_price / adj_price) / (base dollar_price / base adj_price) − 1.
 */
export function computedValuation(row: BigMacRow, baseRow: BigMacRow): Valuation {
  const rawPct = toPct(row.dollarPrice / baseRow.dollarPrice - 1);
  if (row.adjPrice === undefined || baseRow.adjPrice === undefined) return { rawPct };
  const adjusted = row.dollarPrice / row.adjPrice / (baseRow.dollarPrice / baseRow.adjPrice) - 1;
  return { rawPct, adjustedPct: toPct(adjusted) };
}
