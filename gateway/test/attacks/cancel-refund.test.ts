import http from 'node:http';
import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';
import { startAttackGateway } from './attack-gateway';
import type { AttackGateway } from './attack-gateway';

jest.setTimeout(60_000);

/** Every 500 ms from 0.25 s to 9.75 s: the moments the calls of a shape are built around (each is admitted first). */
const CANCEL_AFTER_MS = Array.from({ length: 20 }, (_, i) => 250 + i * 500);

/**
 * Sends a call and destroys it `cancelAfterMs` after it was sent; resolves with the status the
 * client saw, or 0 when it saw no answer before giving up. It leaves after reading what has reached
 * its socket by then: a timer and an answer both due in one turn of the event loop run the timer
 * first, so a test process that stalled past the moment would leave with the answer unread, which
 * the gateway, having written it, rightly counted as served.
 */
function callAndCancel(url: string, key: string, cancelAfterMs: number): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request(url, { headers: { 'x-tollgate-key': key }, agent: false });
    let status = 0;
    req.on('response', (res) => {
      status = res.statusCode ?? 0;
      res.resume();
    });
    req.on('error', () => undefined);
    const timer = setTimeout(() => setImmediate(() => req.destroy()), cancelAfterMs);
    req.on('close', () => {
      clearTimeout(timer);
      resolve(status);
    });
    req.end();
  });
}

describe.each(['sqlite', 'redis'] as const)('calls cancelled by their client, on the %s store', (store) => {
  let upstream: EchoUpstream;
  let gateway: AttackGateway;
  beforeAll(async () => {
    upstream = await startEchoUpstream();
    // The service is given longer than any cancellation, so every call below ends by the client.
    gateway = await startAttackGateway(store, { TOKEN_URL: upstream.url, UPSTREAM_TIMEOUT_MS: '30000' });
  });
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
  });

  // What the service does with each call of moment t (0.25 s to 9.75 s): the path it is sent to,
  // and when its client gives up. Where the service answers first, it does so 2 s before the client
  // leaves for every t, and where it answers after, 2 s after: an answer sent as a client leaves is
  // served to a socket the client tears down, which no gateway can tell from a call served. The
  // service and the clients share this test process, so a stall of the process longer than the
  // margin fires the service's timer and the client's in one turn (250 ms, then 600 ms and 1 s
  // margins were each once crossed by a stalled machine: the gateway counted calls the client left).
  // Headers sent at once are the first half of an answer: their client, too, leaves 2 s after them
  // at the earliest (leaving at t, the client of t = 250 ms once saw no headers under load while
  // the gateway had passed them on, and counted the call served).
  const shapes: [string, (t: number) => string, (t: number) => number][] = [
    ['never answers', () => '/token/v1/silent', (t) => t],
    ['answers 2 s after the client left', (t) => `/token/v1/delay/${t + 2_000}`, (t) => t],
    ['answers 2 s before the client leaves', (t) => `/token/v1/delay/${t}`, (t) => t + 2_000],
    ['sends its headers at once and its body 2 s after the client left', (t) => `/token/v1/trickle/${t + 4_000}`, (t) => t + 2_000],
  ];

  // The shapes run side by side, each on a key of its own: each waits 10 s of real time.
  it.concurrent.each(shapes)('when the service %s and clients give up at any time from 0 to 10 s, then each admitted call is either answered 2xx or refunded', async (_shape, route, leaveAfter) => {
    const { id, key, account_id: accountId } = await gateway.newKey({ token: 'q' });
    const statuses = await Promise.all(CANCEL_AFTER_MS.map((t) => callAndCancel(gateway.url + route(t), key, leaveAfter(t))));
    const served = statuses.filter((s) => s === 200).length;
    expect(statuses.filter((s) => s !== 0 && s !== 200)).toEqual([]);
    // The ledger: the month's count holds the calls answered 2xx, and the history has every call, as 2xx or refunded.
    expect(await gateway.settledUsage(id, 'token', served)).toBe(served);
    expect(await gateway.settledHistory(accountId, 'token', CANCEL_AFTER_MS.length)).toMatchObject({ '2xx': served, refunded: CANCEL_AFTER_MS.length - served });
  });
});
