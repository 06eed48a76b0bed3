import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Stripe from 'stripe';
import type { Page } from 'playwright-core';
import { freePort } from '@tollgate/envelope/test/processes';
import { createStripeLocal } from '@tollgate/stripe-local';
import type { StripeLocal } from '@tollgate/stripe-local';
import { eventually } from '../support/eventually';
import { runGatewayScript } from '../support/gateway-process';
import { startPythonUpstream } from '../support/python-upstream';
import type { PythonUpstream } from '../support/python-upstream';
import { createKey, shows, signIn, startPortal } from './support/portal-fixture';
import type { Portal } from './support/portal-fixture';

jest.setTimeout(240_000);

// The operator's whole change: these lines appended to the built-in catalogue, in a file of their own.
const WEATHER = (upstream: string): string => `
  weather:
    title: Weather
    summary: "Tomorrow's temperature for a city, from a service written in Python."
    description: |
      Forecasts come from the **weather** service.

      <b>raw HTML is shown as text</b>
    upstream: ${upstream}
    plans:
      free: { monthly_quota: 5, rate_per_second: 2, price: 0, currency: USD, features: [Two cities] }
      pro: { monthly_quota: 1000, rate_per_second: 20, price: 900, currency: USD, features: [Two cities, Commercial use] }
`;

const BUILT_IN = readFileSync(path.resolve(__dirname, '../../catalogue/built-in.yaml'), 'utf8');

let weather: PythonUpstream;
let local: StripeLocal;
let stripe: Stripe;
let portal: Portal;
let dir: string;
let catalogueFile: string;

beforeAll(async () => {
  weather = await startPythonUpstream('weather-service.py');
  dir = mkdtempSync(path.join(tmpdir(), 'tollgate-catalogue-'));
  catalogueFile = path.join(dir, 'catalogue.yaml');
  writeFileSync(catalogueFile, BUILT_IN + WEATHER(weather.url));
  local = createStripeLocal({ webhookRetryMs: 50 });
  const stripeUrl = await local.listen(0);
  const port = await freePort();
  const env = { CATALOGUE_FILE: catalogueFile, PUBLIC_URL: `http://127.0.0.1:${port}`, STRIPE_SECRET_KEY: 'sk_test_tollgate_catalogue', STRIPE_API_BASE: stripeUrl, SUPPORT_EMAIL: 'billing@tollgate.test' };
  const sync = await runGatewayScript('src/cli.ts', ['billing', 'sync', '--json'], env);
  if (sync.code !== 0) throw new Error(`billing sync failed: ${sync.stderr}`);
  const synced = JSON.parse(sync.stdout) as { products: { api: string; created: boolean }[]; prices: { api: string; plan: string; amount: number; currency: string; action: string }[]; webhook: { secret?: string } };
  expect(synced.products.filter((p) => p.api === 'weather')).toEqual([expect.objectContaining({ created: true })]);
  expect(synced.prices.filter((p) => p.api === 'weather')).toEqual([expect.objectContaining({ plan: 'pro', amount: 900, action: 'created' })]);
  portal = await startPortal({ ...env, PORT: String(port), STRIPE_WEBHOOK_SECRET: synced.webhook.secret ?? '', STRIPE_TEST_CLOCKS: 'true' });
  const { hostname, port: stripePort } = new URL(stripeUrl);
  stripe = new Stripe('sk_test_tollgate_catalogue', { host: hostname, port: Number(stripePort), protocol: 'http', maxNetworkRetries: 0 });
});

afterAll(async () => {
  await portal?.close();
  await local?.close();
  await weather?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A call through the gateway with the key: its status, quota limit header and message. */
async function call(secret: string, route = '/weather/v1/forecast/oslo'): Promise<{ status: number; limit: string | null; message: string; body: unknown }> {
  const res = await fetch(`${portal.url}${route}`, { headers: { 'x-tollgate-key': secret } });
  const body = (await res.json()) as { message: string };
  return { status: res.status, limit: res.headers.get('x-ratelimit-requests-limit'), message: body.message, body };
}

async function typeCard(page: Page, number: string): Promise<void> {
  await page.locator('#cardNumber').fill(number);
  await page.locator('#cardExpiry').fill('12 / 34');
  await page.locator('#cardCvc').fill('123');
  await page.locator('#submit').click();
}

// The per-second limiter's window is a rolling second of the gateway's real clock.
const nextSecond = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1_100));

const admin = (method: string, route: string): Promise<Response> => fetch(`${portal.url}/admin/v1/${route}`, { method, headers: { authorization: `Bearer ${portal.adminToken()}` } });

