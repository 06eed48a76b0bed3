import { createServer } from 'node:http';
import type { RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
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
  const server = await new Promise<Server>((resolve, reject) => {
    if (options.listener) {
      const s = createServer(options.listener);
      s.once('error', reject);
      s.listen(options.port, options.host ?? '0.0.0.0', () => resolve(s));
      return;
    }
    const s = app.listen(options.port, options.host ?? '0.0.0.0', (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  // Keep-alive sockets from a proxy must outlive the proxy's own idle timeout.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
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
