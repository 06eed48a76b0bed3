import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { LOCAL_CHAINS, LOCAL_COINS, lookupKey, priceAt, quantisePeriod, recordNear } from './local-indexer-data';
import type { LocalCoin } from './local-indexer-data';

export { LOCAL_CHAINS, LOCAL_COINS, priceAt } from './local-indexer-data';
export type { LocalCoin } from './local-indexer-data';

/** One call the local indexer received. */
export interface IndexerCall {
  path: string;
  query: Record<string, string>;
  /** The coin ids the call asked for, as sent. */
  coins: string[];
}

/** A misbehaviour to answer with instead of the normal answer. */
export interface IndexerFault {
  status?: number;
  /** Raw body text (e.g. garbage JSON); JSON `{message}` of the status when left out. */
  body?: string;
  headers?: Record<string, string>;
  /** Wait this long before answering (a slow indexer). */
  delayMs?: number;
  /** Send the headers at once, then the body one byte every this many ms (a trickling indexer). */
  trickleMs?: number;
  /** Which paths misbehave; every path except `/chains` by default. */
  match?: (path: string) => boolean;
}

/** Options of {@link startLocalIndexer}. */
export interface LocalIndexerOptions {
  port?: number;
  host?: string;
  /** The indexer's clock, milliseconds; its newest record is the last full hour before it. */
  now?: () => number;
  coins?: readonly LocalCoin[];
  chains?: readonly string[];
}

/** A running local indexer. */
export interface LocalIndexer {
  url: string;
  calls: IndexerCall[];
  /** Sets (or clears) the misbehaviour for later calls. */
  setFault(fault: IndexerFault | undefined): void;
  /** Holds every answer until the returned function is called. */
  hold(): () => void;
  close(): Promise<void>;
}

type Answer = { status: number; body: unknown; headers?: Record<string, string> };

const notExists: Answer = { status: 400, body: { message: "This endpoint doesn't exist" } };

function coinsOf(list: string): string[] {
  return list.split(',').filter((c) => c.includes(':'));
}

/**
 * Starts a local HTTP server that answers like DefiLlama's coins API (coins.llama.fi), quirks
 * included: unknown coins are absent, keys echo the caller's spelling, `decimals` is missing for
 * CoinGecko ids, a distressed token has confidence 1.01, batch points come unsorted, and errors are
 * 400 `{message}`. Made for tests, the offline demo and benchmarks; it imports nothing from jest.
 */
export async function startLocalIndexer(options: LocalIndexerOptions = {}): Promise<LocalIndexer> {
  const now = options.now ?? Date.now;
  const table = new Map((options.coins ?? LOCAL_COINS).map((c) => [lookupKey(c.id), c]));
  const chains = options.chains ?? LOCAL_CHAINS;
  const calls: IndexerCall[] = [];
  let fault: IndexerFault | undefined;
  let held: Promise<void> | undefined;

  const find = (coin: string): LocalCoin | undefined => (coin.includes(':') ? table.get(lookupKey(coin)) : undefined);
  const nowSeconds = () => Math.floor(now() / 1000);

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

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    const path = decodeURIComponent(url.pathname);
    const query = Object.fromEntries(url.searchParams);
    const { answer, coins } = route(path, query);
    calls.push({ path, query, coins });
    const active = fault && (fault.match ?? ((p: string) => p !== '/chains'))(path) ? fault : undefined;
    const send = () => {
      const status = active?.status ?? answer.status;
      const body = active?.body ?? (active?.status ? JSON.stringify({ message: `HTTP ${active.status}` }) : JSON.stringify(answer.body));
      res.writeHead(status, {
        'content-type': 'application/json',
        'access-control-allow-origin': '*',
        'access-control-allow-credentials': 'true',
        ...(path.startsWith('/prices/current') ? {} : { 'cache-control': 'max-age=3600' }),
        ...answer.headers,
        ...active?.headers,
      });
      if (active?.trickleMs) {
        let sent = 0;
        const timer = setInterval(() => {
          sent += 1;
          if (sent < body.length) res.write(body.slice(sent - 1, sent));
          else res.end(body.slice(sent - 1));
          if (sent >= body.length) clearInterval(timer);
        }, active.trickleMs);
        res.on('close', () => clearInterval(timer));
      } else {
        res.end(body);
      }
    };
    const gate = held ?? Promise.resolve();
    void gate.then(() => (active?.delayMs ? setTimeout(send, active.delayMs) : send()));
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    calls,
    setFault: (next) => {
      fault = next;
    },
    hold: () => {
      let release!: () => void;
      held = new Promise<void>((resolve) => {
        release = resolve;
      });
      return () => {
        held = undefined;
        release();
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
