import request from 'supertest';
import { validateResponse } from '@tollgate/envelope';
import { DASHBOARD_KEY_ROUTES } from '../../src/dashboard/dashboard-key-routes';
import { EVENT_ROUTES } from '../../src/events/event-routes';
import type { GatewayFixture } from '../support/gateway-fixture';
import { ADMIN_TOKEN } from '../support/gateway-fixture';
import { startWebhookReceiver } from '../support/webhook-receiver';
import { STORE_KINDS, operatorKey, useAttackWorld } from './attack-target';

// Issue 35, item 2: 3,000 test events in 33 s made 3,000 deliveries kept 30 days, each retried up
// to 8 times to a URL the customer chose; nothing limited test events, redeliveries, the
// deliveries an account may have waiting, or the keys it creates and revokes (each revocation an
// event to every endpoint).

jest.setTimeout(120_000);

const world = useAttackWorld();
const HOUR = 3_600_000;

describe.each(STORE_KINDS)('limits on what an account makes the gateway send, with the %s store', (kind) => {
  let gw: GatewayFixture;
  afterEach(async () => {
    await gw?.close();
  });

  const open = async (env: Record<string, string> = {}) => {
    gw = await world.gateway(kind, { WEBHOOKS_ALLOW_PRIVATE: 'true', ...env });
    const { key, accountId } = await operatorKey(gw, `limits-${kind}-${Math.random().toString(36).slice(2)}@example.com`);
    return { key, accountId };
  };
  const documented = [...Object.values(EVENT_ROUTES), ...Object.values(DASHBOARD_KEY_ROUTES)];
  /** A dashboard call with the key, its answer checked against its route's documentation. */
  const call = async (key: string, method: 'get' | 'post' | 'delete', path: string, body?: object) => {
    const req = request(gw.app)[method](`/dashboard/v1${path}`).set('x-tollgate-key', key);
    const res = await (body === undefined ? req : req.send(body));
    const route = documented.find((r) => r.method === method && new RegExp(`^${r.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(`/dashboard/v1${path}`))!;
    expect(validateResponse(route, res.status, res.body)).toEqual([]);
    return res;
  };
  const endpoint = async (key: string, url = 'http://127.0.0.1:9/hooks'): Promise<string> => {
    const res = await call(key, 'post', '/webhooks', { url, types: ['key.revoked'] });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };

  it('when an account asks for a 61st test event or redelivery in an hour, then it is 429 naming the limit, with Retry-After to the hour’s end, and nothing is queued; the next hour it may again', async () => {
    const { key, accountId } = await open();
    const id = await endpoint(key);
    const first = await call(key, 'post', `/webhooks/${id}/test`);
    expect(first.status).toBe(202);
    for (let i = 1; i < 40; i++) expect((await call(key, 'post', `/webhooks/${id}/test`)).status).toBe(202);
    for (let i = 0; i < 20; i++) expect((await call(key, 'post', `/webhooks/${id}/deliveries/${first.body.data.id}/redeliver`)).status).toBe(202);
    const before = (await gw.stores.eventStore.listDeliveries(accountId, id)).length;

    const refused = await call(key, 'post', `/webhooks/${id}/test`);
    expect([refused.status, refused.body.error]).toEqual([429, { code: 'RATE_LIMITED', details: { limit: 'webhook_sends_per_hour', max: 60 } }]);
    expect(refused.body.message).toMatch(/^Your account may send at most 60 test events and redeliveries an hour\. Try again in \d+ seconds\.$/);
    expect(Number(refused.headers['retry-after'])).toBe(Math.ceil((Math.floor(gw.clock.now() / HOUR + 1) * HOUR - gw.clock.now()) / 1000));
    expect((await call(key, 'post', `/webhooks/${id}/deliveries/${first.body.data.id}/redeliver`)).status).toBe(429);
    expect(await gw.stores.eventStore.listDeliveries(accountId, id)).toHaveLength(before);

    gw.clock.advance(HOUR);
    expect((await call(key, 'post', `/webhooks/${id}/test`)).status).toBe(202);
  });

  it('when 30 test events are asked for at once past a cap of 10 deliveries waiting, then exactly 10 are queued and 20 refused with 429 naming the cap; an event then published is kept as failed with why, never dropped unseen; delivering makes room', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const { key, accountId } = await open({ WEBHOOK_PENDING_PER_ACCOUNT: '10', WEBHOOK_SENDS_PER_HOUR: '1000' });
      const id = await endpoint(key, receiver.url);
      const answers = await Promise.all(Array.from({ length: 30 }, () => call(key, 'post', `/webhooks/${id}/test`)));
      expect(answers.filter((r) => r.status === 202)).toHaveLength(10);
      const refused = answers.filter((r) => r.status !== 202);
      expect(refused.map((r) => [r.status, r.body.error])).toEqual(Array(20).fill([429, { code: 'RATE_LIMITED', details: { limit: 'pending_deliveries', max: 10 } }]));
      expect(refused[0]!.body.message).toBe('Your account has 10 webhook deliveries waiting, the most it may; new ones are refused until some are delivered or given up. Try again in a minute.');

      // A key revoked now is a key.revoked event for the endpoint: past the cap it is kept, failed, in the endpoint's deliveries.
      const spare = (await call(key, 'post', '/keys', { name: 'spare' })).body.data.id as string;
      expect((await call(key, 'delete', `/keys/${spare}`)).status).toBe(200);
      let listed: { type: string; state: string; last_error: string | null }[] = [];
      for (let i = 0; i < 50 && !listed.some((d) => d.type === 'key.revoked'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        listed = (await call(key, 'get', `/webhooks/${id}/deliveries`)).body.data;
      }
      expect(listed.find((d) => d.type === 'key.revoked')).toMatchObject({ state: 'failed', last_error: 'not sent: the account had 10 deliveries waiting, the most it may' });

      await gw.events.worker.runOnce();
      expect(receiver.received).toHaveLength(10);
      expect((await call(key, 'post', `/webhooks/${id}/test`)).status).toBe(202);
      expect((await gw.stores.eventStore.listDeliveries(accountId, id)).filter((d) => d.state === 'pending')).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('when an account creates and revokes keys past the day’s limits, then each is 429 naming its limit; a revoked key revoked again is not counted; the next day it may again, and the operator is never limited', async () => {
    const { key, accountId } = await open({ KEYS_CREATED_PER_DAY: '3', KEYS_REVOKED_PER_DAY: '2' });
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await call(key, 'post', '/keys', { name: `k${i}` });
      expect(res.status).toBe(201);
      made.push(res.body.data.id as string);
    }
    const tooMany = await call(key, 'post', '/keys', { name: 'k3' });
    expect([tooMany.status, tooMany.body.error]).toEqual([429, { code: 'RATE_LIMITED', details: { limit: 'keys_created_per_day', max: 3 } }]);
    expect(tooMany.body.message).toMatch(/^Your account may create at most 3 keys a day \(days are UTC\)\. Try again in \d+ seconds\.$/);
    expect(Number(tooMany.headers['retry-after'])).toBeGreaterThan(0);

    expect((await call(key, 'delete', `/keys/${made[0]}`)).status).toBe(200);
    expect((await call(key, 'delete', `/keys/${made[0]}`)).status).toBe(200);
    expect((await call(key, 'delete', `/keys/${made[1]}`)).status).toBe(200);
    const revokedTooMany = await call(key, 'delete', `/keys/${made[2]}`);
    expect([revokedTooMany.status, revokedTooMany.body.error]).toEqual([429, { code: 'RATE_LIMITED', details: { limit: 'keys_revoked_per_day', max: 2 } }]);
    expect((await gw.stores.accountStore.getKey(made[2]!))?.revoked_at).toBeNull();

    const byOperator = await request(gw.app).post(`/admin/v1/accounts/${accountId}/keys`).set('authorization', `Bearer ${ADMIN_TOKEN}`).send({ name: 'ops' });
    expect(byOperator.status).toBe(201);
    expect((await request(gw.app).delete(`/admin/v1/keys/${made[2]}`).set('authorization', `Bearer ${ADMIN_TOKEN}`)).status).toBe(200);

    gw.clock.advance(24 * HOUR);
    expect((await call(key, 'post', '/keys', { name: 'tomorrow' })).status).toBe(201);
  });
});
