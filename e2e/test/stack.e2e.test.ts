import { join } from 'node:path';
import Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { probeUpstreams } from '../../scripts/stack/probe-upstreams';
import { upstreamUrls } from '../../scripts/stack/upstream-urls';
import { bigMacCopyLabel } from '../../scripts/stack/demo-upstreams';
import { SOURCE } from '../../services/burger/src/domain/source';
import { ADMIN_TOKEN, TINY_PLAN, printStackOnFailure, startE2eStack } from './support/e2e-stack';
import type { E2eStack } from './support/e2e-stack';

jest.setTimeout(120_000);

const ROOT = join(__dirname, '..', '..');
const KEY_HEADER = 'x-tollgate-key';
const MONTHLY = { burger: 1_230_000, token: 650_000, logs: 720_000 } as const;
// The demo serves the repository's copy of the Big Mac index, and says so in every answer.
const BURGER_SOURCE = `${SOURCE}; ${bigMacCopyLabel(ROOT)}`;

let e2e: E2eStack;
let reference: { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>> };
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const validators = new Map<string, ValidateFunction>();

async function call(path: string, init: { key?: string; requestId?: string; method?: string; body?: unknown; bearer?: string; session?: { cookie: string; csrf: string } } = {}) {
  const headers: Record<string, string> = {};
  if (init.key) headers[KEY_HEADER] = init.key;
  if (init.session) Object.assign(headers, { cookie: init.session.cookie, 'x-csrf-token': init.session.csrf });
  if (init.requestId) headers['x-request-id'] = init.requestId;
  if (init.bearer) headers.authorization = `Bearer ${init.bearer}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${e2e.gateway}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text };
}

async function createKey(subscriptions: Record<string, string>): Promise<{ key: string; id: string }> {
  const res = await call('/admin/v1/keys', { method: 'POST', bearer: ADMIN_TOKEN, body: { owner: 'e2e@tollgate.test', subscriptions } });
  expect(res.status).toBe(201);
  return { key: res.body.data.key, id: res.body.data.id };
}

/** The sign-in codes mailed to `email` so far: the demo has no SMTP_URL, so each mail is written to the gateway's log. */
function codesMailedTo(email: string): string[] {
  return e2e
    .output()
    .split('\n')
    .filter((line) => line.includes(`"to":"${email}"`) && line.includes('Your Tollgate sign-in code'))
    .map((line) => / {4}(\d{6})/.exec(line)?.[1] ?? '');
}

/** Signs `email` in to the portal as a person does, with the code from the mail: the session cookie and its CSRF token. */
async function signIn(email: string): Promise<{ cookie: string; csrf: string }> {
  const before = codesMailedTo(email).length;
  expect((await call('/dashboard/v1/sign-in', { method: 'POST', body: { email } })).status).toBe(202);
  // The log is written in batches: wait for the line.
  for (let i = 0; i < 50 && codesMailedTo(email).length === before; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  const code = codesMailedTo(email).at(-1);
  const res = await fetch(`${e2e.gateway}/dashboard/v1/sign-in/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, code }) });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data: { csrf_token: string } };
  return { cookie: res.headers.get('set-cookie')!.split(';')[0]!, csrf: body.data.csrf_token };
}

// The 200 schema the combined reference documents for a proxied path (query string left out).
function contractOf(path: string): ValidateFunction {
  const bare = path.split('?')[0]!;
  let validate = validators.get(bare);
  if (!validate) {
    const schema = reference.paths[bare]?.get?.responses['200']?.content?.['application/json']?.schema;
    if (!schema) throw new Error(`the reference at /docs/openapi.json documents no 200 answer for GET ${bare}`);
    validate = ajv.compile(schema);
    validators.set(bare, validate);
  }
  return validate;
}

beforeAll(async () => {
  e2e = await startE2eStack(ROOT);
  const docs = await call('/docs/openapi.json');
  expect(docs.status).toBe(200);
  reference = docs.body;
});

afterAll(async () => {
  await e2e?.stop();
});

