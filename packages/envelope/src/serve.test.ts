import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { createTimedServer } from './serve';

interface Trickle {
  /** Milliseconds from the first byte until the server closed the socket. */
  closedAfterMs: number;
  answer: string;
}

// Sends `head` at once, then one byte of `drip` every 20 ms, until the server closes the socket.
function trickle(port: number, head: string, drip: string, giveUpMs: number): Promise<Trickle> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let i = 0;
    const timer = setInterval(() => {
      if (!socket.writable || drip === '') return;
      socket.write(drip[i % drip.length]!);
      i++;
    }, 20);
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`still open after ${giveUpMs} ms`));
    }, giveUpMs);
    socket.on('data', (d) => (answer += d.toString()));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ closedAfterMs: Date.now() - started, answer });
    });
    socket.write(head);
  });
}

// Far past every limit the tests set (the longest is 400 ms), so only a connection no limit cuts reaches it.
const GIVE_UP_MS = 20_000;

describe('createTimedServer', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    const app = express();
    app.all('/', (_req, res) => {
      res.send('ok');
    });
    server = createTimedServer(app, { headersTimeoutMs: 200, requestTimeoutMs: 400, keepAliveTimeoutMs: 5_000 });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  // Which limit cut a connection is told by leaving no other that could have (a ceiling on the
  // time taken failed once when a loaded machine stalled the test's process past it), and a
  // connection no limit cuts is caught by the give-up, far past every limit.
  it('when a client trickles its headers forever, then the server answers 408 and closes after the headers limit', async () => {
    const headersOnly = createTimedServer(express(), { headersTimeoutMs: 200, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 60_000 });
    await new Promise<void>((resolve) => headersOnly.listen(0, '127.0.0.1', resolve));
    try {
      const result = await trickle((headersOnly.address() as AddressInfo).port, 'GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ', 'abcdefgh', GIVE_UP_MS);
      expect(result.answer).toMatch(/^HTTP\/1\.1 408/);
      expect(result.closedAfterMs).toBeGreaterThanOrEqual(150);
    } finally {
      await new Promise<void>((resolve) => headersOnly.close(() => resolve()));
    }
  }, GIVE_UP_MS * 2);

  it('when a client trickles its body forever, then the server cuts it after the whole-request limit', async () => {
    const head = 'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n';
    const result = await trickle(port, head, 'x', GIVE_UP_MS);
    expect(result.closedAfterMs).toBeGreaterThanOrEqual(350);
  }, GIVE_UP_MS * 2);

  it('when a request cannot be parsed (Content-Length with Transfer-Encoding), then the 400 is the error envelope', async () => {
    const result = await trickle(port, 'GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\nabc', '', 5_000);
    expect(result.answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    const body = JSON.parse(result.answer.slice(result.answer.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
    expect(body).toMatchObject({ data: null, status: 'error', success: false, error: { code: 'BAD_REQUEST' } });
  });

  it('when the limits are left out, then the defaults are 30 s for a request, 10 s for headers and 65 s keep-alive', () => {
    const s = createTimedServer(() => {});
    expect([s.requestTimeout, s.headersTimeout, s.keepAliveTimeout]).toEqual([30_000, 10_000, 65_000]);
  });

  it('when the headers limit is above the request limit, then it is lowered to it', () => {
    const s = createTimedServer(() => {}, { requestTimeoutMs: 1_000, headersTimeoutMs: 5_000 });
    expect(s.headersTimeout).toBe(1_000);
  });
});
