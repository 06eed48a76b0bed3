import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the echo service saw of one call. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local stand-in for a Tollgate service. */
export interface EchoUpstream {
  url: string;
  port: number;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/**
 * An HTTP service on 127.0.0.1:0 that answers every call with JSON describing it (method, url,
 * headers, body). `/v1/silent` never answers (timeouts); `/v1/status/<n>` answers status n;
 * `/v1/delay/<ms>` answers after ms; `/v1/trickle/<ms>` sends its headers at once and its body after ms;
 * `/v1/drip/<ms>` sends its headers at once and a piece of its body every 100 ms for ms (a connection
 * kept busy, never idle for a timeout);
 * `/v1/cookies` answers with a `Set-Cookie` for `tg_session` (the portal's cookie) and one for `theme`.
 * `/v1/openapi.json` (not recorded in `seen`) documents `routes` when given, else is a 404, so the
 * gateway does not know the service's routes and lets every `/v1/` path through.
 */
export async function startEchoUpstream(options: { routes?: string[] } = {}): Promise<EchoUpstream> {
  const seen: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    if (req.url === '/v1/openapi.json') {
      const document = options.routes && { openapi: '3.1.0', info: { title: 'echo', version: '1' }, paths: Object.fromEntries(options.routes.map((r) => [r, { get: {} }])) };
      res.writeHead(document ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(document ?? { error: 'not documented' }));
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const call = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      seen.push(call);
      if (req.url === '/v1/silent') return;
      const drip = /^\/v1\/drip\/(\d+)$/.exec(req.url ?? '')?.[1];
      if (drip) {
        res.writeHead(200, { 'content-type': 'application/json' }).write('[0');
        const every = setInterval(() => res.write(',0'), 100);
        setTimeout(() => {
          clearInterval(every);
          res.end(']');
        }, Number(drip)).unref();
        res.once('close', () => clearInterval(every));
        return;
      }
      const [, kind, ms] = /^\/v1\/(delay|trickle)\/(\d+)$/.exec(req.url ?? '') ?? [];
      if (kind === 'trickle') res.writeHead(200, { 'content-type': 'application/json' }).flushHeaders();
      if (kind) {
        setTimeout(() => res.end(JSON.stringify(call)), Number(ms)).unref();
        return;
      }
      if (req.url === '/v1/cookies') res.setHeader('set-cookie', ['tg_session=planted-by-the-service; Path=/; HttpOnly', 'theme=dark; Path=/']);
      const status = /^\/v1\/status\/(\d{3})$/.exec(req.url ?? '')?.[1];
      res.writeHead(status ? Number(status) : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(call));
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
