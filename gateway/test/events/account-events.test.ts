import path from 'node:path';
import request from 'supertest';
import { eventually } from '../support/eventually';
import { useEventServers } from '../support/event-servers';
import { buildGateway } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';
import { startWebhookReceiver } from '../support/webhook-receiver';
import type { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(60_000);

const HEADER = 'x-tollgate-key';
// The token API's free plan in the test table: 5 calls a month, so 80% is the 4th call.
const START = Date.parse('2026-03-10T12:00:00.000Z');
const DAY = 86_400_000;
type Event = { type: string; timestamp: string; data: Record<string, unknown> };

const servers = useEventServers();

let made = 0;
describe.each(['sqlite', 'redis'] as const)('events told to accounts, with the %s store', (kind) => {
  let gw: GatewayFixture;
  let hooks: WebhookReceiver;
  beforeEach(async () => {
    hooks = await startWebhookReceiver();
    gw = await buildGateway({ upstream: servers.upstream.url, start: START, ...(kind === 'redis' ? { redisUrl: servers.redis.url } : { sqlitePath: path.join(servers.dir, `s-${++made}.db`) }), env: { SMTP_URL: servers.inbox.url, WEBHOOKS_ALLOW_PRIVATE: 'true' } });
  });
  afterEach(async () => {
    await gw.close();
    await hooks.close();
  });

  /** An account on the free token plan, with an endpoint for every event type. */
  async function account(expiresAtMs?: number) {
    const email = `events-${++made}@example.com`;
    const { key, record } = await gw.stores.keyStore.create({ owner: email, subscriptions: { token: { plan: 'free', status: 'active' } } });
    const accountId = record.account_id;
    let keyId = record.id;
    let secret = key;
    if (expiresAtMs !== undefined) {
      const made = (await gw.stores.accountStore.createKey(accountId, { name: 'expiring', expiresAtMs }))!;
      keyId = made.record.id;
      secret = made.key;
    }
    const types = ['quota.threshold_reached', 'quota.reset', 'key.expiring', 'key.revoked', 'subscription.changed', 'payment.failed', 'payment.recovered', 'subscription.canceled'];
    const endpoint = await dash('post', '/webhooks', secret, { url: hooks.url, types });
    expect(endpoint.status).toBe(201);
    return { email, accountId, keyId, key: secret, endpointSecret: endpoint.body.data.secret as string };
  }
  const dash = (method: 'get' | 'post' | 'put' | 'delete', p: string, key: string, body?: object) => {
    const req = request(gw.app)[method](`/dashboard/v1${p}`).set(HEADER, key);
    return body === undefined ? req : req.send(body);
  };
  const calls = async (key: string, n: number): Promise<number[]> => {
    const statuses: number[] = [];
    for (let i = 0; i < n; i++) statuses.push((await request(gw.app).get('/token/v1/prices').set(HEADER, key)).status);
    return statuses;
  };
  /** Claims what was reached, delivers what is queued, and returns what the receiver verified. */
  const told = async (secret: string): Promise<Event[]> => {
    await gw.events.flushAlerts();
    await gw.events.worker.runOnce();
    return hooks.verified(secret) as Event[];
  };

  it('when an account crosses 80% and 100% of its month, then each threshold is told once, by webhook and by mail, with the API, plan, quota, used, threshold and key id', async () => {
    const a = await account();
    expect(await calls(a.key, 3)).toEqual([200, 200, 200]);
    expect(await told(a.endpointSecret)).toEqual([]);
    expect(await calls(a.key, 1)).toEqual([200]);
    const [eighty] = await told(a.endpointSecret);
    expect(eighty).toMatchObject({ type: 'quota.threshold_reached', data: { account_id: a.accountId, api: 'token', plan: 'free', quota: 5, used: 4, threshold: 80, month: '2026-03', resets_at: '2026-04-01T00:00:00.000Z', key_id: a.keyId } });
    expect(JSON.stringify(eighty)).not.toContain(a.key);
    expect(await calls(a.key, 3)).toEqual([200, 429, 429]);
    const events = await told(a.endpointSecret);
    expect(events.map((e) => e.data.threshold)).toEqual([80, 100]);
    expect((await servers.inbox.next(a.email, 1)).subject).toBe('Your Tollgate token quota is 100% used');
    expect(servers.inbox.to(a.email).map((m) => m.subject)).toEqual(['Your Tollgate token quota is 80% used', 'Your Tollgate token quota is 100% used']);

    // The next month, the thresholds are told again.
    gw.clock.set(Date.parse('2026-04-02T00:00:00.000Z'));
    await calls(a.key, 4);
    expect((await told(a.endpointSecret)).map((e) => `${e.data.month} ${e.data.threshold}`)).toEqual(['2026-03 80', '2026-03 100', '2026-04 80']);
  });

  it('when an account sets its own thresholds and switches the mail off, then it is told at those, by webhook only', async () => {
    const a = await account();
    const saved = await dash('put', '/events/settings', a.key, { thresholds: { token: [60, 40] }, mail: { 'quota.threshold_reached': false } });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ thresholds: { token: [40, 60], burger: [80, 100] }, mail: { 'quota.threshold_reached': false, 'key.revoked': true, 'quota.reset': false }, custom_thresholds: ['token'] });
    expect((await dash('put', '/events/settings', a.key, { thresholds: { nope: [50] } })).status).toBe(400);
    expect((await dash('put', '/events/settings', a.key, { thresholds: { token: [0] } })).status).toBe(400);
    await calls(a.key, 3);
    expect((await told(a.endpointSecret)).map((e) => e.data.threshold).sort()).toEqual([40, 60]);
    expect(servers.inbox.count(a.email)).toBe(0);
  });

  it('when a key is revoked, or its subscription changed, then the account is told once each', async () => {
    const a = await account();
    const second = (await dash('post', '/keys', a.key, { name: 'ci' })).body.data as { id: string };
    expect((await dash('delete', `/keys/${second.id}`, a.key)).status).toBe(200);
    await eventually(async () => (await told(a.endpointSecret)).some((e) => e.type === 'key.revoked'), 'key.revoked');
    expect((await dash('put', '/subscriptions/token', a.key, { plan: 'slow' })).status).toBe(200);
    await eventually(async () => (await told(a.endpointSecret)).some((e) => e.type === 'subscription.changed'), 'subscription.changed');
    const events = await told(a.endpointSecret);
    expect(events.map((e) => e.type)).toEqual(['key.revoked', 'subscription.changed']);
    expect(events[0]!.data).toMatchObject({ key_id: second.id, key_name: 'ci' });
    expect(events[1]!.data).toMatchObject({ api: 'token', plan: 'slow', status: 'active' });
    await eventually(async () => servers.inbox.count(a.email) === 2, 'both mails');
    expect(servers.inbox.to(a.email).map((m) => m.subject)).toEqual(['Tollgate: the key ci was revoked', 'Your Tollgate token subscription changed']);
  });

  it('when a key is 7 days and then 1 day from its expiry, then the account is told once at each, and a month that begins is told to those who asked', async () => {
    const a = await account(START + 6 * DAY);
    await dash('put', '/events/settings', a.key, { mail: { 'quota.reset': true } });
    await gw.events.runSweeps();
    await gw.events.runSweeps();
    gw.clock.advance(5.5 * DAY);
    await gw.events.runSweeps();
    await gw.events.runSweeps();
    gw.clock.set(Date.parse('2026-04-01T03:00:00.000Z'));
    await gw.events.runSweeps();
    await gw.events.runSweeps();
    const events = await told(a.endpointSecret);
    expect(events.map((e) => `${e.type} ${e.data.days ?? e.data.month}`)).toEqual(['key.expiring 7', 'key.expiring 1', 'quota.reset 2026-04']);
    expect(events[0]!.data).toMatchObject({ key_id: a.keyId, key_name: 'expiring', expires_at: new Date(START + 6 * DAY).toISOString() });
    expect(servers.inbox.to(a.email).map((m) => m.subject)).toEqual(['Tollgate: the key expiring expires in 7 days', 'Tollgate: the key expiring expires in 1 day', 'Your Tollgate token quota has reset']);
  });

  it('when billing says a payment failed, came through or a paid plan ended, then the account’s endpoints are told (billing mails those itself)', async () => {
    const a = await account();
    gw.events.billingNotice({ type: 'payment.failed', accountId: a.accountId, api: 'token', plan: 'pro', data: { grace_until: '2026-03-17T00:00:00.000Z' } });
    gw.events.billingNotice({ type: 'payment.recovered', accountId: a.accountId, api: 'token', plan: 'pro' });
    gw.events.billingNotice({ type: 'subscription.canceled', accountId: a.accountId, api: 'token', plan: 'pro', data: { reason: 'payment' } });
    await eventually(async () => (await told(a.endpointSecret)).length === 3, 'three billing events');
    expect((await told(a.endpointSecret)).map((e) => e.type).sort()).toEqual(['payment.failed', 'payment.recovered', 'subscription.canceled']);
    await eventually(async () => servers.inbox.count(a.email) === 1, 'the cancellation mail');
    expect(servers.inbox.to(a.email)[0]!.subject).toBe('Your Tollgate token pro plan has ended');
  });

  it('when an account switches the payment mails on or off, then the settings say billing always mails them, switching them off is refused, and the events room never mails them a second time', async () => {
    const a = await account();
    const on = await dash('put', '/events/settings', a.key, { mail: { 'payment.failed': true, 'payment.recovered': true } });
    expect(on.status).toBe(200);
    expect(on.body.data).toMatchObject({ always_mailed: ['payment.failed', 'payment.recovered'], mail: { 'payment.failed': true, 'payment.recovered': true } });
    const off = await dash('put', '/events/settings', a.key, { mail: { 'payment.failed': false } });
    expect(off.status).toBe(400);
    expect(off.body.message).toContain('always mailed');
    expect((await dash('get', '/events/settings', a.key)).body.data.mail['payment.failed']).toBe(true);
    // Billing mails these itself (billing-mail.ts); the event is for webhooks only, whatever was asked.
    await gw.events.publish({ accountId: a.accountId, type: 'payment.failed', data: { api: 'token', plan: 'pro', grace_until: '2026-03-17T00:00:00.000Z' } });
    await gw.events.publish({ accountId: a.accountId, type: 'payment.recovered', data: { api: 'token', plan: 'pro' } });
    expect(servers.inbox.count(a.email)).toBe(0);
    expect((await told(a.endpointSecret)).map((e) => e.type).sort()).toEqual(['payment.failed', 'payment.recovered']);
  });
});
