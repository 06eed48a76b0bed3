import { COINGECKO_PREFIX, addressRuleOf } from './token-id';
import type { TokenId } from './token-id';
import type { CoinMap, UpstreamPrice } from './upstream-types';

/** The fields every per-token answer starts with. */
export interface TokenFields {
  token: string;
  chain: string;
  address: string;
  symbol: string;
}

/** One token's price as the API answers it. */
export interface PriceRecord extends TokenFields {
  price_usd: number;
  decimals: number | null;
  confidence: number | null;
  timestamp: number;
}

/**
 * The entry for a token in an indexer answer. The indexer echoes the id as sent; on chains whose ids
 * are case-insensitive, a case-insensitive match is the fallback for versions that answer with their
 * own normalised key (on case-kept chains such as Solana another case is another token).
 */
export function entryFor<T>(coins: CoinMap<T>, token: TokenId): T | undefined {
  if (Object.hasOwn(coins, token.key)) return coins[token.key];
  if (!addressRuleOf(token.chain).lowerCase) return undefined;
  const wanted = token.key.toLowerCase();
  const key = Object.keys(coins).find((k) => k.toLowerCase() === wanted);
  return key === undefined ? undefined : coins[key];
}

/**
 * Decimals as the indexer gives them, or null when it does not know: it omits them for CoinGecko
 * ids, and one serving path fills them with a meaningless 0.
 */
export function decimalsOf(token: TokenId, decimals: number | undefined): number | null {
  if (decimals === undefined) return null;
  return token.chain === COINGECKO_PREFIX && decimals === 0 ? null : decimals;
}

/** The caller's spelling, the chain and address as sent upstream, and the indexer's symbol. */
export function tokenFields(token: TokenId, symbol: string): TokenFields {
  return { token: token.input, chain: token.chain, address: token.address, symbol };
}

/** Builds a price record; confidence is passed as given (it can exceed 1). */
export function toPriceRecord(token: TokenId, entry: UpstreamPrice): PriceRecord {
  return {
    ...tokenFields(token, entry.symbol),
    price_usd: entry.price,
    decimals: decimalsOf(token, entry.decimals),
    confidence: entry.confidence ?? null,
    timestamp: entry.timestamp,
  };
}
