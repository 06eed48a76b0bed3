import request from 'supertest';
import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';
import { buildGateway } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';

// Issue 35, item 16: hostile-http's 64 clients on 2 connections to a Python service got two 504s
// "no free connection" on a loaded machine. A call waiting for a connection was given up once it
// had waited UPSTREAM_TIMEOUT_MS, however fast connections came free and went to the calls before
// it: a service slowed by load, answering steadily, had the back of its line refused.

jest.setTimeout(30_000);

let upstream: EchoUpstream;
let gw: GatewayFixture;
beforeAll(async () => {
  upstream = await startEchoUpstream();
});
afterAll(() => upstream.close());
afterEach(() => gw?.close());

const open = async (timeoutMs = 500) => {
  gw = await buildGateway({ upstream: upstream.url, fastPath: true, start: Date.now(), env: { UPSTREAM_MAX_SOCKETS: '1', UPSTREAM_TIMEOUT_MS: String(timeoutMs) } });
  const { key } = await gw.stores.keyStore.create({ owner: 'line@example.com', subscriptions: { token: { plan: 'pro', status: 'active' } } });
  return key;
};

describe('calls waiting for a connection to a service', () => {
  // 600 ms answers under a 1,500 ms timeout: the line outlasts the timeout 2.4 times over, and each
  // connection comes free with 900 ms to spare (200 under 500 ms had 300, which a test process
  // stalled under a load of 20 used up: the last three calls were 504).
  it('when six calls share one connection to a service answering each in 600 ms, then every one is answered 200: a connection comes free well within the 1.5 s timeout, though the last waits 3 s', async () => {
    const key = await open(1_500);
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => request(gw.app).get(`/token/v1/delay/${600 + i}`).set('x-tollgate-key', key)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_600);
  });

  // The timeout 1.5 s, so "about the timeout" (under 4.5 s) stays far from the cap of four times it
  // (6 s) that the call would reach if the rule were broken: with 500 ms and a bound of 1.5 s, a
  // stall of 1.3 s under a load of 20 read as a failure (the CI rehearsal of c9c3ce2). The holder
  // keeps its connection busy with a body that never pauses for the timeout: a silent holder's own
  // timeout, started before the waiting call's, freed the connection for it first whenever the test
  // process stalled between the two (200 instead of 504 beside two busy loops, 2026-11-29).
  it('when the one connection is held by a service busy with another call, then a call waiting for it gets 504 no free connection within about the timeout, refunded', async () => {
    const key = await open(1_500);
    const holder = request(gw.app).get('/token/v1/drip/5000').set('x-tollgate-key', key).then((r) => r.status);
    // Until the service has the holder's call (a fixed 100 ms was once too short on a busy machine).
    const before = upstream.seen.length;
    while (!upstream.seen.slice(before).some((call) => call.url === '/v1/drip/5000')) await new Promise((resolve) => setTimeout(resolve, 10));
    const started = Date.now();
    const queued = await request(gw.app).get('/token/v1/prices').set('x-tollgate-key', key);
    expect([queued.status, queued.body.error]).toEqual([504, { code: 'UPSTREAM_TIMEOUT', details: { reason: 'no free connection' } }]);
    expect(Date.now() - started).toBeLessThan(4_500);
    expect(await holder).toBe(200);
  });
});
