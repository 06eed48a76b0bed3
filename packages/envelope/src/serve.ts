import { randomUUID } from 'node:crypto';
import { STATUS_CODES, createServer } from 'node:http';
import type { RequestListener, Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Express } from 'express';
import { STATUS_BY_CODE } from './app-error';
import { errorEnvelope } from './envelope';
import type { Logger } from './logger';

/** Options of {@link serve}. */
export interface ServeOptions {
  app: Express;
  /** Serves this listener instead of `app` (e.g. a fast path that hands other requests to `app`). */
  listener?: RequestListener;
  port: number;
  host?: string;
  logger: Logger;
  /** Closes the deployable's own clients (Redis, timers) after the server stops taking requests. */
  onClose?: () => Promise<void> | void;
  /** How long in-flight requests may take to finish before the process exits anyway. */
  drainTimeoutMs?: number;
  /** Longest a client may take to send a whole request, headers and body; 30 s by default. */
  requestTimeoutMs?: number;
  /** Longest a client may take to send the request headers; 10 s by default, and below `requestTimeoutMs`. */
  headersTimeoutMs?: number;
  /** How long an idle keep-alive connection is kept; 65 s by default. */
  keepAliveTimeoutMs?: number;
}

/** Defaults of {@link ServeOptions}' time limits. */
export const SERVE_TIMEOUTS = Object.freeze({ requestMs: 30_000, headersMs: 10_000, keepAliveMs: 65_000 });

/**
 * An HTTP server with the time limits of {@link ServeOptions}. A client that trickles its headers
 * or body is cut when they run out (Node answers 408 when it still can); idle keep-alive sockets
 * outlive a proxy's own idle timeout (60 s for most), so a proxy never sends on a socket being closed.
 */
export function createTimedServer(
  listener: RequestListener,
  options: Pick<ServeOptions, 'requestTimeoutMs' | 'headersTimeoutMs' | 'keepAliveTimeoutMs'> = {},
): Server {
  const server = createServerWithLimits(listener, options);
  server.on('clientError', answerClientError);
  return server;
}

// Node's own answer to a request it cannot parse (Content-Length with Transfer-Encoding, a bad
// header byte, …) is a bare 400; it gets the envelope like every other error. A timeout (408) or
// oversized headers (431) keep Node's answer: no code of the table means them.
function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  const keepNodeAnswer = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'HPE_HEADER_OVERFLOW';
  if (!socket.writable || err.code === 'ECONNRESET' || keepNodeAnswer) {
    if (keepNodeAnswer && socket.writable) {
      const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 408;
      socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n\r\n`);
    } else socket.destroy();
    return;
  }
  const body = JSON.stringify(errorEnvelope('BAD_REQUEST', `the request is not valid HTTP/1.1 (${err.code ?? 'unparsable'})`, randomUUID()));
  socket.end(
    `HTTP/1.1 ${STATUS_BY_CODE.BAD_REQUEST} Bad Request\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function createServerWithLimits(
  listener: RequestListener,
  options: Pick<ServeOptions, 'requestTimeoutMs' | 'headersTimeoutMs' | 'keepAliveTimeoutMs'>,
): Server {
  const requestTimeout = options.requestTimeoutMs ?? SERVE_TIMEOUTS.requestMs;
  // Node refuses a headers limit above the request limit.
  const headersTimeout = Math.min(options.headersTimeoutMs ?? SERVE_TIMEOUTS.headersMs, requestTimeout);
  return createServer(
    {
      requestTimeout,
      headersTimeout,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? SERVE_TIMEOUTS.keepAliveMs,
      // Node enforces both limits only on this period (30 s by default): a slow client could hold
      // a socket for twice the limit.
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(headersTimeout / 2))),
    },
    listener,
  );
}

/** A listening server and the function that stops it. */
export interface Serving {
  server: Server;
  port: number;
  close: () => Promise<void>;
}

/**
 * Listens, and on SIGTERM or SIGINT stops accepting connections, lets in-flight requests finish
 * (bounded by `drainTimeoutMs`), runs `onClose` and exits. Called only from a `main.ts`.
 */
export async function serve(options: ServeOptions): Promise<Serving> {
  const { app, logger } = options;
  const server = createTimedServer(options.listener ?? app, options);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  logger.info({ port }, 'listening');

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      const drained = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), options.drainTimeoutMs ?? 10_000);
      timer.unref();
      await drained;
      clearTimeout(timer);
      await options.onClose?.();
    })();
    return closing;
  };

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.info({ signal }, 'shutting down');
      close().then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
  return { server, port, close };
}
