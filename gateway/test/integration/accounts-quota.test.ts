import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { redisKeys } from '../../src/data/redis-keys';
import { monthWindow } from '../../src/domain/windows';
import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';
import { eventually } from '../support/eventually';
import { startGatewayProcess } from '../support/gateway-process';
import type { GatewayProcess } from '../support/gateway-process';
import { startRedisServer } from '../support/redis-server';
import type { RedisServer } from '../support/redis-server';

jest.setTimeout(90_000);

const Q = 200;
const ADMIN_TOKEN = 'accounts-quota-admin-token-0123';
let redisServer: RedisServer;
let upstream: EchoUpstream;
let gateways: GatewayProcess[] = [];
let dir: string;

beforeAll(async () => {
  [redisServer, upstream] = await Promise.all([startRedisServer(), startEchoUpstream()]);
  dir = mkdtempSync(path.join(tmpdir(), 'tollgate-accounts-quota-'));
  const plansFile = path.join(dir, 'plans.json');
  // A rate far above what the test sends: only the monthly quota can refuse.
  writeFileSync(plansFile, JSON.stringify({ token: { playground_per_day: 0, plans: { q: { monthly_quota: Q, rate_per_second: 10_000, price: 0, currency: 'EUR' } } } }));
  const env = { REDIS_URL: redisServer.url, PLANS_FILE: plansFile, TOKEN_URL: upstream.url, ADMIN_TOKEN, REDIS_TIMEOUT_MS: '5000', PROXY_SECRET: 'accounts-quota-proxy-secret' };
  gateways = await Promise.all([startGatewayProcess(env), startGatewayProcess(env)]);
});

afterAll(async () => {
  await Promise.all(gateways.map((g) => g.stop()));
  await Promise.all([redisServer.stop(), upstream.close()]);
  rmSync(dir, { recursive: true, force: true });
});

function send(method: string, url: string, options: { agent?: http.Agent; headers?: Record<string, string>; body?: unknown } = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = http.request(url, { method, agent: options.agent, headers: { ...options.headers, ...(payload ? { 'content-type': 'application/json' } : {}) } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}
const admin = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
  const res = await send(method, url, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` }, body });
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${res.body}\n${gateways.flatMap((g) => g.output.filter((line) => line.includes('"level":50'))).join('\n')}`);
  return (JSON.parse(res.body) as { data: T }).data;
};

describe('one account, two keys, two gateways', () => {
  it(`when ${5 * Q} calls arrive at once over both keys and both gateways on a ${Q}-call monthly quota, then exactly ${Q} are admitted and the account's usage is ${Q}`, async () => {
    const [a, b] = gateways as [GatewayProcess, GatewayProcess];
    // The gateways count by the real clock: keep the burst inside one UTC month.
    const untilNextMonth = monthWindow(Date.now()).endMs - Date.now();
    if (untilNextMonth < 30_000) await new Promise((resolve) => setTimeout(resolve, untilNextMonth + 100));

    const first = await admin<{ id: string; key: string; account_id: string }>('POST', `${a.url}/admin/v1/keys`, { owner: 'team@example.com', subscriptions: { token: 'q' } });
    const second = await admin<{ id: string; key: string; account_id: string }>('POST', `${b.url}/admin/v1/accounts/${first.account_id}/keys`, { name: 'second' });
    expect(second.account_id).toBe(first.account_id);
    expect(second.key).not.toBe(first.key);
    const accountId = first.account_id;

    const agents = gateways.map(() => new http.Agent({ keepAlive: true, maxSockets: 64 }));
    // Every pairing of key and gateway: call i uses key i % 2 on gateway ⌊i / 2⌋ % 2.
    const results = await Promise.all(
      Array.from({ length: 5 * Q }, (_, i) => {
        const g = Math.floor(i / 2) % 2;
        return send('GET', `${gateways[g]!.url}/token/v1/prices?i=${i}`, { agent: agents[g], headers: { 'x-tollgate-key': (i % 2 ? second : first).key } }).then((r) => ({ ...r, key: i % 2, gateway: g }));
      }),
    );
    agents.forEach((agent) => agent.destroy());

    const count = (status: number) => results.filter((r) => r.status === status).length;
    expect({ 200: count(200), 429: count(429), other: results.length - count(200) - count(429) }).toEqual({ 200: Q, 429: 4 * Q, other: 0 });
    for (const refused of results.filter((r) => r.status === 429)) expect(JSON.parse(refused.body).error.code).toBe('QUOTA_EXCEEDED');

    // Usage is the account's: the same through either key and on either gateway.
    const usage = await admin<{ account_id: string; apis: { api: string; used: number; remaining: number }[] }>('GET', `${b.url}/admin/v1/accounts/${accountId}/usage`);
    expect(usage.apis.find((line) => line.api === 'token')).toMatchObject({ used: Q, remaining: 0 });
    for (const [g, k] of [[a, first], [b, second]] as const) {
      const perKey = await admin<{ apis: { api: string; used: number }[] }>('GET', `${g.url}/admin/v1/keys/${k.id}/usage`);
      expect(perKey.apis.find((line) => line.api === 'token')?.used).toBe(Q);
    }
    const redis = new Redis(redisServer.url);
    try {
      expect(await redis.get(redisKeys.month(accountId, 'token', monthWindow(Date.now()).id))).toBe(String(Q));
    } finally {
      await redis.quit();
    }

    // Each gateway flushes its counts of the history within a second: together they hold every call.
    type History = { days: { day: string; api: string; counts: Record<string, number> }[] };
    const totals = async (): Promise<Record<string, number>> => {
      const history = await admin<History>('GET', `${a.url}/admin/v1/accounts/${accountId}/history`);
      const sum: Record<string, number> = {};
      for (const day of history.days.filter((d) => d.api === 'token')) for (const [outcome, n] of Object.entries(day.counts)) sum[outcome] = (sum[outcome] ?? 0) + n;
      return sum;
    };
    await eventually(async () => (await totals())['2xx'] === Q && (await totals())['429'] === 4 * Q, 'the history reaching every call');
    expect(await totals()).toMatchObject({ '2xx': Q, '429': 4 * Q, '4xx': 0, '5xx': 0, refunded: 0 });
  });
});
