/**
 * A small JSON-RPC proxy in front of a real node that behaves like a public provider with a
 * block-range cap: `eth_getLogs` spanning more than `maxSpan` blocks is rejected with a real
 * provider message; everything else is passed through. Counts the calls it sees.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy has seen so far. */
export interface ProxyCounts {
  /** `eth_getLogs` calls, accepted and rejected. */
  getLogs: number;
  /** `eth_getLogs` calls rejected for their span. */
  rejected: number;
  /** Every JSON-RPC call (batch members counted one by one). */
  total: number;
}

/** A running proxy. */
export interface CappedProxy {
  url: string;
  counts: ProxyCounts;
  reset: () => void;
  stop: () => Promise<void>;
}

/** Options of {@link startCappedProxy}. */
export interface CappedProxyOptions {
  target: string;
  maxSpan: number;
  /** The rejection text for a span [from, to]; publicnode's geth message by default. */
  message?: (from: number, to: number, maxSpan: number) => string;
  code?: number;
}

interface RpcCall {
  id: unknown;
  method: string;
  params?: unknown[];
}

function rangeOf(call: RpcCall): { from: number; to: number } | undefined {
  if (call.method !== 'eth_getLogs') return undefined;
  const filter = (call.params?.[0] ?? {}) as { fromBlock?: string; toBlock?: string };
  if (!filter.fromBlock?.startsWith('0x') || !filter.toBlock?.startsWith('0x')) return undefined;
  return { from: Number(filter.fromBlock), to: Number(filter.toBlock) };
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  return body;
}

/** Starts the proxy on a free loopback port. */
export async function startCappedProxy(options: CappedProxyOptions): Promise<CappedProxy> {
  const counts: ProxyCounts = { getLogs: 0, rejected: 0, total: 0 };
  const message = options.message ?? ((_from: number, _to: number, max: number) => `exceed maximum block range: ${max}`);

  async function answer(call: RpcCall): Promise<unknown> {
    counts.total += 1;
    if (call.method === 'eth_getLogs') counts.getLogs += 1;
    const range = rangeOf(call);
    if (range && range.to - range.from + 1 > options.maxSpan) {
      counts.rejected += 1;
      return { jsonrpc: '2.0', id: call.id, error: { code: options.code ?? -32602, message: message(range.from, range.to, options.maxSpan) } };
    }
    const res = await fetch(options.target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(call) });
    return res.json();
  }

  const server = createServer((req, res) => {
    readBody(req)
      .then(async (text) => {
        const parsed = JSON.parse(text) as RpcCall | RpcCall[];
        const reply = Array.isArray(parsed) ? await Promise.all(parsed.map(answer)) : await answer(parsed);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
      })
      .catch((err: unknown) => res.writeHead(502).end(String(err)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    reset: () => Object.assign(counts, { getLogs: 0, rejected: 0, total: 0 }),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
