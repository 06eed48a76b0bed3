/** A coin the local indexer knows, with a deterministic price history. */
export interface LocalCoin {
  /** `chain:address` as the indexer stores it (lower case except case-kept chains). */
  id: string;
  symbol: string;
  /** Left out for CoinGecko ids, as the real indexer does. */
  decimals?: number;
  /** Price at the middle of its wave. */
  basePrice: number;
  /** Relative swing of the price wave (0.05 = ±5 %). */
  swing: number;
  confidence?: number;
  /** Unix seconds of the first stored record. */
  listedAt?: number;
}

/** Chain names `GET /chains` answers with (a subset of the real list, in its unsorted style). */
export const LOCAL_CHAINS: readonly string[] = [
  'ethereum', 'bsc', 'polygon', 'arbitrum', 'optimism', 'base', 'avax', 'fantom', 'xdai', 'era', 'linea',
  'scroll', 'mantle', 'celo', 'tron', 'solana', 'sui', 'aptos', 'starknet', 'ton', 'bitcoin', 'near',
];

/** A small realistic table: well-known tokens on ethereum, base, arbitrum and solana, plus slugs. */
export const LOCAL_COINS: readonly LocalCoin[] = [
  { id: 'ethereum:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', symbol: 'USDC', decimals: 6, basePrice: 0.9998, swing: 0.0005, confidence: 0.99 },
  { id: 'ethereum:0xdac17f958d2ee523a2206206994597c13d831ec7', symbol: 'USDT', decimals: 6, basePrice: 1.0002, swing: 0.0005, confidence: 0.99 },
  { id: 'ethereum:0x6b175474e89094c44da98b954eedeac495271d0f', symbol: 'DAI', decimals: 18, basePrice: 0.9999, swing: 0.0005, confidence: 0.99 },
  { id: 'ethereum:0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2', symbol: 'WETH', decimals: 18, basePrice: 3312.45, swing: 0.05, confidence: 0.99 },
  { id: 'ethereum:0x2260fac5e5542a773aa44fbcfedf7c193bc2c599', symbol: 'WBTC', decimals: 8, basePrice: 97012.5, swing: 0.04, confidence: 0.99 },
  // A distressed contract: the indexer answers price 0 with confidence 1.01.
  { id: 'ethereum:0xdf574c24545e5ffecb9a659c229253d4111d87e1', symbol: 'HUSD', decimals: 8, basePrice: 0, swing: 0, confidence: 1.01 },
  { id: 'base:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913', symbol: 'USDC', decimals: 6, basePrice: 0.9999, swing: 0.0005, confidence: 0.99 },
  { id: 'base:0x4200000000000000000000000000000000000006', symbol: 'WETH', decimals: 18, basePrice: 3311.9, swing: 0.05, confidence: 0.99 },
  { id: 'base:0x532f27101965dd16442e59d40670faf5ebb142e4', symbol: 'BRETT', decimals: 18, basePrice: 0.0712, swing: 0.2, confidence: 0.42 },
  { id: 'arbitrum:0xaf88d065e77c8cc2239327c5edb3a432268e5831', symbol: 'USDC', decimals: 6, basePrice: 1.0001, swing: 0.0005, confidence: 0.99 },
  { id: 'arbitrum:0x912ce59144191c1204e64559fe8253a0e49e6548', symbol: 'ARB', decimals: 18, basePrice: 0.4215, swing: 0.08, confidence: 0.98 },
  { id: 'solana:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', symbol: 'USDC', decimals: 6, basePrice: 0.9997, swing: 0.0005, confidence: 0.99 },
  { id: 'solana:So11111111111111111111111111111111111111112', symbol: 'SOL', decimals: 9, basePrice: 182.3, swing: 0.07, confidence: 0.99 },
  { id: 'coingecko:ethereum', symbol: 'ETH', basePrice: 3312.45, swing: 0.05, confidence: 0.99 },
  { id: 'coingecko:bitcoin', symbol: 'BTC', basePrice: 97000, swing: 0.04, confidence: 0.99 },
  { id: 'coingecko:usd-coin', symbol: 'USDC', basePrice: 1, swing: 0.0005, confidence: 0.99 },
];

/** Seconds between stored records: hourly, on the hour. */
export const RECORD_INTERVAL = 3600;

/** Length of the price wave: 10 days, so that no whole day or week maps a price onto itself. */
export const WAVE_SECONDS = 864_000;

/** The coin's price at a moment: a 10-day wave around its base price. */
export function priceAt(coin: LocalCoin, timestamp: number): number {
  const wave = Math.sin((2 * Math.PI * timestamp) / WAVE_SECONDS);
  return Number((coin.basePrice * (1 + coin.swing * wave)).toPrecision(10));
}

/** The stored record nearest to `at` within `width` seconds, if any (records are hourly, up to now). */
export function recordNear(coin: LocalCoin, at: number, width: number, nowSeconds: number): number | undefined {
  const first = coin.listedAt ?? nowSeconds - 400 * 86_400;
  const last = Math.floor(nowSeconds / RECORD_INTERVAL) * RECORD_INTERVAL;
  const nearest = Math.min(last, Math.max(first, Math.round(at / RECORD_INTERVAL) * RECORD_INTERVAL));
  return Math.abs(nearest - at) <= width ? nearest : undefined;
}

/** The indexer's lookup key: lower-cased, except on chains whose ids are case-sensitive; gnosis is xdai. */
export function lookupKey(coin: string): string {
  const colon = coin.indexOf(':');
  const chain = coin.slice(0, colon).toLowerCase().replace(/^gnosis$/, 'xdai');
  const rest = coin.slice(colon + 1);
  return ['solana', 'bitcoin', 'eclipse'].includes(chain) ? `${chain}:${rest}` : `${chain}:${rest.toLowerCase()}`;
}

/** Reads a duration the way the indexer does: `<n>w|d|h|m`, a bare letter is 1, a bare number is seconds. */
export function quantisePeriod(value: string): number {
  const text = value.toLowerCase();
  const unit = { w: 604_800, d: 86_400, h: 3600, m: 60 }[text.slice(-1)];
  if (unit === undefined) return Number(text);
  const count = text.length === 1 ? 1 : Number(text.slice(0, -1));
  return count * unit;
}
