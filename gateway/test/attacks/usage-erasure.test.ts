import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';
import { rawCall } from '../support/raw-http';
import { startUsageReceiver } from '../support/usage-receiver';
import type { UsageReceiver } from '../support/usage-receiver';
import { startAttackGateway } from './attack-gateway';
import type { AttackGateway } from './attack-gateway';

// Issue 35, item 3: the usage event's id was the client's x-request-id, and consumers dedupe on
// source + id: 31 calls sent with one request id were counted as 1.

jest.setTimeout(120_000);

describe.each(['sqlite', 'redis'] as const)('metered usage with the %s store', (store) => {
  let gw: AttackGateway | undefined;
  let receiver: UsageReceiver | undefined;
  let upstream: EchoUpstream | undefined;
  afterEach(async () => {
    await gw?.stop();
    await Promise.all([receiver?.close(), upstream?.close()]);
  });

  it('when a client sends 31 calls with one x-request-id, then 31 usage events arrive with distinct ids, and deduping on source and id still counts 31', async () => {
    [receiver, upstream] = await Promise.all([startUsageReceiver(), startEchoUpstream()]);
    gw = await startAttackGateway(store, { TOKEN_URL: upstream.url, USAGE_EVENTS: 'http', USAGE_EVENTS_URL: receiver.url });
    const { key, account_id: accountId } = await gw.newKey({ token: 'q' });
    for (let i = 0; i < 31; i++) {
      const res = await rawCall(`${gw.url}/token/v1/prices?i=${i}`, { headers: { 'x-tollgate-key': key, 'x-request-id': 'erase-me' } });
      expect([res.status, res.headers['x-request-id']]).toEqual([200, 'erase-me']);
    }
    const deadline = Date.now() + 10_000;
    while (receiver.events.length < 31 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const counted = new Map(receiver.events.map((e) => [`${e.source} ${e.id}`, e]));
    expect(counted.size).toBe(31);
    for (const event of counted.values()) expect(event).toMatchObject({ subject: accountId, requestid: 'erase-me', data: { status: 200, outcome: 'served' } });
  });
});
