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

const open = async () => {
  gw = await buildGateway({ upstream: upstream.url, fastPath: true, start: Date.now(), env: { UPSTREAM_MAX_SOCKETS: '1', UPSTREAM_TIMEOUT_MS: '500' } });
  const { key } = await gw.stores.keyStore.create({ owner: 'line@example.com', subscriptions: { token: { plan: 'pro', status: 'active' } } });
  return key;
};

describe('calls waiting for a connection to a service', () => {
  it('when six calls share one connection to a service answering each in 200 ms, then every one is answered 200: a connection comes free well within the timeout, though the last waits 1 s', async () => {
    const key = await open();
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => request(gw.app).get(`/token/v1/delay/${200 + i}`).set('x-tollgate-key', key)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_100);
  });

  it('when the one connection is held by a service that does not answer, then a call waiting for it gets 504 no free connection within about the timeout, refunded', async () => {
    const key = await open();
    const holder = request(gw.app).get('/token/v1/silent').set('x-tollgate-key', key).then((r) => r.status);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    const queued = await request(gw.app).get('/token/v1/prices').set('x-tollgate-key', key);
    expect([queued.status, queued.body.error]).toEqual([504, { code: 'UPSTREAM_TIMEOUT', details: { reason: 'no free connection' } }]);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(await holder).toBe(504);
  });
});
