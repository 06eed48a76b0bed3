import http from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { Pool } from 'undici';
import type { Dispatcher } from 'undici';

/**
 * The bare proxy on the gateway's client: node:http in, undici's `Pool` out with the gateway's
 * options (src/api/upstream-forward.ts), the answer streamed back, nothing else. Against
 * bare-proxy.ts it prices the client alone. UPSTREAM_URL names the target.
 */
const target = new URL(process.env.UPSTREAM_URL ?? 'http://127.0.0.1:8082');
const pool = new Pool(target.origin, { connections: 256, pipelining: 1, connectTimeout: 15_000, headersTimeout: 15_000, bodyTimeout: 15_000 });
const server = http.createServer((req, res) => {
  const handler: Dispatcher.DispatchHandler = {
    onRequestStart() {},
    onResponseStart(_controller, statusCode: number, headers: IncomingHttpHeaders) {
      res.writeHead(statusCode, headers);
    },
    onResponseData(_controller, chunk: Buffer) {
      res.write(chunk);
    },
    onResponseEnd() {
      res.end();
    },
    onResponseError() {
      res.statusCode = 502;
      res.end();
    },
  };
  const headers = { ...req.headers } as Record<string, string>;
  delete headers.host;
  delete headers.connection;
  pool.dispatch({ method: req.method as Dispatcher.HttpMethod, path: req.url ?? '/', headers, reset: false }, handler);
  req.resume();
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
