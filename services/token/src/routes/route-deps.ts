import type { ChainList } from '../data/chain-list';
import type { PriceIndexer } from '../data/price-indexer';

/** What the price routes need. */
export interface RouteDeps {
  indexer: PriceIndexer;
  chainList: ChainList;
  /** Milliseconds since the epoch. */
  clock: () => number;
}

/** Error codes every route that calls the indexer can answer with. */
export const UPSTREAM_ERRORS = ['BAD_REQUEST', 'FORBIDDEN', 'UPSTREAM_UNAVAILABLE', 'UPSTREAM_RATE_LIMITED', 'UPSTREAM_TIMEOUT'] as const;
