import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the fake upstream behaves for the next requests. */
export type UpstreamMode = 'ok' | 'no-validators' | 'error-503' | 'hang' | 'cut-body';

/**
 * A local stand-in for raw.githubusercontent.com: serves a CSV body with an ETag and
 * Last-Modified, answers 304 to a matching If-None-Match, and can be told to fail.
 */
export interface CsvUpstream {
  url: string;
  /** Replaces the served body; a new body gets a new ETag. */
  setBody(body: string): void;
  setMode(mode: UpstreamMode): void;
  /** Request headers of every request so far. */
  requests: IncomingHttpHeaders[];
  /** Stops listening, so connections are refused. */
  close(): Promise<void>;
}

/** Starts the fake upstream on a free loopback port. */
export async function startCsvUpstream(initialBody: string): Promise<CsvUpstream> {
  let body = initialBody;
  let version = 1;
  let mode: UpstreamMode = 'ok';
  const requests: IncomingHttpHeaders[] = [];
  const lastModified = 'Thu, 01 Jan 2026 00:00:00 GMT';
  const server: Server = createServer((req, res) => {
    requests.push(req.headers);
    if (mode === 'hang') return; // never answers; the client's timeout must end it
    if (mode === 'error-503') {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('upstream overloaded');
      return;
    }
    if (mode === 'no-validators') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(body);
      return;
    }
    const etag = `"v${version}"`;
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag, 'last-modified': lastModified }).end();
      return;
    }
    const headers = { 'content-type': 'text/plain; charset=utf-8', etag, 'last-modified': lastModified };
    if (mode === 'cut-body') {
      // Promises the whole body, sends half, then drops the connection.
      res.writeHead(200, { ...headers, 'content-length': Buffer.byteLength(body) });
      res.write(body.slice(0, Math.floor(body.length / 2)));
      res.socket?.destroy();
      return;
    }
    res.writeHead(200, headers).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/big-mac-full-index.csv`,
    setBody(next) {
      body = next;
      version += 1;
    },
    setMode(next) {
      mode = next;
    },
    requests,
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      return closed;
    },
  };
}
