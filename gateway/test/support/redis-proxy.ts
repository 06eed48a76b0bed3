import { connect, createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

/** A TCP relay in front of Redis that can lose an answer on purpose. */
export interface RedisProxy {
  url: string;
  /** The next chunk Redis sends back is thrown away and both connections are closed. */
  dropNextReply(): void;
  /** New connections go to Redis on this port (as a moved name or virtual IP would); open ones stay. */
  retarget(redisPort: number): void;
  close(): Promise<void>;
}

/**
 * Relays 127.0.0.1:<port> to Redis. After `dropNextReply()`, the command has reached Redis and
 * run, but its answer never reaches the client: the connection drops with the command in flight.
 */
export async function startRedisProxy(redisPort: number): Promise<RedisProxy> {
  let drop = false;
  let target = redisPort;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk: Buffer) => upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => {
      if (!drop) {
        client.write(chunk);
        return;
      }
      drop = false;
      client.destroy();
      upstream.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`,
    dropNextReply: () => void (drop = true),
    retarget: (port) => void (target = port),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
