import { rawCall } from '../support/raw-http';
import { redisKeys } from '../../src/data/redis/redis-keys';
import { eventually } from '../support/eventually';
import { insideOneMonth, startClusterGateways, startRedisGateways, tally } from '../support/quota-gateways';
import type { QuotaGateways } from '../support/quota-gateways';
import { startWebhookReceiver } from '../support/webhook-receiver';
import type { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(180_000);

const Q = 400;
type Event = { type: string; data: { threshold: number; used: number; quota: number } };

describe.each([
  ['one Redis', () => startRedisGateways({ count: 2, quota: Q, env: { WEBHOOKS_ALLOW_PRIVATE: 'true', REDIS_TIMEOUT_MS: '5000' } })],
  ['a Redis Cluster of three masters', () => startClusterGateways({ count: 2, quota: Q, env: { WEBHOOKS_ALLOW_PRIVATE: 'true', REDIS_TIMEOUT_MS: '5000' } })],
] as const)('quota alerts with two gateways on %s', (_name, start) => {
  let env: QuotaGateways;
  let hooks: WebhookReceiver;
  beforeAll(async () => {
    [env, hooks] = await Promise.all([start(), startWebhookReceiver()]);
  });
  afterAll(async () => {
    await hooks?.close();
    await env?.stop();
  });

  it(`when both gateways hammer one account across 80% and 100% of a ${Q}-call quota, then each threshold is told exactly once`, async () => {
    await insideOneMonth(60_000);
    const { accountId, keys } = await env.account();
    const made = await rawCall(`${env.gateways[1]!.url}/dashboard/v1/webhooks`, {
      method: 'POST',
      headers: { 'x-tollgate-key': keys[0]!.key, 'content-type': 'application/json' },
      body: JSON.stringify({ url: hooks.url, types: ['quota.threshold_reached'] }),
    });
    expect(made.status).toBe(201);
    const secret = (made.json!.data as { secret: string }).secret;

    const results = await env.load(keys.map((k) => k.key), Q + Q / 4);
    expect(tally(results)).toEqual({ '200': Q, '429 QUOTA_EXCEEDED': Q / 4 });
    const queue = await env.nodeFor(redisKeys.deliveryQueue());
    await eventually(async () => hooks.received.length >= 2 && (await queue.zcard(redisKeys.deliveryQueue())) === 0, 'both thresholds delivered');
    // A graceful stop claims what each gateway still held: anything it held was claimed already.
    await Promise.all(env.gateways.map((g) => g.stop()));
    expect(await queue.zcard(redisKeys.deliveryQueue())).toBe(0);
    const events = hooks.verified(secret) as Event[];
    expect(events.map((e) => e.data.threshold).sort((a, b) => a - b)).toEqual([80, 100]);
    for (const e of events) expect(e.data).toMatchObject({ quota: Q, account_id: accountId });
    expect(events.find((e) => e.data.threshold === 80)!.data.used).toBeGreaterThanOrEqual(0.8 * Q);
  });
});
