import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAnswers } from './local-indexer-answers';
import { LOCAL_CHAINS, LOCAL_COINS } from './local-indexer-data';
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

/**
 * Starts a local HTTP server that answers like DefiLlama's coins API (coins.llama.fi), quirks
 * included: unknown coins are absent, keys echo the caller's spelling, `decimals` is missing for
 * CoinGecko ids, a distressed token has confidence 1.01, batch points come unsorted, and errors are
 * 400 `{message}`. Made for tests, the offline demo and benchmarks; it imports nothing from jest.
 */
export async function startLocalIndexer(options: LocalIndexerOptions = {}): Promise<LocalIndexer> {
  const now = options.now ?? Date.now;
  const route = createAnswers({ coins: options.coins ?? LOCAL_COINS, chains: options.chains ?? LOCAL_CHAINS, now });
  const calls: IndexerCall[] = [];
  let fault: IndexerFault | undefined;
  let held: Promise<void> | undefined;

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
    void gate.then(() => {
      if (!active?.delayMs) return send();
      if (res.closed) return;
      // Until the connection closes: the client gave up (the service's timeout) or close() dropped it.
      // A timer kept past that held the test process, and Jest force-exited a worker whose last
      // file ended within the delay (gateway/docs/testing.md, Tests that failed once).
      const timer = setTimeout(send, active.delayMs);
      res.on('close', () => clearTimeout(timer));
    });
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
