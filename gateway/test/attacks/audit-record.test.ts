import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStripeLocal } from '@tollgate/stripe-local';
import type { StripeLocal } from '@tollgate/stripe-local';
import { createStripeProvider } from '../../src/billing/stripe/stripe-provider';
import type { AuditEntry } from '../../src/data/audit-log';
import { eventually } from '../support/eventually';
import { runGatewayScript } from '../support/gateway-process';
import { rawCall } from '../support/raw-http';
import type { RawAnswer } from '../support/raw-http';
import { signInCode } from '../support/smtp-inbox';
import { startAttackGateway } from './attack-gateway';
import type { AttackGateway } from './attack-gateway';
import { PAID_PLANS, STORE_KINDS, useAttackWorld } from './attack-target';

// Issue 35, item 7: plan changes made by payments left no audit entry (billing wrote around the
// audited store), nor did webhook endpoint changes, secret rotations, console sign-ins and admin-token
// rotations. Run through main.ts, as the gateway runs: a process of its own.

jest.setTimeout(180_000);

const CUSTOMER_NETWORK = '10.0.0.1';
const OPERATOR = 'ops@example.com';
const OPERATOR_NETWORK = '198.51.100.20';

const world = useAttackWorld();
let local: StripeLocal;
let gone: Server;
let goneUrl: string;
beforeAll(async () => {
  local = createStripeLocal();
  await local.listen(0);
  // An endpoint that answers 410 Gone: the gateway turns it off on the first attempt.
  gone = createServer((_req, res) => res.writeHead(410).end());
  await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
  goneUrl = `http://127.0.0.1:${(gone.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await local.close();
  await new Promise((resolve) => gone.close(resolve));
});

describe.each(STORE_KINDS)('every change on the record, through main.ts, with the %s store', (kind) => {
  let gw: AttackGateway | undefined;
  afterEach(async () => {
    await gw?.stop();
    gw = undefined;
  });

  async function start(): Promise<AttackGateway> {
    const apiBase = new URL(local.url);
    await createStripeProvider({ secretKey: 'sk_test_tollgate_attacks', apiBase: { host: apiBase.hostname, port: Number(apiBase.port), protocol: 'http' }, publicUrl: 'https://gateway.example.com', graceDays: 7, reconcileSeconds: 3600, testClocks: false, automaticTax: false }, PAID_PLANS, Date.now).syncCatalogue(PAID_PLANS, 'https://gateway.example.com/billing/webhook');
    gw = await startAttackGateway(
      kind,
      {
        TOKEN_URL: world.upstream.url,
        SMTP_URL: world.inbox.url,
        TRUSTED_PROXIES: 'loopback',
        PUBLIC_URL: 'https://gateway.example.com',
        OPERATOR_EMAILS: OPERATOR,
        STRIPE_SECRET_KEY: 'sk_test_tollgate_attacks',
        STRIPE_API_BASE: local.url,
        WEBHOOKS_ALLOW_PRIVATE: 'true',
      },
      { plans: PAID_PLANS, tokenFile: true },
    );
    return gw;
  }

  /** A JSON call from `network`, with a cookie and CSRF token when given. */
  const call = (method: string, route: string, network: string, options: { cookie?: string; csrf?: string; body?: unknown } = {}): Promise<RawAnswer> =>
    rawCall(`${gw!.url}${route}`, {
      method,
      headers: { 'x-forwarded-for': network, 'content-type': 'application/json', ...(options.cookie ? { cookie: options.cookie } : {}), ...(options.csrf ? { 'x-csrf-token': options.csrf } : {}) },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  const cookieOf = (res: RawAnswer): string => String(res.headers['set-cookie']).split(';')[0]!;
  /** The newest mail to `email` after `before` of them: its code and the token of its link. */
  const mailed = async (email: string, before: number): Promise<{ code: string; token: string }> => {
    const { code, link } = signInCode(await world.inbox.next(email, before));
    return { code, token: new URL(link!).searchParams.get('token')! };
  };
  /** Every entry of the audit log, oldest first, as the admin API exports it. */
  const entries = async (): Promise<AuditEntry[]> => {
    const res = await rawCall(`${gw!.url}/admin/v1/audit/export`, { headers: { authorization: `Bearer ${gw!.adminToken()}` } });
    return res.body.split('\n').filter(Boolean).map((line) => JSON.parse(line) as AuditEntry);
  };
  const summary = (list: AuditEntry[]) => list.map((e) => [e.action, e.actor.type, e.actor.id, e.actor.via]);

  it('when a customer signs in both ways, changes webhooks and event settings, ends a session and pays for a plan, and the system turns an endpoint off, then each change is one entry, by whom it was made', async () => {
    await start();
    const email = `customer-${kind}@example.com`;
    const sessionBy = async (how: 'code' | 'link') => {
      const before = world.inbox.count(email);
      expect((await call('POST', '/dashboard/v1/sign-in', CUSTOMER_NETWORK, { body: { email } })).status).toBe(202);
      const { code, token } = await mailed(email, before);
      const res = how === 'code' ? await call('POST', '/dashboard/v1/sign-in/verify', CUSTOMER_NETWORK, { body: { email, code } }) : await call('POST', '/dashboard/v1/sign-in/link', CUSTOMER_NETWORK, { body: { email, token } });
      expect(res.status).toBe(200);
      return { cookie: cookieOf(res), csrf: (res.json!.data as { csrf_token: string }).csrf_token, accountId: (res.json!.data as { account: { id: string } }).account.id };
    };
    const first = await sessionBy('code');
    const session = await sessionBy('link');
    const accountId = session.accountId;
    const as = { cookie: session.cookie, csrf: session.csrf };

    // Webhooks and event settings.
    const made = await call('POST', '/dashboard/v1/webhooks', CUSTOMER_NETWORK, { ...as, body: { url: 'https://127.0.0.1:9/hook', types: ['key.revoked'] } });
    expect(made.status).toBe(201);
    const endpoint = (made.json!.data as { id: string }).id;
    expect((await call('PUT', `/dashboard/v1/webhooks/${endpoint}`, CUSTOMER_NETWORK, { ...as, body: { description: 'staging', enabled: false } })).status).toBe(200);
    expect((await call('POST', `/dashboard/v1/webhooks/${endpoint}/rotate-secret`, CUSTOMER_NETWORK, { ...as, body: {} })).status).toBe(200);
    expect((await call('DELETE', `/dashboard/v1/webhooks/${endpoint}`, CUSTOMER_NETWORK, as)).status).toBe(200);
    expect((await call('PUT', '/dashboard/v1/events/settings', CUSTOMER_NETWORK, { ...as, body: { thresholds: { token: [50, 90] } } })).status).toBe(200);
    // The first session, ended from the second.
    expect((await call('DELETE', '/dashboard/v1/account/sessions', CUSTOMER_NETWORK, as)).status).toBe(200);
    expect((await call('GET', '/dashboard/v1/session', CUSTOMER_NETWORK, { cookie: first.cookie })).status).toBe(401);

    // A payment: Checkout paid at Stripe, read back by the return page (twice, as a page polls).
    const checkout = await call('POST', '/dashboard/v1/billing/checkout', CUSTOMER_NETWORK, { ...as, body: { api: 'token', plan: 'pro' } });
    expect(checkout.status).toBe(200);
    const sessionId = (checkout.json!.data as { session_id: string }).session_id;
    local.completeCheckout(sessionId, { number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' });
    for (let i = 0; i < 2; i++) {
      const read = await call('GET', `/dashboard/v1/billing/checkout/${sessionId}`, CUSTOMER_NETWORK, as);
      // The status and the error with the plan: a refusal says why.
      expect([read.status, (read.json!.data as { subscription?: { plan: string } } | null)?.subscription?.plan ?? read.json!.error]).toEqual([200, 'pro']);
    }

    // An endpoint that answers 410 is turned off by the delivery worker: the system's change.
    const doomed = (await call('POST', '/dashboard/v1/webhooks', CUSTOMER_NETWORK, { ...as, body: { url: goneUrl, types: ['key.revoked'] } })).json!.data as { id: string };
    expect((await call('POST', `/dashboard/v1/webhooks/${doomed.id}/test`, CUSTOMER_NETWORK, { ...as, body: {} })).status).toBe(202);
    await eventually(async () => (await entries()).some((e) => e.action === 'webhook.disable'), 'the endpoint turned off');

    const own = (await entries()).filter((e) => e.account_id === accountId);
    // The person signed in (teams, issue 41): what they do is theirs, not the team's.
    const personId = ((await call('GET', '/dashboard/v1/teams', CUSTOMER_NETWORK, as)).json!.data as { person: { id: string } }).person.id;
    const customer = ['customer', personId, 'portal'];
    expect(summary(own)).toEqual([
      ['account.create', 'system', 'sign-in', 'portal'],
      ['account.sign_in', ...customer],
      ['account.sign_in', ...customer],
      ['webhook.create', ...customer],
      ['webhook.update', ...customer],
      ['webhook.rotate_secret', ...customer],
      ['webhook.delete', ...customer],
      ['events.settings', ...customer],
      ['account.sessions_end', ...customer],
      ['billing.customer', 'system', 'billing', 'billing'],
      ['billing.checkout', ...customer],
      ['subscription.set', 'system', 'billing', 'billing'],
      ['webhook.create', ...customer],
      ['webhook.disable', 'system', 'webhooks', 'webhooks'],
    ]);
    const byAction = (action: string) => own.filter((e) => e.action === action);
    expect(byAction('account.sign_in').map((e) => [e.from, e.details.by])).toEqual([
      [CUSTOMER_NETWORK, 'code'],
      [CUSTOMER_NETWORK, 'link'],
    ]);
    expect([byAction('webhook.update')[0]!.target, byAction('webhook.update')[0]!.details]).toEqual([endpoint, { before: { description: '', enabled: true }, after: { description: 'staging', enabled: false } }]);
    expect(JSON.stringify(byAction('webhook.rotate_secret')[0])).not.toMatch(/whsec_/);
    expect(byAction('subscription.set')[0]!.details).toMatchObject({ before: null, after: { plan: 'pro', status: 'active' }, subscription_id: expect.stringMatching(/^sub_/) });
    expect([byAction('webhook.disable')[0]!.target, byAction('webhook.disable')[0]!.details]).toEqual([doomed.id, { reason: 'it answered 410 Gone' }]);
  });

  it('when operators sign in to the console by token, by code and by link, and rotate the admin token through the admin API and with the CLI, then each is one entry of no account, with who and from where', async () => {
    await start();
    const byToken = await call('POST', '/admin/console/v1/sign-in/token', OPERATOR_NETWORK, { body: { token: gw!.adminToken() } });
    expect(byToken.status).toBe(200);
    let before = world.inbox.count(OPERATOR);
    expect((await call('POST', '/admin/console/v1/sign-in/code', OPERATOR_NETWORK, { body: { email: OPERATOR } })).status).toBe(202);
    const { code } = await mailed(OPERATOR, before);
    expect((await call('POST', '/admin/console/v1/sign-in/code/verify', OPERATOR_NETWORK, { body: { email: OPERATOR, code } })).status).toBe(200);
    before = world.inbox.count(OPERATOR);
    expect((await call('POST', '/admin/console/v1/sign-in/code', OPERATOR_NETWORK, { body: { email: OPERATOR } })).status).toBe(202);
    const { token } = await mailed(OPERATOR, before);
    expect((await call('POST', '/admin/console/v1/sign-in/link', '192.0.2.99', { body: { email: OPERATOR, token } })).status).toBe(200);

    const first = gw!.adminToken();
    const rotated = await rawCall(`${gw!.url}/admin/v1/admin-token/rotate`, { method: 'POST', headers: { authorization: `Bearer ${first}`, 'x-forwarded-for': OPERATOR_NETWORK } });
    expect(rotated.status).toBe(200);
    // By hand on the gateway's host, with the CLI on the store: on Redis it records the rotation
    // itself; an SQLite file is held by the running gateway, so the CLI says to go through it.
    const offline = await runGatewayScript('src/cli.ts', ['admin-token', 'rotate'], gw!.env);
    if (kind === 'sqlite') {
      expect([offline.code, offline.stderr]).toEqual([1, expect.stringMatching(/is held by another process, such as a running gateway.*TOLLGATE_URL/)]);
      expect(gw!.adminToken()).toBe((rotated.json!.data as { token: string }).token);
      const through = await runGatewayScript('src/cli.ts', ['admin-token', 'rotate'], { ...gw!.env, TOLLGATE_URL: gw!.url });
      expect([through.code, through.stderr]).toEqual([0, '']);
    } else {
      expect([offline.code, offline.stderr]).toEqual([0, '']);
    }

    const list = (await entries()).filter((e) => e.account_id === null);
    const cli = kind === 'sqlite' ? ['operator', 'admin token', 'admin-api', '127.0.0.1'] : ['operator', expect.stringMatching(/^cli:.+@/), 'cli', expect.any(String)];
    expect(list.map((e) => [e.action, e.actor.type, e.actor.id, e.actor.via, e.from, e.details])).toEqual([
      ['operator.sign_in', 'operator', 'admin token', 'console', OPERATOR_NETWORK, { by: 'token' }],
      ['operator.sign_in', 'operator', OPERATOR, 'console', OPERATOR_NETWORK, { by: 'code' }],
      ['operator.sign_in', 'operator', OPERATOR, 'console', '192.0.2.99', { by: 'link' }],
      ['admin_token.rotate', 'operator', 'admin token', 'admin-api', OPERATOR_NETWORK, {}],
      ['admin_token.rotate', ...cli, {}],
    ]);
    expect((await rawCall(`${gw!.url}/admin/v1/accounts`, { headers: { authorization: `Bearer ${first}` } })).status).toBe(401);
    // No token in any entry.
    expect(JSON.stringify(list)).not.toContain(first);
    expect(JSON.stringify(list)).not.toContain(gw!.adminToken());
  });
});