describe('a fourth API, from another stack, on sale through the catalogue file alone', () => {
  test('when the operator appends it to the catalogue, then the portal sells it, its limits hold, its usage and /docs and the console show it, and a reload withdraws it cleanly', async () => {
    expect(portal.gateway.output.some((line) => line.includes('"catalogue":"CATALOGUE_FILE'))).toBe(true);
    const { page, problems } = await portal.open('desktop');

    // The catalogue and its pricing: the title, the summary, the endpoints from the service's document, the feature lines.
    await page.goto('/portal/');
    const card = page.locator('section.card', { has: page.getByRole('heading', { name: 'Weather', exact: true }) });
    await shows(card, "Tomorrow's temperature for a city, from a service written in Python.");
    await shows(card.locator('ul.endpoints'), '/v1/forecast/{city}');
    await shows(card.locator('table.plans'), 'Commercial use');
    await shows(card.locator('table.plans'), '9.00 USD');

    // Its reference page: the description rendered (raw HTML as text), each endpoint, and Try it.
    await card.getByRole('link', { name: 'Weather API reference' }).click();
    await page.getByRole('heading', { name: 'Weather API reference' }).waitFor();
    await shows(page.locator('.description'), 'raw HTML is shown as text');
    expect(await page.locator('.description b').count()).toBe(0);
    expect(await page.locator('.description strong').textContent()).toBe('weather');
    await shows(page.locator('nav.toc'), '/v1/cities');

    // A person signs in, takes the free plan, and calls it: the Python service answers through the gateway.
    const email = 'forecaster@example.com';
    await signIn(page, portal.mail, email);
    const secret = await createKey(page, 'weather');
    await page.getByRole('link', { name: 'Subscriptions' }).click();
    await page.getByRole('button', { name: 'Subscribe to free for weather' }).click();
    await shows(page.locator('section[data-api="weather"] [role="status"]'), 'Your weather plan is free now.');
    await page.goto('/portal/try?api=weather');
    await page.locator('#try-api').selectOption('weather');
    expect(await page.locator('#try-api option[value="weather"]').textContent()).toBe('Weather');

    // The rate (2 a second) and the monthly quota (5) are enforced.
    const burst = await Promise.all([call(secret), call(secret), call(secret), call(secret)]);
    expect(burst.map((r) => r.status).sort()).toEqual([200, 200, 429, 429]);
    expect(burst.find((r) => r.status === 200)?.body).toEqual({ data: { city: 'oslo', celsius: 4.5 } });
    await nextSecond();
    expect([(await call(secret, '/weather/v1/cities')).status, (await call(secret, '/weather/v1/forecast/lima')).status]).toEqual([200, 200]);
    await nextSecond();
    expect((await call(secret)).status).toBe(200);
    const over = await call(secret);
    expect([over.status, over.limit]).toEqual([429, '5']);
    expect(over.message).toContain("Your weather free plan's 5 calls for this month are used up.");

    // Its usage shows per endpoint (the route templates of its document): every call the key made,
    // as docs/portal.md's usage in detail says, the refusals as errors. Forecasts: four served, two
    // refused for the rate and one for the quota (seven, three errors); cities: one served.
    // Counts are flushed once a second: wait for the last of them, a state no earlier flush shows.
    let calls: Record<string, { calls: number; errors: number }> = {};
    await eventually(async () => {
      const breakdown = await page.evaluate(async () => (await (await fetch('/dashboard/v1/usage/breakdown')).json()) as { data: { days: { endpoints: { label: string; calls: number; errors: number }[] }[] } });
      calls = Object.fromEntries(breakdown.data.days.flatMap((d) => d.endpoints.map((e) => [e.label, { calls: e.calls, errors: e.errors }])));
      return calls['/weather/v1/forecast/{city}']?.calls === 7 && calls['/weather/v1/cities']?.calls === 1;
    }, () => `the usage of each weather endpoint (last read: ${JSON.stringify(calls)})`);
    expect(calls).toEqual({ '/weather/v1/forecast/{city}': { calls: 7, errors: 3 }, '/weather/v1/cities': { calls: 1, errors: 0 } });

    // The paid plan through the Stripe stand-in: its quota at once.
    await page.getByRole('link', { name: 'Subscriptions' }).click();
    await page.getByRole('button', { name: 'Subscribe to pro for weather' }).click();
    const preview = page.getByRole('dialog');
    await shows(preview.locator('#recurring'), '9.00 USD');
    await preview.getByRole('button', { name: 'Continue to payment' }).click();
    await page.waitForURL(/\/checkout\/cs_test_/);
    await typeCard(page, '4242 4242 4242 4242');
    await page.waitForURL(/\/portal\/billing/);
    await local.settle();
    await eventually(async () => (await call(secret)).limit === '1000', 'the pro plan on weather');
    expect((await call(secret)).status).toBe(200);

    // /docs and the console list it.
    const docs = (await (await fetch(`${portal.url}/docs/openapi.json`)).json()) as { tags: { name: string }[]; paths: Record<string, unknown> };
    expect(docs.tags.map((t) => t.name)).toContain('weather');
    expect(Object.keys(docs.paths)).toContain('/weather/v1/forecast/{city}');
    const operator = await portal.open('desktop');
    await operator.page.goto('/admin/');
    await operator.page.getByLabel('Admin token', { exact: true }).fill(portal.adminToken());
    await operator.page.getByRole('button', { name: 'Sign in with the token' }).click();
    await operator.page.waitForURL('**/admin/');
    await shows(operator.page.locator('#health li[data-api="weather"]'), 'Weather: Ready');
    await shows(operator.page.locator('#catalogue'), 'CATALOGUE_FILE');

    // A reload without it: its calls are told it was withdrawn, the paid plan ends at its period's end (said by mail), the portal no longer lists it.
    const mailsBefore = portal.mail.count(email);
    writeFileSync(catalogueFile, BUILT_IN);
    const reload = await admin('POST', 'catalogue/reload');
    const reloaded = (await reload.json()) as { data: { digest: string; changes: { removed: string[] }; followed: { withdrawals: { ended: { api: string; plan: string }[] } } } };
    expect(reload.status).toBe(200);
    expect(reloaded.data.changes.removed).toEqual(['weather']);
    expect(reloaded.data.followed.withdrawals.ended).toEqual([expect.objectContaining({ api: 'weather', plan: 'pro' })]);
    const gone = await call(secret);
    expect(gone.status).toBe(410);
    expect(gone.message).toContain('The Weather API (/weather) was withdrawn');
    const subscriptions = await stripe.subscriptions.list({ status: 'all', limit: 10 });
    expect(subscriptions.data.filter((s) => s.metadata.tollgate_api === 'weather').map((s) => s.cancel_at_period_end)).toEqual([true]);
    expect((await portal.mail.next(email, mailsBefore)).subject).toMatch(/^Your Tollgate weather pro plan ends on .*: it was withdrawn$/);
    await page.goto('/portal/');
    await page.getByRole('heading', { name: 'Token', exact: true }).waitFor();
    expect(await page.getByRole('heading', { name: 'Weather', exact: true }).count()).toBe(0);

    // Its usage stays readable: the portal's Usage page (marked withdrawn), the CSV export, the admin history.
    await page.goto('/portal/usage');
    const withdrawn = page.locator('section.usage.withdrawn[data-api="weather"]');
    await shows(withdrawn.getByRole('heading', { level: 2 }), 'Weather (withdrawn)');
    await shows(withdrawn.locator('details.data summary'), '1 day with calls');
    const csv = await page.evaluate(async () => (await fetch('/dashboard/v1/usage/breakdown.csv')).text());
    expect(csv).toMatch(/,endpoint,\/weather\/v1\/forecast\/\{city\},weather,\d+,/);
    const [found] = ((await (await admin('GET', `accounts?email=${encodeURIComponent(email)}`)).json()) as { data: { items: { id: string }[] } }).data.items;
    // Seven served: five on the free plan, two on pro. The last of them may still wait for the
    // once-a-second flush: read until it shows, so a slow machine is waited for, not failed.
    const served = async (): Promise<number> => {
      const history = (await (await admin('GET', `accounts/${found!.id}/history`)).json()) as { data: { days: { api: string; counts: Record<string, number> }[] } };
      return history.data.days.filter((d) => d.api === 'weather').reduce((sum, d) => sum + d.counts['2xx']!, 0);
    };
    let servedCalls = 0;
    await eventually(async () => (servedCalls = await served()) >= 7, () => `the weather calls served in the admin history (last read: ${servedCalls})`);
    expect(servedCalls).toBe(7);
    await operator.page.goto(`/admin/accounts/${found!.id}`);
    await operator.page.getByRole('heading', { name: 'Weather (withdrawn), the last 30 days' }).waitFor();

    // A bad file leaves the running catalogue in place, with its line in the answer.
    writeFileSync(catalogueFile, `${BUILT_IN}  weather:\n    title: Weather\n`);
    const bad = await admin('POST', 'catalogue/reload');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/^CATALOGUE_FILE .*catalogue\.yaml, line \d+: apis\.weather needs 'summary'; the running catalogue \([0-9a-f]{16}\) stays in force$/);
    const running = (await (await admin('GET', 'catalogue')).json()) as { data: { digest: string; apis: Record<string, unknown> } };
    expect([running.data.digest, Object.keys(running.data.apis)]).toEqual([reloaded.data.digest, ['burger', 'token', 'logs']]);
    expect(problems).toEqual([]);
    expect(operator.problems).toEqual([]);
  });
});
