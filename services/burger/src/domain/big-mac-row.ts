/** The five bases whose valuations The Economist publishes as columns of the full index. */
export const PUBLISHED_BASES = ['usd', 'eur', 'gbp', 'jpy', 'cny'] as const;

/** A base currency with published columns. */
export type PublishedBase = (typeof PUBLISHED_BASES)[number];

/** One row of the full-index CSV: one country in one release. Ratios are fractions (0.1 = 10%). */
export interface BigMacRow {
  date: string;
  iso3: string;
  currency: string;
  name: string;
  localPrice: number;
  dollarEx: number;
  dollarPrice: number;
  /** Published raw valuation ratio per base. */
  raw: Record<PublishedBase, number>;
  /** GDP-adjusted fair price in dollars; absent where the dataset has no GDP figure. */
  adjPrice?: number;
  /** Published GDP-adjusted valuation ratio per base; absent where the dataset has none. */
  adjusted?: Record<PublishedBase, number>;
}
