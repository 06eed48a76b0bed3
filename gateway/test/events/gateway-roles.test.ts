import { useCloseAfterEach } from '../support/close-after-each';
import { eventually } from '../support/eventually';
import { startGatewayProcess } from '../support/gateway-process';
import type { GatewayProcess } from '../support/gateway-process';
import { ADMIN_TOKEN, startRedisGateways } from '../support/quota-gateways';
import type { QuotaGateways } from '../support/quota-gateways';
import { rawCall } from '../support/raw-http';
import { startWebhookReceiver } from '../support/webhook-receiver';

// Issue 35, item 1: background work in processes of its own (GATEWAY_ROLE=worker) beside gateways
// that serve calls (GATEWAY_ROLE=api), on one Redis.

jest.setTimeout(120_000);

const closeAfterEach = useCloseAfterEach();

/** The background loops a gateway's /readyz names. */
async function loopsOf(gateway: GatewayProcess): Promise<Record<string, { last_success_at: string | null; stale: boolean }>> {
  const res = await rawCall(`${gateway.url}/readyz`);
  expect(res.status).toBe(200);
  return (res.json!.data as { background: Record<string, { last_success_at: string | null; stale: boolean }> }).background;
}

describe('an API gateway and a worker on one Redis', () => {
  let env: QuotaGateways;
  beforeEach(async () => {
    env = await startRedisGateways({ count: 2, quota: 1_000_000, env: { WEBHOOKS_ALLOW_PRIVATE: 'true' }, each: (i) => ({ GATEWAY_ROLE: i === 0 ? 'api' : 'worker' }) });
    closeAfterEach(env, (e) => e.stop());
  });

  it('when a customer sends a test event through the API gateway, then the worker delivers it; each runs its own loops; the worker serves no calls', async () => {
    const [api, worker] = env.gateways as [GatewayProcess, GatewayProcess];
    const hooks = await startWebhookReceiver();
    closeAfterEach(hooks, (h) => h.close());
    const { key } = await env.admin<{ key: string }>('POST', '/admin/v1/keys', { owner: 'roles@example.com', subscriptions: { token: 'q' } });
    const dashboard = (method: string, route: string, body?: unknown) =>
      rawCall(`${api.url}/dashboard/v1${route}`, { method, headers: { 'x-tollgate-key': key, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const made = await dashboard('POST', '/webhooks', { url: hooks.url, types: ['key.revoked'] });
    expect(made.status).toBe(201);
    const endpointId = (made.json!.data as { id: string }).id;

    expect((await dashboard('POST', `/webhooks/${endpointId}/test`)).status).toBe(202);
    await eventually(async () => hooks.received.length === 1, 'the test event, delivered by the worker');
    expect(JSON.parse(hooks.received[0]!.body)).toMatchObject({ type: 'webhook.test' });

    expect((await rawCall(`${api.url}/token/v1/prices`, { headers: { 'x-tollgate-key': key } })).status).toBe(200);
    const refused = await rawCall(`${worker.url}/token/v1/prices`, { headers: { 'x-tollgate-key': key } });
    expect(refused.status).toBe(404);
    expect(refused.json!.message).toContain('GATEWAY_ROLE=worker');

    const apiLoops = await loopsOf(api);
    const workerLoops = await loopsOf(worker);
    expect(Object.keys(apiLoops).sort()).toEqual(['quota_alerts', 'quota_thresholds', 'usage_history']);
    expect(Object.keys(workerLoops).sort()).toEqual(['account_sweeps', 'webhook_delivery']);
    expect(workerLoops.webhook_delivery).toMatchObject({ stale: false });
    expect(workerLoops.webhook_delivery!.last_success_at).not.toBeNull();

    const metrics = await rawCall(`${worker.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(metrics.status).toBe(200);
    expect(metrics.body).toMatch(/^tollgate_background_runs_total\{loop="webhook_delivery",outcome="ok"\} [1-9]\d*$/m);
    expect(metrics.body).toMatch(/^tollgate_background_last_success_seconds\{loop="webhook_delivery"\} \d+/m);
  });

  it('when the worker is killed, then the API gateway goes on serving and queueing, and a new worker delivers what was queued', async () => {
    const [api, worker] = env.gateways as [GatewayProcess, GatewayProcess];
    const hooks = await startWebhookReceiver();
    closeAfterEach(hooks, (h) => h.close());
    const { key } = await env.admin<{ key: string }>('POST', '/admin/v1/keys', { owner: 'roles@example.com', subscriptions: { token: 'q' } });
    const headers = { 'x-tollgate-key': key, 'content-type': 'application/json' };
    const made = await rawCall(`${api.url}/dashboard/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: hooks.url, types: ['key.revoked'] }) });
    const endpointId = (made.json!.data as { id: string }).id;

    await worker.kill();
    expect((await rawCall(`${api.url}/token/v1/prices`, { headers })).status).toBe(200);
    expect((await rawCall(`${api.url}/dashboard/v1/webhooks/${endpointId}/test`, { method: 'POST', headers })).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(hooks.received).toHaveLength(0);

    const next = await startGatewayProcess({ ...env.gatewayEnv, GATEWAY_ROLE: 'worker' });
    closeAfterEach(next, (n) => n.stop());
    await eventually(async () => hooks.received.length === 1, 'the queued test event, delivered by the new worker');
  });
});
