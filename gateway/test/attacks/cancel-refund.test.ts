import http from 'node:http';
import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';
import { startAttackGateway } from './attack-gateway';
import type { AttackGateway } from './attack-gateway';

jest.setTimeout(60_000);

/** Every 500 ms from 0.25 s to 9.75 s: when each client gives up on its call (each is admitted first). */
const CANCEL_AFTER_MS = Array.from({ length: 20 }, (_, i) => 250 + i * 500);

/**
 * Sends a call and destroys it `cancelAfterMs` after it was sent; resolves with the status the
 * client saw, or 0 when it saw no answer before giving up.
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
    const timer = setTimeout(() => req.destroy(), cancelAfterMs);
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

  // What the service does with each call, by when the client gives up (c ms after sending it).
  const shapes: [string, (c: number) => string][] = [
    ['never answers', () => '/token/v1/silent'],
    ['answers 1 s after the client left', (c) => `/token/v1/delay/${c + 1_000}`],
    ['answers 600 ms before the client leaves', (c) => `/token/v1/delay/${Math.max(0, c - 600)}`],
    ['sends its headers at once and its body after the client left', (c) => `/token/v1/trickle/${c + 1_000}`],
  ];

  it.each(shapes)('when the service %s and clients give up at any time from 0 to 10 s, then each admitted call is either answered 2xx or refunded', async (_shape, route) => {
    const { id, key, account_id: accountId } = await gateway.newKey({ token: 'q' });
    const statuses = await Promise.all(CANCEL_AFTER_MS.map((ms) => callAndCancel(gateway.url + route(ms), key, ms)));
    const served = statuses.filter((s) => s === 200).length;
    expect(statuses.filter((s) => s !== 0 && s !== 200)).toEqual([]);
    // The ledger: the month's count holds the calls answered 2xx, and the history has every call, as 2xx or refunded.
    expect(await gateway.settledUsage(id, 'token', served)).toBe(served);
    expect(await gateway.settledHistory(accountId, 'token', CANCEL_AFTER_MS.length)).toMatchObject({ '2xx': served, refunded: CANCEL_AFTER_MS.length - served });
  });
});
