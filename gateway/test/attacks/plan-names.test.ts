import fc from 'fast-check';
import { EVERY_PROTOTYPE_NAME } from '@tollgate/envelope/test/hostile-requests';
import { CliUsageError, runCliCommand } from '../../src/admin/cli-commands';
import type { PlanTable } from '../../src/domain/plans';
import { BILLING_OFF, storeClient } from '../../src/admin/operator-client';
import { signInCode } from '../support/smtp-inbox';
import { startRedisServer } from '../support/redis-server';
import type { RedisServer } from '../support/redis-server';
import { ADMIN_TOKEN, startBillingGateway } from '../billing/support/billing-gateway';
import type { BillingGateway } from '../billing/support/billing-gateway';
import { STORE_KINDS } from './attack-target';

// Issue 35, item 10: a plan named `__proto__` or `constructor` passed the billing plan check (a
// Stripe customer was made in currency `undefined`, then 503). Every route and command that takes
// an API or plan name is tried with every name the built-in prototypes hold: each is 400 naming the
// valid ones, and nothing is made at Stripe or in the store.

jest.setTimeout(180_000);

type Json = ReturnType<typeof JSON.parse>;
type Caller = 'portal' | 'admin' | 'console';
/** One route that takes a name: how it is called with `name` in the API's or the plan's place. */
interface NameRoute {
  caller: Caller;
  method: string;
  path: (name: string, ids: Ids) => string;
  body?: (name: string) => unknown;
}
interface Ids {
  accountId: string;
  keyId: string;
}

const API = 'token';
const PLAN_ROUTES: NameRoute[] = [
  { caller: 'portal', method: 'POST', path: () => '/dashboard/v1/billing/checkout', body: (plan) => ({ api: API, plan }) },
  { caller: 'portal', method: 'PUT', path: () => `/dashboard/v1/billing/subscriptions/${API}`, body: (plan) => ({ plan }) },
  { caller: 'portal', method: 'PUT', path: () => `/dashboard/v1/subscriptions/${API}`, body: (plan) => ({ plan }) },
  { caller: 'admin', method: 'POST', path: () => '/admin/v1/keys', body: (plan) => ({ owner: 'names@example.com', subscriptions: { [API]: plan } }) },
  { caller: 'admin', method: 'PUT', path: (_n, ids) => `/admin/v1/keys/${ids.keyId}/subscriptions/${API}`, body: (plan) => ({ plan }) },
  { caller: 'admin', method: 'POST', path: () => '/admin/v1/accounts', body: (plan) => ({ name: 'names', subscriptions: { [API]: plan } }) },
  { caller: 'admin', method: 'PUT', path: (_n, ids) => `/admin/v1/accounts/${ids.accountId}/subscriptions/${API}`, body: (plan) => ({ plan }) },
  { caller: 'console', method: 'PUT', path: (_n, ids) => `/admin/console/v1/accounts/${ids.accountId}/subscriptions/${API}`, body: (plan) => ({ plan }) },
];
const API_ROUTES: NameRoute[] = [
  { caller: 'portal', method: 'POST', path: () => '/dashboard/v1/billing/checkout', body: (api) => ({ api, plan: 'pro' }) },
  { caller: 'portal', method: 'PUT', path: (api) => `/dashboard/v1/billing/subscriptions/${api}`, body: () => ({ plan: 'pro' }) },
  { caller: 'portal', method: 'DELETE', path: (api) => `/dashboard/v1/billing/subscriptions/${api}` },
  { caller: 'portal', method: 'POST', path: (api) => `/dashboard/v1/billing/subscriptions/${api}/keep` },
  { caller: 'portal', method: 'PUT', path: (api) => `/dashboard/v1/subscriptions/${api}`, body: () => ({ plan: 'free' }) },
  { caller: 'portal', method: 'DELETE', path: (api) => `/dashboard/v1/subscriptions/${api}` },
  { caller: 'portal', method: 'PUT', path: () => '/dashboard/v1/events/settings', body: (api) => ({ thresholds: { [api]: [50] } }) },
  { caller: 'admin', method: 'POST', path: () => '/admin/v1/keys', body: (api) => ({ owner: 'names@example.com', subscriptions: { [api]: 'free' } }) },
  { caller: 'admin', method: 'PUT', path: (api, ids) => `/admin/v1/keys/${ids.keyId}/subscriptions/${api}`, body: () => ({ plan: 'free' }) },
  { caller: 'admin', method: 'POST', path: () => '/admin/v1/accounts', body: (api) => ({ name: 'names', subscriptions: { [api]: 'free' } }) },
  { caller: 'admin', method: 'PUT', path: (api, ids) => `/admin/v1/accounts/${ids.accountId}/subscriptions/${api}`, body: () => ({ plan: 'free' }) },
  { caller: 'admin', method: 'DELETE', path: (api, ids) => `/admin/v1/accounts/${ids.accountId}/subscriptions/${api}` },
  { caller: 'console', method: 'PUT', path: (api, ids) => `/admin/console/v1/accounts/${ids.accountId}/subscriptions/${api}`, body: () => ({ plan: 'free' }) },
  { caller: 'console', method: 'DELETE', path: (api, ids) => `/admin/console/v1/accounts/${ids.accountId}/subscriptions/${api}` },
];
// The CLI's commands that take names, with `name` in the plan's or the API's place.
const CLI_PLAN_COMMANDS = (plan: string, ids: Ids): string[][] => [
  ['create', '--owner', 'names@example.com', '--subscribe', `${API}=${plan}`],
  ['subscribe', ids.keyId, API, plan],
  ['account', 'create', '--subscribe', `${API}=${plan}`],
  ['account', 'subscribe', ids.accountId, API, plan],
];
const CLI_API_COMMANDS = (api: string, ids: Ids): string[][] => [
  ['create', '--owner', 'names@example.com', '--subscribe', `${api}=free`],
  ['subscribe', ids.keyId, api, 'free'],
  ['account', 'create', '--subscribe', `${api}=free`],
  ['account', 'subscribe', ids.accountId, api, 'free'],
  ['account', 'cancel', ids.accountId, api],
];

