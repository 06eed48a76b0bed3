/** A coin in the indexer's `/prices/current` and `/prices/historical` answers. */
export interface UpstreamPrice {
  price: number;
  symbol: string;
  timestamp: number;
  decimals?: number;
  confidence?: number;
}

/** A coin in the indexer's `/chart` answer; confidence and decimals are series-level. */
export interface UpstreamSeries {
  symbol: string;
  decimals?: number;
  confidence?: number;
  prices: { timestamp: number; price: number }[];
}

/** A coin in the indexer's `/batchHistorical` answer; the points come unsorted. */
export interface UpstreamPoints {
  symbol: string;
  prices: { timestamp: number; price: number; confidence?: number }[];
}

/** The indexer's `coins` object: upstream id (as sent) → entry; unknown coins are absent. */
export type CoinMap<T> = Record<string, T>;
