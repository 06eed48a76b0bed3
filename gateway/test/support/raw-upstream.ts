import { createServer } from 'node:net';
import type { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A service stand-in on raw sockets, for what a real HTTP server library will not do on purpose. */
export interface RawUpstream {
  url: string;
  /** Requests read, as `METHOD /path`, in order. */
  requests: string[];
  /** Paths of requests whose connection closed before they were answered. */
  abandoned: string[];
  close(): Promise<void>;
}

/**
 * `/v1/once`: answers the first request on a connection (kept alive) and drops the connection,
 * unanswered, on the next one, as a service whose idle timeout fires just as the gateway reuses
 * the socket. `/v1/hang`: never answers. Anything else: 404.
 */
export async function startRawUpstream(): Promise<RawUpstream> {
  const requests: string[] = [];
  const abandoned: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    let served = 0;
    let buffer = '';
    let waiting: string | undefined;
    socket.on('close', () => {
      sockets.delete(socket);
      if (waiting) abandoned.push(waiting);
    });
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('latin1');
      let end: number;
      while ((end = buffer.indexOf('\r\n\r\n')) >= 0) {
        const [method = '', target = ''] = (buffer.slice(0, end).split('\r\n')[0] ?? '').split(' ');
        buffer = buffer.slice(end + 4);
        const path = target.split('?')[0] ?? '';
        requests.push(`${method} ${path}`);
        if (path === '/v1/once') {
          if (served++ > 0) {
            socket.destroy();
            return;
          }
          const body = '{"served":true}';
          socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: keep-alive\r\n\r\n${body}`);
        } else if (path === '/v1/hang') {
          waiting = path;
        } else {
          socket.write('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    abandoned,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