/** Each name at least once (paired with the routes in turn), then random pairs. */
const everyName = <T>(routes: readonly T[]) => ({ examples: EVERY_PROTOTYPE_NAME.map((name, i): [string, T] => [name, routes[i % routes.length]!]), numRuns: EVERY_PROTOTYPE_NAME.length + 60 });

describe.each(STORE_KINDS)('API and plan names from object prototypes, with the %s store', (kind) => {
  let redis: RedisServer | undefined;
  let gw: BillingGateway;
  let ids: Ids;
  const sessions = {} as Record<'portal' | 'console', { cookie: string; csrf: string }>;

  const send = async (caller: Caller, method: string, route: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json' };
    if (caller === 'admin') headers.authorization = `Bearer ${ADMIN_TOKEN}`;
    else Object.assign(headers, { cookie: sessions[caller].cookie, 'x-csrf-token': sessions[caller].csrf });
    const res = await fetch(gw.url + route, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const cookieOf = (res: Response, name: string): string => `${name}=${new RegExp(`${name}=([^;]+)`).exec(res.headers.get('set-cookie') ?? '')![1]}`;

  beforeAll(async () => {
    redis = kind === 'redis' ? await startRedisServer() : undefined;
    gw = await startBillingGateway({ engine: redis ? { kind: 'redis', url: redis.url } : { kind: 'sqlite' }, webhooks: 'manual' });
    const email = `names-${kind}@example.com`;
    const post = (route: string, body: unknown, cookie?: string) => fetch(gw.url + route, { method: 'POST', headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
    const before = gw.mail.count(email);
    expect((await post('/dashboard/v1/sign-in', { email })).status).toBe(202);
    const signedIn = await post('/dashboard/v1/sign-in/verify', { email, code: signInCode(await gw.mail.next(email, before)).code });
    const portal = (await signedIn.json()) as Json;
    sessions.portal = { cookie: cookieOf(signedIn, 'tg_session'), csrf: portal.data.csrf_token };
    const operator = await post('/admin/console/v1/sign-in/token', { token: ADMIN_TOKEN });
    sessions.console = { cookie: cookieOf(operator, 'tg_console'), csrf: ((await operator.json()) as Json).data.csrf_token };
    const key = await send('admin', 'POST', '/admin/v1/keys', { owner: `key-${kind}@example.com`, subscriptions: { [API]: 'free' } });
    ids = { accountId: portal.data.account.id, keyId: key.body.data.id };
  });
  afterAll(async () => {
    await gw?.close();
    await redis?.stop();
  });

  const unchanged = async (): Promise<void> => {
    expect((await gw.stripe.customers.list({ limit: 100 })).data).toEqual([]);
    expect((await gw.stores.billingStore.getBilling(ids.accountId))?.customers ?? {}).toEqual({});
    expect((await gw.stores.accountStore.getAccount(ids.accountId))!.subscriptions).toEqual({});
    expect((await gw.stores.accountStore.listAccounts({ limit: 10 })).items).toHaveLength(2);
  };

  it.each([
    ['a plan', PLAN_ROUTES, (plans: PlanTable) => Object.keys(plans[API]!.plans).join(', ')],
    ['an API', API_ROUTES, (plans: PlanTable) => Object.keys(plans).join(', ')],
  ] as const)('when any prototype name is given as %s on any route, then the answer is 400 naming the valid ones, and no customer, account or subscription is made', async (_what, routes, valid) => {
    const names = valid(gw.config.catalogue.apis);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...EVERY_PROTOTYPE_NAME), fc.constantFrom(...routes), async (name, route) => {
        const res = await send(route.caller, route.method, route.path(name, ids), route.body?.(name));
        expect([route.method, route.path(name, ids), name, res.status, res.body.success]).toEqual([route.method, route.path(name, ids), name, 400, false]);
        expect(res.body.message).toContain(names);
      }),
      everyName(routes),
    );
    await unchanged();
  });

  it('when any prototype name is given to the CLI as an API or a plan, then every command is a usage error naming the valid ones', async () => {
    const client = storeClient({ stores: gw.stores, plans: gw.config.catalogue.apis, maxMembers: gw.config.teamMaxMembers, clock: Date.now, source: { actor: { type: 'operator', id: 'cli:test', via: 'cli' }, from: null }, onAuditFailure: (_entry, err) => { throw err; }, billing: BILLING_OFF });
    const unused = async (): Promise<never> => {
      throw new Error('not used');
    };
    const cli = { connect: async () => client, rotateAdminToken: unused, billingSync: unused, plans: gw.config.catalogue.apis, writeLine: unused };
    const plans = Object.keys(gw.config.catalogue.apis[API]!.plans).join(', ');
    const apis = Object.keys(gw.config.catalogue.apis).join(', ');
    const refusal = async (argv: string[]): Promise<[string[], boolean, string]> => {
      try {
        return [argv, false, `ran: ${JSON.stringify(await runCliCommand(argv, cli))}`];
      } catch (err) {
        return [argv, err instanceof CliUsageError, (err as Error).message];
      }
    };
    for (const name of EVERY_PROTOTYPE_NAME) {
      for (const argv of CLI_PLAN_COMMANDS(name, ids)) expect(await refusal(argv)).toEqual([argv, true, expect.stringMatching(new RegExp(`must be one of ${plans} for ${API}$`))]);
      for (const argv of CLI_API_COMMANDS(name, ids)) expect(await refusal(argv)).toEqual([argv, true, expect.stringContaining(`unknown API '${name}'; APIs: ${apis}`)]);
    }
    await unchanged();
  });
});
