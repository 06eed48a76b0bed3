import path from 'node:path';
import fc from 'fast-check';
import request from 'supertest';
import { validateResponse } from '@tollgate/envelope';
import { Webhook } from 'standardwebhooks';
import { EVENT_ROUTES } from '../../src/events/event-routes';
import { RETRY_DELAYS_MS } from '../../src/domain/event-types';
import { endpointRecord } from '../data/event-store-contract';
import { eventually } from '../support/eventually';
import { useEventServers } from '../support/event-servers';
import { buildGateway } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';
import { startWebhookReceiver } from '../support/webhook-receiver';
import type { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(60_000);

const HEADER = 'x-tollgate-key';
const START = Date.parse('2026-03-10T12:00:00.000Z');
const ROUTES = Object.values(EVENT_ROUTES);
type Method = 'get' | 'post' | 'put' | 'delete';
const routeOf = (method: string, path: string) => ROUTES.find((r) => r.method === method && new RegExp(`^${r.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));

const servers = useEventServers();
const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});
const receiver = async (...args: Parameters<typeof startWebhookReceiver>): Promise<WebhookReceiver> => {
  const made = await startWebhookReceiver(...args);
  receivers.push(made);
  return made;
};

let files = 0;
describe.each(['sqlite', 'redis'] as const)('webhooks with the %s store', (kind) => {
  let gw: GatewayFixture;
  let file: string;
  const open = (env: Record<string, string> = {}, at = START, keepRedis = false) =>
    buildGateway({ upstream: servers.upstream.url, start: at, keepRedis, ...(kind === 'redis' ? { redisUrl: servers.redis.url } : { sqlitePath: file }), env: { SMTP_URL: servers.inbox.url, WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '500', ...env } });
  beforeEach(async () => {
    file = path.join(servers.dir, `store-${++files}.db`);
    gw = await open();
  });
  afterEach(() => gw.close());

  /** Calls an event route with a key and checks the answer against the route's documentation. */
  async function call(method: Method, path: string, key: string, body?: object) {
    const req = request(gw.app)[method](`/dashboard/v1${path}`).set(HEADER, key);
    const res = await (body === undefined ? req : req.send(body));
    const route = routeOf(method, `/dashboard/v1${path}`);
    expect(route).toBeDefined();
    expect(validateResponse(route!, res.status, res.body)).toEqual([]);
    return res;
  }
  const account = async (email = `owner-${++files}@example.com`) => {
    const { key, record } = await gw.stores.keyStore.create({ owner: email, subscriptions: { token: { plan: 'free', status: 'active' } } });
    return { key, accountId: record.account_id, keyId: record.id, email };
  };
  const addEndpoint = async (key: string, url: string, types = ['quota.threshold_reached', 'key.revoked']) => {
    const res = await call('post', '/webhooks', key, { url, types, description: 'test' });
    expect(res.status).toBe(201);
    return res.body.data as { id: string; secret: string };
  };
  const deliveries = async (key: string, endpointId: string) => (await call('get', `/webhooks/${endpointId}/deliveries`, key)).body.data as { id: string; state: string; attempts: number; last_status: number | null; message_id: string; last_error: string | null }[];

  it('when an endpoint is added and a test event sent, then its secret is shown once, the receiver verifies the signature with standardwebhooks, and the delivery is listed with status, latency and attempts', async () => {
    const { key } = await account();
    const hooks = await receiver();
    const made = await addEndpoint(key, hooks.url);
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    const listed = (await call('get', '/webhooks', key)).body.data;
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(made.secret);

    expect((await call('post', `/webhooks/${made.id}/test`, key)).status).toBe(202);
    await gw.events.worker.runOnce();
    expect(hooks.received).toHaveLength(1);
    const [body] = hooks.verified(made.secret) as { type: string; timestamp: string; data: Record<string, unknown> }[];
    expect(body).toMatchObject({ type: 'webhook.test', data: { endpoint_id: made.id } });
    expect(() => new Webhook('whsec_' + Buffer.from('another secret entirely').toString('base64')).verify(hooks.received[0]!.body, hooks.received[0]!.headers as Record<string, string>)).toThrow();
    const [delivery] = await deliveries(key, made.id);
    expect(delivery).toMatchObject({ state: 'delivered', attempts: 1, last_status: 204, message_id: hooks.received[0]!.headers['webhook-id'] });
  });

  it('when the receiver answers 500 twice then 200, then it is attempted at 5 s and 5 min with the same webhook-id, and delivered on the third attempt', async () => {
    const { key } = await account();
    const hooks = await receiver({ kind: 'fail-then-ok', failures: 2 });
    const made = await addEndpoint(key, hooks.url);
    await call('post', `/webhooks/${made.id}/test`, key);
    await gw.events.worker.runOnce();
    expect((await deliveries(key, made.id))[0]).toMatchObject({ state: 'pending', attempts: 1, last_status: 500 });
    gw.clock.advance(RETRY_DELAYS_MS[0]! - 1);
    await gw.events.worker.runOnce();
    expect(hooks.received).toHaveLength(1);
    gw.clock.advance(1);
    await gw.events.worker.runOnce();
    expect(hooks.received).toHaveLength(2);
    gw.clock.advance(RETRY_DELAYS_MS[1]!);
    await gw.events.worker.runOnce();
    expect(hooks.received.map((r) => r.answered)).toEqual([500, 500, 200]);
    expect(new Set(hooks.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(hooks.verified(made.secret)).toHaveLength(3);
    expect((await deliveries(key, made.id))[0]).toMatchObject({ state: 'delivered', attempts: 3, last_status: 200 });
  });

  it('when one endpoint never answers, then its attempt ends at the timeout without a status while another endpoint of the account gets its delivery at once', async () => {
    const { key } = await account();
    const slow = await receiver({ kind: 'hang' });
    const fast = await receiver();
    const hung = await addEndpoint(key, slow.url, ['key.revoked']);
    const quick = await addEndpoint(key, fast.url, ['key.revoked']);
    await call('post', `/webhooks/${hung.id}/test`, key);
    await call('post', `/webhooks/${quick.id}/test`, key);
    const running = gw.events.worker.runOnce();
    await eventually(async () => fast.received.length === 1, 'the other endpoint’s delivery');
    expect(slow.received).toHaveLength(1);
    // The other delivery arrived while the hung attempt was still waiting: within its 500 ms. (Read
    // from the store instead, a test process stalled past them found the attempt already ended.)
    expect(fast.received[0]!.atMs - slow.received[0]!.atMs).toBeLessThan(500);
    await running;
    expect((await deliveries(key, hung.id))[0]).toMatchObject({ state: 'pending', attempts: 1, last_status: null, last_error: 'no answer within 500 ms' });
    expect((await deliveries(key, quick.id))[0]).toMatchObject({ state: 'delivered' });
  });

  it('when the endpoint redirects to a private address, then the redirect is not followed: the attempt fails with 302 and the address gets nothing', async () => {
    const { key } = await account();
    const inside = await receiver();
    const redirecting = await receiver({ kind: 'redirect', location: `http://127.0.0.1:${inside.port}/metadata` });
    const made = await addEndpoint(key, redirecting.url);
    await call('post', `/webhooks/${made.id}/test`, key);
    await gw.events.worker.runOnce();
    expect(redirecting.received).toHaveLength(1);
    expect(inside.received).toHaveLength(0);
    expect((await deliveries(key, made.id))[0]).toMatchObject({ state: 'pending', last_status: 302, last_error: 'the endpoint answered 302 (redirects are not followed)' });
  });

  it('when the secret is rotated, then deliveries during the overlap verify with either secret, and after it with the new one only', async () => {
    const { key } = await account();
    const hooks = await receiver();
    const made = await addEndpoint(key, hooks.url);
    const rotated = (await call('post', `/webhooks/${made.id}/rotate-secret`, key, { overlap_hours: 1 })).body.data as { secret: string; previous_secret_until: string };
    expect(rotated.secret).not.toBe(made.secret);
    expect(rotated.previous_secret_until).toBe(new Date(gw.clock.now() + 3_600_000).toISOString());
    await call('post', `/webhooks/${made.id}/test`, key);
    await gw.events.worker.runOnce();
    expect(String(hooks.received[0]!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(hooks.verified(made.secret)).toHaveLength(1);
    expect(hooks.verified(rotated.secret)).toHaveLength(1);
    gw.clock.advance(3_600_001);
    await call('post', `/webhooks/${made.id}/test`, key);
    await gw.events.worker.runOnce();
    const last = hooks.received[1]!;
    expect(String(last.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(() => new Webhook(made.secret).verify(last.body, last.headers as Record<string, string>)).toThrow();
    expect(new Webhook(rotated.secret).verify(last.body, last.headers as Record<string, string>)).toMatchObject({ type: 'webhook.test' });
  });

  it('when a delivery is redelivered, then it is sent again now with the same webhook-id and body', async () => {
    const { key } = await account();
    const hooks = await receiver();
    const made = await addEndpoint(key, hooks.url);
    await call('post', `/webhooks/${made.id}/test`, key);
    await gw.events.worker.runOnce();
    const [first] = await deliveries(key, made.id);
    expect((await call('post', `/webhooks/${made.id}/deliveries/${first!.id}/redeliver`, key)).status).toBe(202);
    await gw.events.worker.runOnce();
    expect(hooks.received).toHaveLength(2);
    expect(hooks.received[1]!.headers['webhook-id']).toBe(hooks.received[0]!.headers['webhook-id']);
    expect(hooks.received[1]!.body).toBe(hooks.received[0]!.body);
    expect(await deliveries(key, made.id)).toHaveLength(2);
  });

  it('when every attempt fails for 3 days, then the endpoint is disabled, its owner mailed, and nothing more is sent until it is enabled', async () => {
    const { key, email } = await account();
    const hooks = await receiver({ kind: 'status', status: 503 });
    const made = await addEndpoint(key, hooks.url);
    const started = gw.clock.now();
    // A new event every 6 hours, each failing on every attempt, for just over 3 days.
    for (let hour = 0; hour <= 72; hour += 6) {
      gw.clock.set(started + hour * 3_600_000);
      await call('post', `/webhooks/${made.id}/test`, key);
      await gw.events.worker.runOnce();
      const endpoint = (await call('get', '/webhooks', key)).body.data[0];
      expect([hour, endpoint.enabled]).toEqual([hour, hour < 72]);
      if (hour === 0) expect(endpoint.failing_since).toBe(new Date(started).toISOString());
    }
    const endpoint = (await call('get', '/webhooks', key)).body.data[0];
    expect(endpoint).toMatchObject({ enabled: false, disabled_reason: 'every delivery to it failed for 3 days' });
    const mail = await servers.inbox.next(email);
    expect(mail.subject).toBe('Your Tollgate webhook endpoint was disabled');
    expect(mail.text).toContain(hooks.url);
    const sent = hooks.received.length;
    expect((await call('post', `/webhooks/${made.id}/test`, key)).status).toBe(409);
    expect((await call('put', `/webhooks/${made.id}`, key, { enabled: true })).body.data).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
    hooks.behave({ kind: 'ok' });
    await call('post', `/webhooks/${made.id}/test`, key);
    await gw.events.worker.runOnce();
    expect(hooks.received).toHaveLength(sent + 1);
  });

  it('when the gateway stops with deliveries queued, then a gateway opened on the same store delivers them (the queue is durable)', async () => {
    const { key } = await account();
    const hooks = await receiver();
    const made = await addEndpoint(key, hooks.url);
    await call('post', `/webhooks/${made.id}/test`, key);
    await gw.close();
    expect(hooks.received).toHaveLength(0);
    gw = await open({}, gw.clock.now(), true);
    await gw.events.worker.runOnce();
    expect(hooks.received).toHaveLength(1);
  });

  it('when endpoints are refused by address, then https is required, loopback, private and metadata addresses are refused at creation, and one whose name resolves privately is refused again at connect time', async () => {
    await gw.close();
    gw = await open({ WEBHOOKS_ALLOW_PRIVATE: 'false' });
    const { key, accountId } = await account();
    const refused = async (url: string, why: RegExp) => {
      const res = await call('post', '/webhooks', key, { url, types: ['key.revoked'] });
      expect([url, res.status]).toEqual([url, 400]);
      expect(res.body.message).toMatch(why);
    };
    await refused('http://hooks.example.com/x', /https/);
    // A local try is one setting away, and the refusals name it.
    await refused('http://127.0.0.1:9999/hooks', /^url must use https:\/\/; http is not accepted \(plain http:\/\/ to this machine is, on a gateway started with WEBHOOKS_ALLOW_PRIVATE=true: for local tries only\)$/);
    await refused('https://127.0.0.1/x', /127\.0\.0\.1, a loopback, private, link-local, metadata or other non-public address \(Loopback, 127\.0\.0\.0\/8\), which webhooks may not reach \(WEBHOOKS_ALLOW_PRIVATE=true on the gateway allows it: for local tries only\)$/);
    await refused('https://169.254.169.254/latest/meta-data', /169\.254\.169\.254/);
    await refused('https://[::ffff:10.0.0.1]/x', /private/);
    await refused('https://[fd00:ec2::254]/x', /private/);
    await refused('https://localhost/x', /resolves to/);
    await refused('https://user:pass@hooks.example.com/x', /user name or password/);
    await refused('not a url', /absolute https/);
    // Made while allowed (or DNS then said otherwise): the connection is refused when it is made.
    const hooks = await receiver();
    const stored = endpointRecord({ id: 'whe_000000000000000000000001', account_id: accountId, url: `https://localhost:${hooks.port}/hooks`, types: ['key.revoked'] });
    await gw.stores.eventStore.createEndpoint(stored, 10);
    await call('post', `/webhooks/${stored.id}/test`, key);
    await gw.events.worker.runOnce();
    expect(hooks.received).toHaveLength(0);
    expect((await deliveries(key, stored.id))[0]).toMatchObject({ state: 'pending', last_status: null, last_error: expect.stringMatching(/localhost resolves to (127\.0\.0\.1|::1), which webhooks may not reach \([^)]+\) \(WEBHOOKS_ALLOW_PRIVATE=true on the gateway allows it: for local tries only\)/) });
  });

  it('when hostile bodies and ids are sent to the event routes, then every answer is a 4xx in the envelope or a success, never a 5xx', async () => {
    const { key } = await account();
    const made = await addEndpoint(key, (await receiver()).url);
    const value = fc.oneof(fc.jsonValue(), fc.constantFrom('__proto__', 'constructor', 'a'.repeat(3000), 'http://127.0.0.1/', 'https://[::1]/', -1, 1e21, 101, 0));
    const body = fc.oneof(fc.dictionary(fc.constantFrom('url', 'types', 'description', 'enabled', 'mail', 'thresholds', 'overlap_hours', '__proto__', 'x'), value), fc.jsonValue());
    const target = fc.constantFrom<[Method, string]>(['post', '/webhooks'], ['put', `/webhooks/${made.id}`], ['put', '/events/settings'], ['post', `/webhooks/${made.id}/rotate-secret`], ['put', '/webhooks/whe_zz'], ['post', '/webhooks/%E0%A4%A/test'], ['post', `/webhooks/${made.id}/deliveries/dlv_1/redeliver`]);
    await fc.assert(
      fc.asyncProperty(target, body, async ([method, path], sent) => {
        const res = await request(gw.app)[method](`/dashboard/v1${path}`).set(HEADER, key).set('content-type', 'application/json').send(JSON.stringify(sent));
        return res.status < 500 && (res.status < 300 || res.body?.success === false);
      }),
      { numRuns: 150 },
    );
  });
});
