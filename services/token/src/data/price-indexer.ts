import type { CoinMap, UpstreamPoints, UpstreamPrice, UpstreamSeries } from '../domain/upstream-types';

/** Chart parameters forwarded to the indexer: only these, since it rejects any other key. */
export interface ChartQuery {
  span: number;
  period: string;
  start?: number;
  end?: number;
}

/** The price indexer as the routes use it; every method accepts any number of ids. */
export interface PriceIndexer {
  /** The chain names the indexer knows. */
  chains(): Promise<string[]>;
  current(keys: readonly string[]): Promise<CoinMap<UpstreamPrice>>;
  historical(timestamp: number, keys: readonly string[]): Promise<CoinMap<UpstreamPrice>>;
  chart(keys: readonly string[], query: ChartQuery): Promise<CoinMap<UpstreamSeries>>;
  /** Prices of every coin at each of `timestamps`, each within `searchWidth` (indexer syntax). */
  points(keys: readonly string[], timestamps: readonly number[], searchWidth: string): Promise<CoinMap<UpstreamPoints>>;
}
