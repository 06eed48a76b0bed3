import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { createRedisStores } from '../../src/data/redis/redis-stores';
import { disconnectRedis, useCloseAfterEach } from '../support/close-after-each';
import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';
import { startGatewayProcess } from '../support/gateway-process';
import type { GatewayProcess } from '../support/gateway-process';
import { startRedisServer } from '../support/redis-server';
import type { RedisServer } from '../support/redis-server';
import { allStarted } from '../support/all-started';

jest.setTimeout(90_000);

const ADMIN_TOKEN = 'accuracy-admin-token-0123456789';
let redisServer: RedisServer;
let upstream: EchoUpstream;
const gateways: GatewayProcess[] = [];
let dir: string;

beforeAll(async () => {
  await allStarted([startRedisServer().then((s) => (redisServer = s)), startEchoUpstream().then((u) => (upstream = u))]);
  dir = mkdtempSync(path.join(tmpdir(), 'tollgate-accuracy-'));
  const plansFile = path.join(dir, 'plans.json');
  writeFileSync(plansFile, JSON.stringify({ token: { playground_per_day: 0, plans: { thousand: { monthly_quota: 1000, rate_per_second: 10000, price: 0, currency: 'EUR' } } } }));
  const env = { REDIS_URL: redisServer.url, PLANS_FILE: plansFile, TOKEN_URL: upstream.url, ADMIN_TOKEN, REDIS_TIMEOUT_MS: '5000', PROXY_SECRET: 'accuracy-proxy-secret-0123' };
  await allStarted([env, env].map(async (e) => gateways.push(await startGatewayProcess(e))));
});

afterAll(async () => {
  await Promise.all(gateways.map((g) => g.stop()));
  await Promise.all([redisServer?.stop(), upstream?.close()]);
  rmSync(dir, { recursive: true, force: true });
});
const closeAfterEach = useCloseAfterEach();

function get(agent: http.Agent, url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

describe('accuracy across gateway processes', () => {
  it('when two gateways sharing one Redis get 5,000 concurrent calls on a 1,000-call monthly quota, then exactly 1,000 are admitted and usage reads 1,000', async () => {
    const redis = closeAfterEach(new Redis(redisServer.url), disconnectRedis);
    const { keyStore } = createRedisStores(redis, { clock: Date.now });
    const { key, record } = await keyStore.create({ owner: 'load', subscriptions: { token: { plan: 'thousand', status: 'active' } } });
    await redis.quit();

    const agents = gateways.map(() => new http.Agent({ keepAlive: true, maxSockets: 100 }));
    const results = await Promise.all(
      Array.from({ length: 5000 }, (_, i) => get(agents[i % 2]!, `${gateways[i % 2]!.url}/token/v1/prices?i=${i}`, { 'x-tollgate-key': key })),
    );
    agents.forEach((a) => a.destroy());

    const byStatus: Record<number, number> = {};
    for (const r of results) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
    expect(byStatus).toEqual({ 200: 1000, 429: 4000 });
    expect(upstream.seen).toHaveLength(1000);

    const usage = await get(new http.Agent(), `${gateways[1]!.url}/admin/v1/keys/${record.id}/usage`, { Authorization: `Bearer ${ADMIN_TOKEN}` });
    expect(JSON.parse(usage.body).data.apis).toEqual([expect.objectContaining({ api: 'token', used: 1000, remaining: 0, limit: 1000 })]);
  });
});
