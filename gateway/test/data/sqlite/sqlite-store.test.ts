import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monthWindow } from '../../../src/domain/windows';
import { startEchoUpstream } from '../../support/echo-upstream';
import type { EchoUpstream } from '../../support/echo-upstream';
import { runGatewayScript, startGatewayProcess } from '../../support/gateway-process';
import type { GatewayProcess } from '../../support/gateway-process';
import { rawCall } from '../../support/raw-http';
import type { RawAnswer } from '../../support/raw-http';

jest.setTimeout(90_000);

const ADMIN_TOKEN = 'sqlite-store-admin-token-0123';
let upstream: EchoUpstream;
let dir: string;
let env: Record<string, string>;
let files = 0;
const running = new Set<GatewayProcess>();

/** A gateway process on an embedded store file; stopped (or killed) after each test. */
async function startGateway(storePath: string): Promise<GatewayProcess> {
  const gateway = await startGatewayProcess({ ...env, STORE_PATH: storePath });
  running.add(gateway);
  return gateway;
}

/** A call with a JSON body (when given), through the tests' plain HTTP client. */
function send(method: string, url: string, options: { agent?: http.Agent; headers?: Record<string, string>; body?: unknown } = {}): Promise<RawAnswer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return rawCall(url, { method, agent: options.agent, headers: { ...options.headers, ...(body ? { 'content-type': 'application/json' } : {}) }, body });
}
async function admin<T>(method: string, url: string, body?: unknown, expected = [200, 201]): Promise<T> {
  const res = await send(method, url, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` }, body });
  if (!expected.includes(res.status)) throw new Error(`${method} ${url}: ${res.status} ${res.body}`);
  return (JSON.parse(res.body) as { data: T }).data;
}
const call = async (gateway: GatewayProcess, key: string): Promise<number> => (await send('GET', `${gateway.url}/token/v1/prices`, { headers: { 'x-tollgate-key': key } })).status;
const used = async (gateway: GatewayProcess, accountId: string): Promise<number> =>
  (await admin<{ apis: { api: string; used: number }[] }>('GET', `${gateway.url}/admin/v1/accounts/${accountId}/usage`)).apis.find((line) => line.api === 'token')!.used;
type KeyPage = { items: { id: string; last_used_at: string | null }[]; next_cursor: string | null };
const withoutLastUse = (page: KeyPage): KeyPage => ({ ...page, items: page.items.map((k) => ({ ...k, last_used_at: null })) });
const freshStore = (): string => path.join(dir, `run-${++files}`, 'tollgate.db');

beforeAll(async () => {
  upstream = await startEchoUpstream();
  dir = mkdtempSync(path.join(tmpdir(), 'tollgate-sqlite-it-'));
  const plansFile = path.join(dir, 'plans.json');
  writeFileSync(
    plansFile,
    JSON.stringify({
      token: {
        playground_per_day: 0,
        plans: { five: { monthly_quota: 5, rate_per_second: 1000, price: 0, currency: 'EUR' }, big: { monthly_quota: 100_000_000, rate_per_second: 10_000, price: 0, currency: 'EUR' } },
      },
    }),
  );
  env = { PLANS_FILE: plansFile, TOKEN_URL: upstream.url, ADMIN_TOKEN, PROXY_SECRET: 'sqlite-store-proxy-secret-0123' };
  // The gateways count by the real clock: keep each test inside one UTC month.
  const untilNextMonth = monthWindow(Date.now()).endMs - Date.now();
  if (untilNextMonth < 60_000) await new Promise((resolve) => setTimeout(resolve, untilNextMonth + 100));
});
afterEach(async () => {
  for (const gateway of [...running]) await gateway.kill();
  running.clear();
});
afterAll(async () => {
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the embedded SQLite store, with real gateway processes', () => {
  it('when a gateway is stopped gracefully and started again on the same STORE_PATH, then accounts, keys, subscriptions, counters and history are all there, exact', async () => {
    const store = freshStore();
    const first = await startGateway(store);
    expect(first.output.some((line) => line.includes(`embedded SQLite file ${store}`))).toBe(true);
    const account = await admin<{ id: string }>('POST', `${first.url}/admin/v1/accounts`, { email: 'durable@example.com', name: 'Durable' });
    await admin('PUT', `${first.url}/admin/v1/accounts/${account.id}/subscriptions/token`, { plan: 'five' });
    const key = await admin<{ id: string; key: string }>('POST', `${first.url}/admin/v1/accounts/${account.id}/keys`, { name: 'main' });
    const other = await admin<{ id: string; key: string }>('POST', `${first.url}/admin/v1/accounts/${account.id}/keys`, { name: 'other' });
    await admin('DELETE', `${first.url}/admin/v1/keys/${other.id}`);
    for (let i = 0; i < 3; i++) expect(await call(first, key.key)).toBe(200);
    const before = {
      account: await admin('GET', `${first.url}/admin/v1/accounts/${account.id}`),
      keys: withoutLastUse(await admin<KeyPage>('GET', `${first.url}/admin/v1/accounts/${account.id}/keys`)),
    };
    expect(await used(first, account.id)).toBe(3);
    await first.stop();

    const second = await startGateway(store);
    expect(await admin('GET', `${second.url}/admin/v1/accounts/${account.id}`)).toEqual(before.account);
    const keys = await admin<KeyPage>('GET', `${second.url}/admin/v1/accounts/${account.id}/keys`);
    expect(withoutLastUse(keys)).toEqual(before.keys);
    // The last use, written by the graceful stop's final flush.
    expect(keys.items.find((k) => k.id === key.id)?.last_used_at).toEqual(expect.stringMatching(/^\d{4}-/));
    expect(await used(second, account.id)).toBe(3);
    const history = await admin<{ days: { api: string; counts: Record<string, number> }[] }>('GET', `${second.url}/admin/v1/accounts/${account.id}/history`);
    expect(history.days.filter((d) => d.api === 'token').reduce((sum, d) => sum + (d.counts['2xx'] ?? 0), 0)).toBe(3);
    expect(await call(second, other.key)).toBe(401);
    // The month's quota of 5 holds across the restart: two more calls, then 429.
    expect([await call(second, key.key), await call(second, key.key), await call(second, key.key)]).toEqual([200, 200, 429]);
    const ready = await admin<{ status: string; store: string; background: Record<string, { stale: boolean }> }>('GET', `${second.url}/readyz`);
    expect(ready).toMatchObject({ status: 'ready', store: 'sqlite' });
    // Every background loop of a gateway on SQLite (role all), none stale.
    expect(Object.keys(ready.background).sort()).toEqual(['account_sweeps', 'quota_alerts', 'quota_thresholds', 'sqlite_write', 'usage_history', 'webhook_delivery']);
    expect(Object.values(ready.background).filter((loop) => loop.stale)).toEqual([]);
  });

  it('when the gateway is killed (kill -9) right after a key creation was answered 201, then after a restart the key works', async () => {
    const store = freshStore();
    const first = await startGateway(store);
    const created = await send('POST', `${first.url}/admin/v1/keys`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` }, body: { owner: 'crash@example.com', subscriptions: { token: 'five' } } });
    expect(created.status).toBe(201);
    await first.kill();
    const key = (JSON.parse(created.body) as { data: { key: string } }).data.key;

    const second = await startGateway(store);
    expect(await call(second, key)).toBe(200);
  });

  it('when the gateway is killed (kill -9) under load, then after a restart the month counter holds every call answered more than a second before, and no more than were sent', async () => {
    const store = freshStore();
    const first = await startGateway(store);
    const key = await admin<{ key: string; account_id: string }>('POST', `${first.url}/admin/v1/keys`, { owner: 'load@example.com', subscriptions: { token: 'big' } });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
    const answered: number[] = []; // when each 200 arrived
    let sent = 0;
    let killing = false;
    const worker = async (): Promise<void> => {
      while (!killing) {
        sent++;
        try {
          const res = await send('GET', `${first.url}/token/v1/prices`, { agent, headers: { 'x-tollgate-key': key.key } });
          if (res.status === 200) answered.push(Date.now());
        } catch {
          return; // the gateway is gone
        }
      }
    };
    const workers = Array.from({ length: 32 }, worker);
    // At least 3.5 s, and on a busy machine (calls answered slowly) until more than 100 were answered
    // 1.5 s before now, which the assertion below needs to say anything.
    const started = Date.now();
    const answeredBefore = (at: number): number => answered.filter((t) => t < at).length;
    while (Date.now() - started < 3_500 || answeredBefore(Date.now() - 1_500) <= 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    killing = true;
    const killedAt = Date.now();
    await first.kill();
    await Promise.all(workers);
    agent.destroy();

    const second = await startGateway(store);
    const counted = await used(second, key.account_id);
    // Flushed once a second: what was answered before the last flush is on disk. 1.5 s allows the
    // flush timer to run late under load.
    const early = answeredBefore(killedAt - 1_500);
    expect(early).toBeGreaterThan(100);
    expect(counted).toBeGreaterThanOrEqual(early);
    expect(counted).toBeLessThanOrEqual(sent);
  });

  it('when a second gateway starts on a STORE_PATH in use, then it exits 1 with one line saying so, and the first keeps working', async () => {
    const store = freshStore();
    const first = await startGateway(store);
    const second = await runGatewayScript('src/main.ts', [], { ...env, PORT: '0', STORE_PATH: store, LOG_LEVEL: 'silent' });
    expect(second.code).toBe(1);
    expect(second.stderr).toBe(`gateway: STORE_PATH ${store} is in use by another gateway process (one process per store file): stop that one, or set STORE_PATH to another file\n`);
    const key = await admin<{ key: string }>('POST', `${first.url}/admin/v1/keys`, { owner: 'still@example.com', subscriptions: { token: 'five' } });
    expect(await call(first, key.key)).toBe(200);
  });
});
