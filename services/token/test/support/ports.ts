import { createServer } from 'node:net';

/** A loopback port that was free a moment ago, for a child process to listen on. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers 2xx, for up to `attempts` × `delayMs`; a child process starting up refuses connections meanwhile. */
export async function waitForOk(url: string, attempts = 200, delayMs = 50): Promise<void> {
  for (let i = 0; i < attempts; i += 1) {
    const res = await fetch(url).catch(() => undefined);
    if (res?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
  throw new Error(`${url} did not answer 2xx within ${(attempts * delayMs) / 1000} s`);
}
