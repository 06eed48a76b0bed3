import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeStackPorts, startStackProcess } from './support/stack-process';
import type { StackProcess } from './support/stack-process';

// `npm start -- --demo` as a newcomer meets it, stopped and started again on the same store (issue 36).
jest.setTimeout(240_000);

const ROOT = join(__dirname, '..', '..');
const BANNER_END = 'Ctrl-C stops everything.';
type Json = ReturnType<typeof JSON.parse>;

let dir: string;
let running: StackProcess | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tollgate-demo-restart-'));
});
afterEach(async () => {
  running?.killAll();
  await running?.exited;
  running = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the banner says after a --demo start: the gateway, the demo key and stripe-local's address. */
function readBanner(output: string): { gateway: string; demoKey: string; stripeLocal: string; banner: string } {
  const banner = output.slice(output.lastIndexOf('Tollgate is up'));
  const gateway = /gateway {3}(http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1];
  const demoKey = /^Demo key .*: (tg_\S+)$/m.exec(banner)?.[1];
  const stripeLocal = /paid through stripe-local at (http:\/\/127\.0\.0\.1:\d+),/.exec(banner)?.[1];
  if (!gateway || !demoKey || !stripeLocal) throw new Error(`the banner lacks the gateway, the demo key or stripe-local:\n${banner}`);
  return { gateway, demoKey, stripeLocal, banner };
}

/** A portal session: what moves money takes it (a key alone cannot). */
type Session = { cookie: string; csrf: string };

async function json(gateway: string, method: string, path: string, key?: string | Session, body?: unknown): Promise<{ status: number; body: Json }> {
  const caller: Record<string, string> = typeof key === 'string' ? { 'x-tollgate-key': key } : key ? { cookie: key.cookie, 'x-csrf-token': key.csrf } : {};
  const res = await fetch(`${gateway}${path}`, {
    method,
    headers: { ...caller, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** Signs up by JSON as the banner says, reading the code from the stack's output; answers the new key. */
async function signUp(stack: StackProcess, gateway: string, email: string): Promise<string> {
  const before = stack.output().length;
  expect((await json(gateway, 'POST', '/dashboard/v1/signup', undefined, { email })).status).toBe(202);
  await stack.waitFor(`mail to ${email}`, 10_000);
  await new Promise((resolve) => setTimeout(resolve, 300));
  // The code stands on a line of its own, under the mail's header.
  const code = /^\[gateway\] +│ {5}(\d{6})$/m.exec(stack.output().slice(before))?.[1];
  expect(code).toBeDefined();
  const verified = await json(gateway, 'POST', '/dashboard/v1/signup/verify', undefined, { email, code });
  expect(verified.status).toBe(201);
  return verified.body.data.key.key as string;
}

/** Signs in to the portal as a person does, with the code the stack prints: the session cookie and its CSRF token. */
async function signIn(stack: StackProcess, gateway: string, email: string): Promise<Session> {
  const before = stack.output().length;
  expect((await json(gateway, 'POST', '/dashboard/v1/sign-in', undefined, { email })).status).toBe(202);
  const codeIn = (): string | undefined => /^\[gateway\] +│ {5}(\d{6})$/m.exec(stack.output().slice(before))?.[1];
  for (let i = 0; i < 100 && codeIn() === undefined; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  const res = await fetch(`${gateway}/dashboard/v1/sign-in/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, code: codeIn() }) });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data: { csrf_token: string } };
  return { cookie: res.headers.get('set-cookie')!.split(';')[0]!, csrf: body.data.csrf_token };
}

async function start(env: Record<string, string>): Promise<{ stack: StackProcess } & ReturnType<typeof readBanner>> {
  running = startStackProcess(ROOT, env, ['--demo']);
  await running.waitFor(BANNER_END, 180_000);
  return { stack: running, ...readBanner(running.output()) };
}

describe('npm start -- --demo, stopped and started again', () => {
  it('when a paid plan was taken before the restart, then Billing still lists its invoice and the card portal opens, on the same stripe-local; the demo key is the same', async () => {
    const env = { ...(await freeStackPorts()), STORE_PATH: join(dir, 'tollgate.db') };
    const first = await start(env);

    // What a newcomer sees: the banner after every deployable's start-up lines (all a deployable
    // logs before `listening` is out once that line is), colour only to a terminal, request logs quiet.
    const output = first.stack.output();
    const banner = output.indexOf('Tollgate is up');
    for (const name of ['gateway', 'burger', 'token', 'logs']) {
      const listening = new RegExp(`^\\[${name} *\\] .*INFO: listening`, 'm').exec(output)?.index ?? Infinity;
      expect({ name, before: listening < banner }).toEqual({ name, before: true });
    }
    expect(output).not.toContain('\x1b[');
    expect(first.banner).toContain('sign in at');
    expect(first.banner).toContain('as demo@tollgate.local');
    expect(first.banner).toContain('pnpm webhooks:listen');

    const key = await signUp(first.stack, first.gateway, 'buyer@example.com');
    expect(first.stack.output()).not.toMatch(/request completed/);
    const session = await signIn(first.stack, first.gateway, 'buyer@example.com');
    const checkout = await json(first.gateway, 'POST', '/dashboard/v1/billing/checkout', session, { api: 'burger', plan: 'scale' });
    expect(checkout.status).toBe(200);
    expect(checkout.body.data.url.startsWith(`${first.stripeLocal}/checkout/`)).toBe(true);
    const paid = await fetch(checkout.body.data.url, { method: 'POST', body: new URLSearchParams({ cardNumber: '4242 4242 4242 4242', cardExpiry: '12 / 34', cardCvc: '123' }), redirect: 'manual' });
    expect(paid.status).toBe(303);
    const confirmed = await json(first.gateway, 'GET', `/dashboard/v1/billing/checkout/${checkout.body.data.session_id}`, key);
    expect(confirmed.body.data.subscription).toMatchObject({ api: 'burger', plan: 'scale', state: 'active' });
    expect((await json(first.gateway, 'GET', '/dashboard/v1/billing', key)).body.data.invoices).toHaveLength(1);

    process.kill(first.stack.pid, 'SIGINT');
    expect(await first.stack.exited).toBe(0);

    const again = await start(env);
    expect([again.stripeLocal, again.demoKey]).toEqual([first.stripeLocal, first.demoKey]);
    const page = await json(again.gateway, 'GET', '/dashboard/v1/billing', key);
    expect(page.body.data).toMatchObject({ subscriptions: [{ api: 'burger', plan: 'scale', state: 'active' }], missing_customers: [] });
    expect(page.body.data.invoices).toHaveLength(1);
    // The session was kept in the store across the restart.
    const portal = await json(again.gateway, 'POST', '/dashboard/v1/billing/portal', session, {});
    expect(portal.status).toBe(200);
    expect((await fetch(portal.body.data.url)).status).toBe(200);
    expect((await json(again.gateway, 'GET', '/burger/v1/meta', key)).status).toBe(200);

    // Webhooks can be tried: a loopback endpoint is taken in the demo.
    const endpoint = await json(again.gateway, 'POST', '/dashboard/v1/webhooks', key, { url: 'http://127.0.0.1:9999/', types: ['key.revoked'] });
    expect(endpoint.status).toBe(201);

    process.kill(again.stack.pid, 'SIGINT');
    expect(await again.stack.exited).toBe(0);
  });
});