describe('the demo stack through the gateway', () => {
  const logged = printStackOnFailure(() => e2e);
  let pro: { key: string; id: string };

  it('when the operator creates a key through the admin API, then it is shown once and usable', logged(async () => {
    pro = await createKey({ burger: 'pro', token: 'pro', logs: 'pro' });
    expect(pro.key).toMatch(/^tg_/);
    const read = await call(`/admin/v1/keys/${pro.id}`, { bearer: ADMIN_TOKEN });
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).not.toContain(pro.key);
  }));

  it('when the admin API is called without the token, then 401', logged(async () => {
    const res = await call('/admin/v1/keys', { method: 'POST', body: { owner: 'x' } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  }));

  const endpoints = (): Array<[keyof typeof MONTHLY, string, (data: Record<string, unknown>) => void]> => {
    const { address, fromBlock, toBlock, transfers } = e2e.upstreams.erc20;
    const dayAgo = Math.floor(Date.now() / 1000) - 86_400;
    return [
      ['burger', '/burger/v1/index?base=eur&sort=name', (d) => expect(d).toMatchObject({ base_currency: 'EUR', count: 54, source: BURGER_SOURCE })],
      ['burger', '/burger/v1/country?country=japan', (d) => expect(d).toMatchObject({ iso3: 'JPN', base_currency: 'USD' })],
      ['burger', '/burger/v1/extremes?limit=3', (d) => expect((d.most_overvalued as unknown[]).length).toBe(3)],
      ['burger', '/burger/v1/meta', (d) => expect(d).toMatchObject({ service: 'burger', countries: 54, upstream_status: 'ok', source: BURGER_SOURCE })],
      ['token', '/token/v1/price?tokens=ethereum:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48,coingecko:bitcoin', (d) => expect(d).toMatchObject({ count: 2, prices: [{ symbol: 'USDC' }, { symbol: 'BTC' }] })],
      ['token', `/token/v1/historical?tokens=coingecko:ethereum&timestamp=${dayAgo}`, (d) => expect(d).toMatchObject({ requested_timestamp: dayAgo, count: 1 })],
      ['token', '/token/v1/chart?tokens=coingecko:ethereum&span=5&period=1d', (d) => expect(d).toMatchObject({ count: 1, span: 5 })],
      ['token', '/token/v1/change?tokens=coingecko:ethereum&period=1d', (d) => expect(d).toMatchObject({ count: 1, period: '1d' })],
      ['token', '/token/v1/meta', (d) => expect(d).toMatchObject({ service: 'token', plan: 'pro' })],
      ['logs', `/logs/v1/logs?chain=ethereum&address=${address}&from_block=${fromBlock}&to_block=${toBlock}&event=Transfer`, (d) => expect(d.count).toBe(transfers)],
      ['logs', `/logs/v1/transfers?chain=ethereum&token=${address}&from_block=${fromBlock}&to_block=${toBlock}`, (d) => expect(d.count).toBe(transfers)],
      ['logs', '/logs/v1/chains', (d) => expect((d.chains as unknown[]).length).toBeGreaterThanOrEqual(8)],
      ['logs', '/logs/v1/meta', (d) => expect(d).toMatchObject({ service: 'logs' })],
    ];
  };

  it('when every endpoint of every API is called with the key, then each answers 200 in the envelope, as documented, with quota headers', logged(async () => {
    const seen: string[] = [];
    for (const [api, path, check] of endpoints()) {
      const requestId = `e2e-${seen.length}`;
      const res = await call(path, { key: pro.key, requestId });
      expect({ path, status: res.status, message: res.body.message }).toEqual({ path, status: 200, message: res.body.message });
      expect(res.body).toMatchObject({ success: true, status: 'ok', meta: { request_id: requestId } });
      expect(res.headers.get('x-request-id')).toBe(requestId);
      expect(res.headers.get('x-ratelimit-requests-limit')).toBe(String(MONTHLY[api]));
      expect(Number(res.headers.get('x-ratelimit-requests-remaining'))).toBeLessThan(MONTHLY[api]);
      expect(res.headers.get('ratelimit-policy')).toMatch(/"second";q=\d+;w=1/);
      expect(res.headers.get('ratelimit')).toMatch(/"month";r=\d+/);
      const validate = contractOf(path);
      expect({ path, errors: validate(res.body) ? [] : validate.errors }).toEqual({ path, errors: [] });
      check(res.body.data);
      seen.push(path);
    }
    expect(seen).toHaveLength(13);
  }));

  it('when the key is missing, unknown or revoked, then 401', logged(async () => {
    const revoked = await createKey({ burger: 'free' });
    expect((await call(`/admin/v1/keys/${revoked.id}`, { method: 'DELETE', bearer: ADMIN_TOKEN })).status).toBe(200);
    for (const key of [undefined, 'tg_not-a-real-key', revoked.key]) {
      const res = await call('/burger/v1/meta', { key });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
    }
  }));

  it('when a key has no subscription, then burger answers 402 and token grants 10 playground calls, then 402', logged(async () => {
    const bare = await createKey({});
    const burger = await call('/burger/v1/meta', { key: bare.key });
    expect(burger.status).toBe(402);
    expect(burger.body.error.code).toBe('SUBSCRIPTION_REQUIRED');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) statuses.push((await call('/token/v1/meta', { key: bare.key })).status);
    expect(statuses).toEqual([...Array<number>(10).fill(200), 402]);
  }));

  it('when the monthly quota is used up, then 429 QUOTA_EXCEEDED with Retry-After, and usage reads the quota', logged(async () => {
    const tiny = await createKey({ burger: 'tiny' });
    for (let i = 0; i < TINY_PLAN.monthly_quota; i += 1) expect((await call('/burger/v1/meta', { key: tiny.key })).status).toBe(200);
    const over = await call('/burger/v1/meta', { key: tiny.key });
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('QUOTA_EXCEEDED');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(over.headers.get('x-ratelimit-requests-remaining')).toBe('0');
    const usage = await call(`/admin/v1/keys/${tiny.id}/usage`, { bearer: ADMIN_TOKEN });
    expect(JSON.stringify(usage.body.data)).toContain(`"used":${TINY_PLAN.monthly_quota}`);
  }));

  it('when calls come faster than the plan rate, then the excess gets 429 RATE_LIMITED with Retry-After', logged(async () => {
    const free = await createKey({ logs: 'free' });
    const answers = await Promise.all(Array.from({ length: 8 }, () => call('/logs/v1/chains', { key: free.key })));
    const admitted = answers.filter((a) => a.status === 200).length;
    const limited = answers.filter((a) => a.status === 429);
    expect(admitted).toBeGreaterThanOrEqual(1);
    expect(admitted).toBeLessThanOrEqual(3);
    expect(limited.length).toBe(8 - admitted);
    for (const a of limited) {
      expect(a.body.error.code).toBe('RATE_LIMITED');
      expect(a.headers.get('retry-after')).toBe('1');
    }
  }));

  it('when the API reference is opened, then Swagger UI shows every API under its prefix with the key header, and the admin API only to a signed-in operator at /admin/docs', logged(async () => {
    const page = await call('/docs');
    expect(page.status).toBe(200);
    expect(page.body).toContain('swagger-ui');
    for (const path of ['/burger/v1/index', '/token/v1/price', '/logs/v1/transfers', '/dashboard/v1/signup']) {
      expect(Object.keys(reference.paths)).toContain(path);
    }
    expect(Object.keys(reference.paths).filter((path) => path.startsWith('/admin'))).toEqual([]);

    expect((await call('/admin/docs/openapi.json')).status).toBe(401);
    const signIn = await call('/admin/console/v1/sign-in/token', { method: 'POST', body: { token: ADMIN_TOKEN } });
    expect(signIn.status).toBe(200);
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const operators = (await (await fetch(`${e2e.gateway}/admin/docs/openapi.json`, { headers: { cookie } })).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(operators.paths)).toEqual(expect.arrayContaining(['/admin/v1/keys', '/admin/v1/accounts', '/admin/v1/billing/summary']));
  }));

  it('when a person takes a paid plan in the demo, then Checkout is the Stripe stand-in’s page, and paying with 4242 gives the plan at once', logged(async () => {
    // Money moves only for a signed-in person (a key alone cannot start a Checkout).
    const session = await signIn('buyer@e2e.test');
    const buyer = (await call('/dashboard/v1/keys', { method: 'POST', session, body: { name: 'e2e' } })).body.data as { key: string };
    expect((await call('/dashboard/v1/billing/checkout', { method: 'POST', key: buyer.key, body: { api: 'burger', plan: 'scale' } })).status).toBe(401);
    const checkout = await call('/dashboard/v1/billing/checkout', { method: 'POST', session, body: { api: 'burger', plan: 'scale' } });
    expect(checkout.status).toBe(200);
    expect(checkout.body.data.url.startsWith(`${e2e.billing.url}/checkout/cs_test_`)).toBe(true);
    // The demo's stripe-local prints each receipt it mails (to the terminal of `npm start -- --demo`): watched, and still printed.
    const printed = jest.spyOn(console, 'error');
    let receipts: string[];
    try {
      const paid = await fetch(checkout.body.data.url, { method: 'POST', body: new URLSearchParams({ cardNumber: '4242 4242 4242 4242', cardExpiry: '12 / 34', cardCvc: '123' }), redirect: 'manual' });
      expect([paid.status, paid.headers.get('location')]).toEqual([303, `${e2e.gateway}/portal/billing?checkout=${checkout.body.data.session_id}`]);
      await e2e.billing.local.settle();
      receipts = printed.mock.calls.map((args) => args.map(String).join(' ')).filter((line) => line.startsWith('[stripe-local] receipt mailed to '));
    } finally {
      printed.mockRestore();
    }
    const res = await call('/burger/v1/meta', { key: buyer.key });
    expect([res.status, res.headers.get('x-ratelimit-requests-limit')]).toEqual([200, '4400000']);

    // The receipt the person would receive: one, to them, for what Billing lists as paid, linking the receipt Billing links.
    const payments = (await call('/dashboard/v1/billing', { key: buyer.key })).body.data.payments as { amount: number; currency: string; receipt_url: string }[];
    expect(payments).toHaveLength(1);
    const paidText = new Intl.NumberFormat('en-US', { style: 'currency', currency: payments[0]!.currency }).format(payments[0]!.amount / 100);
    expect(receipts).toHaveLength(1);
    const [head, ...text] = receipts[0]!.split('\n');
    expect(head).toMatch(/^\[stripe-local\] receipt mailed to buyer@e2e\.test: Your receipt from Tollgate #\d{4}-\d{4}$/);
    expect(text).toEqual(expect.arrayContaining(['    Receipt from Tollgate', `    Amount paid: ${paidText}`, '    Payment method: VISA – 4242', `    Amount charged: ${paidText}`, `    View your receipt: ${payments[0]!.receipt_url}`]));
  }));

  it("when npm start probes the demo stand-ins, then it finds every upstream reachable and the banner's warning stays away", logged(async () => {
    const urls = await upstreamUrls(e2e.upstreams.env, {});
    expect(urls).toEqual({ burger: e2e.upstreams.env.burger.BURGER_DATA_URL, token: e2e.upstreams.env.token.TOKEN_UPSTREAM_URL, logs: e2e.upstreams.env.logs.LOGS_RPC_ETHEREUM });
    expect(await probeUpstreams({ burgerServiceUrl: e2e.stack.urls.burger, upstreams: urls })).toEqual([]);
  }));

  it('when the stack is stopped, then every process exits cleanly', logged(async () => {
    const codes = await e2e.stop();
    expect(codes).toEqual({ gateway: 0, burger: 0, token: 0, logs: 0 });
  }));
});
