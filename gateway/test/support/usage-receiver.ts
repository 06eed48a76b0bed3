import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { CloudEvent, HTTP } from 'cloudevents';
import type { UsageData } from '../../src/events/usage-stream';

/** An HTTP endpoint taking batches of CloudEvents (as OpenMeter does), read with the cloudevents package. */
export interface UsageReceiver {
  url: string;
  port: number;
  /** Every event received (duplicates included), in order. */
  events: CloudEvent<UsageData>[];
  batches: number;
  /** Stops listening and cuts every connection: the sink is gone. */
  kill(): Promise<void>;
  /** Listens again on the same port. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 (a free port). */
export async function startUsageReceiver(): Promise<UsageReceiver> {
  const events: CloudEvent<UsageData>[] = [];
  const sockets = new Set<Socket>();
  let batches = 0;
  let server: Server | undefined;
  let port = 0;
  const listen = async (): Promise<void> => {
    const s = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        try {
          // Batch mode, from the content type: an array of events, each checked against the CloudEvents 1.0 schema.
          const got = HTTP.toEvent<UsageData>({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
          const list = (Array.isArray(got) ? got : [got]).map((event) => new CloudEvent<UsageData>(event));
          events.push(...list);
          batches += 1;
          res.writeHead(202).end();
        } catch (err) {
          res.writeHead(400).end((err as Error).message);
        }
      });
    });
    s.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => s.listen(port, '127.0.0.1', resolve));
    port = (s.address() as AddressInfo).port;
    server = s;
  };
  const kill = (): Promise<void> =>
    new Promise((resolve) => {
      const s = server;
      server = undefined;
      if (!s) return resolve();
      for (const socket of sockets) socket.destroy();
      s.close(() => resolve());
    });
  await listen();
  return {
    get url() {
      return `http://127.0.0.1:${port}/ingest`;
    },
    get port() {
      return port;
    },
    events,
    get batches() {
      return batches;
    },
    kill,
    restart: listen,
    close: kill,
  };
}
