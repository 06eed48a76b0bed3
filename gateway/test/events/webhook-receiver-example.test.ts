import request from 'supertest';
import { startWebhookReceiver } from '../../examples/webhook-receiver/receive-webhooks';
import type { Receiver } from '../../examples/webhook-receiver/receive-webhooks';
import { freePort } from '@tollgate/envelope/test/processes';
import { useEventServers } from '../support/event-servers';
import { buildGateway } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';

jest.setTimeout(30_000);

// `pnpm webhooks:listen`: what a person trying webhooks on the demo runs (examples/webhook-receiver).
const servers = useEventServers();
let gw: GatewayFixture;
let receiver: Receiver | undefined;
const printed: string[] = [];

beforeEach(async () => {
  printed.length = 0;
  gw = await buildGateway({ upstream: servers.upstream.url, redisUrl: servers.redis.url, start: Date.now(), env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } });
});
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
  await gw.close();
});

async function endpointAt(url: string): Promise<{ key: string; id: string; secret: string }> {
  const { key } = await gw.stores.keyStore.create({ owner: 'hooks@example.com', subscriptions: { token: { plan: 'free', status: 'active' } } });
  const made = await request(gw.app).post('/dashboard/v1/webhooks').set('x-tollgate-key', key).send({ url, types: ['key.revoked'] });
  expect(made.status).toBe(201);
  return { key, id: made.body.data.id, secret: made.body.data.secret };
}

describe('the local webhook receiver (pnpm webhooks:listen)', () => {
  it('when a test event is sent to a loopback endpoint of a gateway that allows them, then it prints the event and that its signature checks out with the secret', async () => {
    const port = await freePort();
    const { key, id, secret } = await endpointAt(`http://127.0.0.1:${port}/`);
    receiver = await startWebhookReceiver({ port, secret, print: (line) => printed.push(line) });
    expect((await request(gw.app).post(`/dashboard/v1/webhooks/${id}/test`).set('x-tollgate-key', key)).status).toBe(202);
    await gw.events.worker.runOnce();
    expect(printed[0]).toMatch(/^\d\d:\d\d:\d\d {2}POST \/ {2}webhook\.test {2}msg_\S+ {2}signature ok$/);
    expect(printed.join('\n')).toContain(`"endpoint_id": "${id}"`);
    const deliveries = await request(gw.app).get(`/dashboard/v1/webhooks/${id}/deliveries`).set('x-tollgate-key', key);
    expect(deliveries.body.data[0]).toMatchObject({ state: 'delivered', last_status: 204 });
  });

  it('when a delivery is signed with another secret, then it says the signature does not check out and answers 401; without a secret it prints the event unverified', async () => {
    const port = await freePort();
    const { key, id } = await endpointAt(`http://127.0.0.1:${port}/`);
    receiver = await startWebhookReceiver({ port, secret: `whsec_${Buffer.from('not the endpoint secret at all').toString('base64')}`, print: (line) => printed.push(line) });
    await request(gw.app).post(`/dashboard/v1/webhooks/${id}/test`).set('x-tollgate-key', key);
    await gw.events.worker.runOnce();
    expect(printed[0]).toMatch(/webhook\.test {2}msg_\S+ {2}signature does not check out \(.+\): answered 401$/);
    expect((await request(gw.app).get(`/dashboard/v1/webhooks/${id}/deliveries`).set('x-tollgate-key', key)).body.data[0]).toMatchObject({ last_status: 401 });

    await receiver.close();
    printed.length = 0;
    receiver = await startWebhookReceiver({ port, print: (line) => printed.push(line) });
    const sent = await fetch(receiver.url, { method: 'POST', body: '{"type":"webhook.test"}' });
    expect(sent.status).toBe(204);
    expect(printed[0]).toMatch(/webhook\.test {2}\(no webhook-id\) {2}not verified: start the receiver with --secret whsec_… \(shown once when the endpoint is added\)$/);
  });
});
