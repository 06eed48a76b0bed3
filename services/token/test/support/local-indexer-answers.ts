import { lookupKey, priceAt, quantisePeriod, recordNear } from './local-indexer-data';
import type { LocalCoin } from './local-indexer-data';

/** An answer of the local indexer before it is written. */
export type Answer = { status: number; body: unknown; headers?: Record<string, string> };

const notExists: Answer = { status: 400, body: { message: "This endpoint doesn't exist" } };

function coinsOf(list: string): string[] {
  return list.split(',').filter((c) => c.includes(':'));
}

/** What the answers are built from. */
export interface AnswerSource {
  coins: readonly LocalCoin[];
  chains: readonly string[];
  /** Milliseconds since the epoch. */
  now: () => number;
}

/**
 * The indexer's routing and answers, as its server code is written: returns the answer for a path
 * and query, and the coin ids the call asked for.
 */
export function createAnswers(source: AnswerSource): (path: string, query: Record<string, string>) => { answer: Answer; coins: string[] } {
  const table = new Map(source.coins.map((c) => [lookupKey(c.id), c]));
  const chains = source.chains;
  const find = (coin: string): LocalCoin | undefined => (coin.includes(':') ? table.get(lookupKey(coin)) : undefined);
  const nowSeconds = () => Math.floor(source.now() / 1000);

  function priced(coins: string[], at: number | undefined, width: number) {
    const out: Record<string, unknown> = {};
    for (const coin of coins) {
      const entry = find(coin);
      if (!entry) continue;
      const ts = at === undefined ? Math.floor(nowSeconds() / 300) * 300 : recordNear(entry, at, width, nowSeconds());
      if (ts === undefined) continue;
      out[coin] = {
        ...(entry.decimals === undefined ? {} : { decimals: entry.decimals }),
        symbol: entry.symbol,
        price: priceAt(entry, ts),
        timestamp: ts,
        ...(entry.confidence === undefined ? {} : { confidence: entry.confidence }),
      };
    }
    return { coins: out };
  }

  function chart(coins: string[], query: Record<string, string>): Answer {
    const allowed = ['start', 'end', 'span', 'period', 'searchWidth'];
    const invalid = Object.keys(query).find((k) => !allowed.includes(k));
    if (invalid) return { status: 400, body: { message: `${invalid} is an invalid param` } };
    if (query.start !== undefined && query.end !== undefined) return { status: 400, body: { message: 'use either start or end parameter, not both' } };
    for (const name of ['start', 'end', 'span']) {
      const value = query[name];
      if (value !== undefined && !(Number(value) >= 0)) return { status: 400, body: { message: `${name} is not an uint` } };
    }
    const period = quantisePeriod(query.period ?? 'd');
    const span = Math.max(1, Number(query.span ?? 0));
    const width = query.searchWidth ? quantisePeriod(query.searchWidth) : period / 10;
    if (coins.length * span > 500) {
      const n = coins.length * span;
      return { status: 400, body: { message: `Requested ${n} data points (${coins.length} coins × ${span} timestamps) exceeds the maximum of 500. Reduce the number of coins or the span.` } };
    }
    const grid = query.start !== undefined
      ? Array.from({ length: span }, (_, i) => Number(query.start) + i * period)
      : Array.from({ length: span }, (_, i) => Number(query.end ?? nowSeconds()) - i * period);
    const out: Record<string, unknown> = {};
    for (const coin of coins) {
      const entry = find(coin);
      if (!entry) continue;
      const stamps = [...new Set(grid.map((t) => recordNear(entry, t, width, nowSeconds())).filter((t): t is number => t !== undefined))].sort((a, b) => a - b);
      if (stamps.length === 0) continue;
      out[coin] = {
        symbol: entry.symbol,
        confidence: entry.confidence,
        decimals: entry.decimals,
        prices: stamps.map((t) => ({ timestamp: t, price: priceAt(entry, t) })),
      };
    }
    return { status: 200, body: { coins: out } };
  }

  function batchHistorical(query: Record<string, string>): Answer {
    if (!query.coins) return { status: 400, body: { message: 'no coins queried' } };
    let asked: Record<string, number[]>;
    try {
      asked = JSON.parse(query.coins) as Record<string, number[]>;
    } catch (err) {
      return { status: 400, body: { message: (err as Error).stack ?? String(err) } };
    }
    if (Object.keys(asked).length === 0) return { status: 400, body: { message: 'no coins queried' } };
    const width = quantisePeriod(query.searchWidth ?? '6h');
    const out: Record<string, unknown> = {};
    for (const [coin, stamps] of Object.entries(asked)) {
      const entry = find(coin);
      if (!entry) continue;
      const found = stamps.map((t) => recordNear(entry, t, width, nowSeconds())).filter((t): t is number => t !== undefined);
      // Filled as lookups finish upstream: newest first here, so callers must sort.
      const prices = found.reverse().map((t) => ({ timestamp: t, price: priceAt(entry, t), confidence: entry.confidence }));
      out[coin] = { symbol: entry.symbol, prices };
    }
    return { status: 200, body: { coins: out } };
  }

  function route(path: string, query: Record<string, string>): { answer: Answer; coins: string[] } {
    if (path === '/chains') return { answer: { status: 200, body: chains }, coins: [] };
    let m = /^\/prices\/current\/([^/]+)$/.exec(path);
    if (m) {
      const coins = coinsOf(m[1]!);
      return { answer: { status: 200, body: priced(coins, undefined, 0), headers: { expires: new Date((Math.floor(nowSeconds() / 300) * 300 + 320) * 1000).toUTCString() } }, coins };
    }
    m = /^\/prices\/historical\/([^/]+)\/([^/]+)$/.exec(path);
    if (m) {
      const coins = coinsOf(m[2]!);
      const at = Number(m[1]);
      if (Number.isNaN(at)) return { answer: { status: 500, body: { message: 'Internal server error' } }, coins };
      return { answer: { status: 200, body: priced(coins, at, quantisePeriod(query.searchWidth ?? '6h')) }, coins };
    }
    m = /^\/chart\/([^/]+)$/.exec(path);
    if (m) {
      const coins = coinsOf(m[1]!);
      return { answer: chart(coins, query), coins };
    }
    if (path === '/batchHistorical') {
      let coins: string[] = [];
      try {
        coins = Object.keys(JSON.parse(query.coins ?? '{}') as object);
      } catch {
        coins = [];
      }
      return { answer: batchHistorical(query), coins };
    }
    return { answer: notExists, coins: [] };
  }


  return route;
}
