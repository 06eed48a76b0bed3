import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request a receiver got. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** What this receiver answered it with (0 when it never answered). */
  answered: number;
  /** When it had arrived whole (`performance.now()`). */
  atMs: number;
}

/**
 * How a receiver answers: `ok` (204), `fail-then-ok` (500 for the first `failures`, then 200),
 * `status` (always `status`), `hang` (never answers), `redirect` (302 to `location`).
 */
export type Behaviour = { kind: 'ok' } | { kind: 'fail-then-ok'; failures: number } | { kind: 'status'; status: number } | { kind: 'hang' } | { kind: 'redirect'; location: string };

/** A real HTTP server on loopback that keeps what it receives. */
export interface WebhookReceiver {
  url: string;
  port: number;
  received: Received[];
  behave(behaviour: Behaviour): void;
  /** The bodies verified with `secret` by the standardwebhooks package (throws on the first that does not verify). */
  verified(secret: string): unknown[];
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 (a free port, or `port` to come back on the same one). */
export async function startWebhookReceiver(behaviour: Behaviour = { kind: 'ok' }, port = 0): Promise<WebhookReceiver> {
  let current = behaviour;
  let failed = 0;
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const answer = (res: ServerResponse, entry: Received, status: number, headers: Record<string, string> = {}): void => {
    entry.answered = status;
    res.writeHead(status, headers).end(status === 204 ? undefined : '{}');
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const entry: Received = { headers: req.headers, body, answered: 0, atMs: performance.now() };
      received.push(entry);
      switch (current.kind) {
        case 'ok':
          return answer(res, entry, 204);
        case 'fail-then-ok':
          return answer(res, entry, failed++ < current.failures ? 500 : 200);
        case 'status':
          return answer(res, entry, current.status);
        case 'redirect':
          return answer(res, entry, 302, { location: current.location });
        case 'hang':
          return undefined;
      }
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/hooks`,
    port: bound,
    received,
    behave: (next) => {
      current = next;
      failed = 0;
    },
    verified: (secret) => received.map((r) => new Webhook(secret).verify(r.body, r.headers as Record<string, string>)),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
