import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One delivery as the receiver got it: the raw bytes are what the signature covers. */
export interface Received {
  body: string;
  signature: string;
  userAgent: string;
}

/** A real HTTP receiver on loopback that answers `status(n)` to its n-th request (from 1). */
export async function startReceiver(status: (n: number) => number = () => 200): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), signature: String(req.headers['stripe-signature']), userAgent: String(req.headers['user-agent']) });
      res.writeHead(status(received.length)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/stripe/webhook`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
