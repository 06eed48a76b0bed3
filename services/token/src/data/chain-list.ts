import type { PriceIndexer } from './price-indexer';

/** The indexer's chain names, fetched on first use and held in memory for a day. */
export interface ChainList {
  get(): Promise<ReadonlySet<string>>;
  /** The held list, if any (for readiness and meta without an upstream call). */
  held(): ReadonlySet<string> | undefined;
}

/** Options of {@link createChainList}. */
export interface ChainListOptions {
  indexer: Pick<PriceIndexer, 'chains'>;
  clock: () => number;
  ttlMs?: number;
  /** After a failed refresh the old list is kept, and the next try waits this long. */
  retryMs?: number;
  onRefreshError?: (err: unknown) => void;
}

/** A day in milliseconds: the chain list changes rarely. */
export const CHAIN_LIST_TTL_MS = 86_400_000;

/**
 * The one thing this service keeps: the chain list, so that unknown prefixes are told apart from
 * unknown tokens. Concurrent first calls share one fetch; a failed refresh keeps the old list.
 */
export function createChainList(options: ChainListOptions): ChainList {
  const ttl = options.ttlMs ?? CHAIN_LIST_TTL_MS;
  const retry = options.retryMs ?? 300_000;
  let chains: ReadonlySet<string> | undefined;
  let freshUntil = 0;
  let loading: Promise<ReadonlySet<string>> | undefined;

  const load = (): Promise<ReadonlySet<string>> => {
    loading ??= options.indexer
      .chains()
      .then(
        (names) => {
          chains = new Set(names.map((n) => n.toLowerCase()));
          freshUntil = options.clock() + ttl;
          return chains;
        },
        (err: unknown) => {
          if (!chains) throw err;
          options.onRefreshError?.(err);
          freshUntil = options.clock() + retry;
          return chains;
        },
      )
      .finally(() => {
        loading = undefined;
      });
    return loading;
  };

  return {
    get: () => (chains && options.clock() < freshUntil ? Promise.resolve(chains) : load()),
    held: () => chains,
  };
}
