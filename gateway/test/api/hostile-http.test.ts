import http from 'node:http';
import net from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';
import { startGatewayProcess } from '../support/gateway-process';
import type { GatewayProcess } from '../support/gateway-process';
import { startPythonUpstream } from '../support/python-upstream';
import type { PythonUpstream } from '../support/python-upstream';
import { eventually } from '../support/eventually';
import { peerHasClosed } from '../support/tcp-state';
import { rawCall, rawSocketCall } from '../support/raw-http';
import { startRawUpstream } from '../support/raw-upstream';
import type { RawUpstream } from '../support/raw-upstream';
import { startRedisServer } from '../support/redis-server';
import type { RedisServer } from '../support/redis-server';
import { allStarted } from '../support/all-started';

jest.setTimeout(60_000);

const ADMIN_TOKEN = 'hostile-admin-token-0123456789';
const ORIGIN = 'https://app.example.test';
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'proxy-authorization', 'proxy-authenticate'];
const plan = { monthly_quota: 100_000, rate_per_second: 10_000, price: 0, currency: 'EUR' };

let redisServer: RedisServer;
let python: PythonUpstream;
let echo: EchoUpstream;
let raw: RawUpstream;
let gateway: GatewayProcess;
let dir: string;
let env: Record<string, string>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const admin = (method: string, route: string, body?: unknown) =>
  rawCall(`${gateway.url}/admin/v1${route}`, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

async function newKey(): Promise<{ id: string; key: string }> {
  const res = await admin('POST', '/keys', { owner: 'hostile@example.test', subscriptions: { burger: 'free', token: 'free', logs: 'free' } });
  expect(res.status).toBe(201);
  return res.json!.data as { id: string; key: string };
}
async function used(id: string, api: string): Promise<number> {
  const res = await admin('GET', `/keys/${id}/usage`);
  return ((res.json!.data as { apis: { api: string; used: number }[] }).apis.find((a) => a.api === api)?.used) ?? 0;
}

beforeAll(async () => {
  await allStarted([startRedisServer().then((s) => (redisServer = s)), startPythonUpstream().then((p) => (python = p)), startEchoUpstream().then((e) => (echo = e)), startRawUpstream().then((r) => (raw = r))]);
  dir = mkdtempSync(path.join(tmpdir(), 'tollgate-hostile-'));
  const plansFile = path.join(dir, 'plans.json');
  writeFileSync(plansFile, JSON.stringify(Object.fromEntries(['burger', 'token', 'logs'].map((api) => [api, { playground_per_day: 0, plans: { free: plan } }]))));
  env = {
    REDIS_URL: redisServer.url,
    PLANS_FILE: plansFile,
    ADMIN_TOKEN,
    PROXY_SECRET: 'hostile-proxy-secret-0123456789',
    BURGER_URL: python.url,
    TOKEN_URL: echo.url,
    LOGS_URL: raw.url,
    CORS_ORIGINS: ORIGIN,
    UPSTREAM_TIMEOUT_MS: '1500',
    UPSTREAM_MAX_SOCKETS: '2',
  };
  gateway = await startGatewayProcess(env);
});
afterAll(async () => {
  await gateway?.stop();
  await Promise.all([redisServer?.stop(), python?.stop(), echo?.close(), raw?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

describe('hostile and unusual HTTP against the gateway process', () => {
  it.each(['GET', 'HEAD'])('when a %s carries a Trailer header, then it is answered and the gateway stays up', async (method) => {
    const { key } = await newKey();
    const host = new URL(gateway.url).host;
    const res = await rawSocketCall(gateway.url, [`${method} /burger/v1/echo HTTP/1.1`, `Host: ${host}`, `x-tollgate-key: ${key}`, 'Trailer: x-checksum', 'TE: trailers', 'Connection: close']);
    expect(res.status).toBe(200);
    expect((await rawCall(`${gateway.url}/healthz`)).status).toBe(200);
  });

  it('when a client sends hop-by-hop headers and names the gateway header in Connection, then none reaches the service and the plan header does', async () => {
    const { key } = await newKey();
    const res = await rawSocketCall(gateway.url, [
      'GET /burger/v1/echo HTTP/1.1',
      `Host: ${new URL(gateway.url).host}`,
      `x-tollgate-key: ${key}`,
      'Connection: keep-alive, x-tollgate-subscription, x-custom',
      'x-custom: named',
      'Keep-Alive: timeout=5',
      'Proxy-Connection: keep-alive',
      'TE: trailers',
      'Trailer: x-checksum',
      'Upgrade: websocket',
      'Proxy-Authorization: Basic Zm9vOmJhcg==',
    ]);
    expect(res.status).toBe(200);
    const seen = (JSON.parse(res.body) as { headers: Record<string, string> }).headers;
    for (const name of [...HOP_BY_HOP.filter((h) => h !== 'connection'), 'x-custom']) expect(seen[name]).toBeUndefined();
    expect(seen.connection ?? 'keep-alive').toBe('keep-alive');
    expect(seen['x-tollgate-subscription']).toBe('free');
  });

  it('when the service answers with hop-by-hop headers, then none reaches the client', async () => {
    const { key } = await newKey();
    const res = await rawCall(`${gateway.url}/burger/v1/hop`, { headers: { 'x-tollgate-key': key } });
    expect(res.status).toBe(200);
    for (const name of ['x-secret', 'keep-alive', 'upgrade', 'proxy-authenticate', 'trailer']) expect(res.headers[name]).toBeUndefined();
    expect(res.headers.connection).toBe('close');
  });

  it('when 64 clients at a time send Connection: close to a Python service, then every call is answered 200', async () => {
    const { key } = await newKey();
    const statuses: number[] = [];
    for (let round = 0; round < 4; round++) {
      const answers = await Promise.all(Array.from({ length: 64 }, () => rawCall(`${gateway.url}/burger/v1/echo`, { headers: { 'x-tollgate-key': key, connection: 'close' } })));
      statuses.push(...answers.map((a) => a.status));
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });

  it('when the service has closed the kept-alive socket the gateway reuses, then the call is sent again on a fresh one and answered', async () => {
    const { key, id } = await newKey();
    const first = await rawCall(`${gateway.url}/logs/v1/once`, { headers: { 'x-tollgate-key': key } });
    const second = await rawCall(`${gateway.url}/logs/v1/once`, { headers: { 'x-tollgate-key': key } });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(raw.requests.filter((r) => r === 'GET /v1/once')).toHaveLength(3);
    expect(await used(id, 'logs')).toBe(2);
  });

  it('when calls hold every connection to a service, then another waits at most UPSTREAM_TIMEOUT_MS and gets 504, refunded', async () => {
    const { key, id } = await newKey();
    const holders = [1, 2].map(() => rawCall(`${gateway.url}/burger/v1/drip`, { headers: { 'x-tollgate-key': key } }));
    await sleep(300);
    const started = Date.now();
    const queued = await rawCall(`${gateway.url}/burger/v1/echo`, { headers: { 'x-tollgate-key': key } });
    expect(queued.status).toBe(504);
    expect(queued.json).toMatchObject({ error: { code: 'UPSTREAM_TIMEOUT', details: { reason: 'no free connection' } } });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect((await Promise.all(holders)).map((h) => h.status)).toEqual([200, 200]);
    expect(await used(id, 'burger')).toBe(2);
  });

  it('when a GET declares a body, then 400 at once, nothing forwarded, nothing charged', async () => {
    const { key, id } = await newKey();
    const before = python.url && (await rawCall(`${gateway.url}/burger/v1/echo`, { headers: { 'x-tollgate-key': key } })).status;
    expect(before).toBe(200);
    const res = await rawCall(`${gateway.url}/burger/v1/echo`, { headers: { 'x-tollgate-key': key, 'content-length': '10' }, body: '0123456789' });
    expect(res.status).toBe(400);
    expect(await used(id, 'burger')).toBe(1);
  });

  it('when the client goes away before the service answers, then the service request is aborted and the call refunded', async () => {
    const { key, id } = await newKey();
    const req = http.request(`${gateway.url}/logs/v1/hang`, { headers: { 'x-tollgate-key': key }, agent: false });
    req.on('error', () => undefined);
    req.end();
    await sleep(400);
    expect(raw.requests).toContain('GET /v1/hang');
    req.destroy();
    for (let i = 0; i < 20 && !raw.abandoned.includes('/v1/hang'); i++) await sleep(100);
    expect(raw.abandoned).toContain('/v1/hang');
    for (let i = 0; i < 20 && (await used(id, 'logs')) !== 0; i++) await sleep(100);
    expect(await used(id, 'logs')).toBe(0);
  });

  it('when the client leaves while its call is being admitted, then nothing is sent to the service and the call is given back', async () => {
    const { key, id } = await newKey();
    const before = raw.requests.filter((r) => r === 'GET /v1/hang').length;
    const socket = net.connect(Number(new URL(gateway.url).port), '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('connect', resolve));
    const localPort = socket.localPort!;
    redisServer.pause();
    try {
      socket.write(`GET /logs/v1/hang HTTP/1.1\r\nHost: x\r\nx-tollgate-key: ${key}\r\n\r\n`);
      await sleep(40);
      socket.destroy();
      // Redis answers only once the gateway has seen the client leave (it closed its side too): a
      // fixed 60 ms let a stalled gateway read Redis's answer first, in a CI run beside two busy loops.
      await eventually(async () => peerHasClosed(localPort), 'the gateway closing the connection the client left');
    } finally {
      redisServer.resume();
    }
    await sleep(500);
    expect(raw.requests.filter((r) => r === 'GET /v1/hang').length).toBe(before);
    expect(await used(id, 'logs')).toBe(0);
  });

  it('when the service drops the connection mid-answer, then the client connection is cut at once, not left hanging', async () => {
    const { key } = await newKey();
    const started = Date.now();
    await expect(rawCall(`${gateway.url}/burger/v1/drop`, { headers: { 'x-tollgate-key': key }, timeoutMs: 10_000 })).rejects.toThrow(/aborted|socket hang up|ECONNRESET/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("when the service answers with its own 5xx, then the call is refunded and the limit headers show it", async () => {
    const { key, id } = await newKey();
    const res = await rawCall(`${gateway.url}/burger/v1/status/503`, { headers: { 'x-tollgate-key': key } });
    expect(res.status).toBe(503);
    expect(res.headers['x-ratelimit-requests-remaining']).toBe(String(plan.monthly_quota));
    expect(await used(id, 'burger')).toBe(0);
    const kept = await rawCall(`${gateway.url}/burger/v1/status/404`, { headers: { 'x-tollgate-key': key } });
    expect(kept.headers['x-ratelimit-requests-remaining']).toBe(String(plan.monthly_quota - 1));
    expect(await used(id, 'burger')).toBe(1);
  });

  it('when methods, paths and preflights no data route takes are sent, then each gets its 4xx (or the 204 preflight) and nothing is charged', async () => {
    const { key, id } = await newKey();
    const headers = { 'x-tollgate-key': key };
    const cases: [string, string, Record<string, string>, number][] = [
      ['POST', '/burger/v1/echo', headers, 405],
      ['DELETE', '/burger/v1/echo', headers, 405],
      ['TRACE', '/burger/v1/echo', headers, 405],
      ['OPTIONS', '/burger/v1/echo', headers, 405],
      ['OPTIONS', '/burger/v1/echo', { origin: ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-tollgate-key' }, 204],
      ['GET', '/burger/v1/../v1/echo', headers, 400],
      ['GET', '/burger/v1/%2e%2e/echo', headers, 400],
      ['GET', '/burger/v1//echo', headers, 400],
      ['GET', '/burger/v1/%00echo', headers, 400],
      ['GET', '/burger/v1/nowhere', headers, 404],
      ['GET', '/burger/v1/constructor', headers, 404],
    ];
    for (const [method, route, h, status] of cases) {
      const res = await rawCall(`${gateway.url}${route}`, { method, headers: h });
      expect([method, route, res.status]).toEqual([method, route, status]);
      if (status === 405) expect(res.headers.allow).toBe('GET, HEAD');
      if (status === 204) expect(res.headers).toMatchObject({ 'access-control-allow-origin': ORIGIN, 'access-control-allow-methods': 'GET, HEAD' });
      if (status >= 400 && method !== 'HEAD') expect(res.json).toMatchObject({ success: false, status: 'error', data: null });
    }
    const allowed = await rawCall(`${gateway.url}/burger/v1/echo`, { headers: { ...headers, origin: ORIGIN } });
    expect(allowed.headers['access-control-allow-origin']).toBe(ORIGIN);
    const other = await rawCall(`${gateway.url}/burger/v1/echo`, { headers: { ...headers, origin: 'https://evil.example' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(await used(id, 'burger')).toBe(2);
  });

  it('when Redis stalls for 150 ms at a time while calls flow, then every 503 is uncharged: usage equals the calls answered 2xx', async () => {
    const stalled = await startGatewayProcess({ ...env, REDIS_TIMEOUT_MS: '40' });
    try {
      const { key, id } = await newKey();
      const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
      const statuses: number[] = [];
      for (let round = 0; round < 6; round++) {
        const calls = Array.from({ length: 16 }, () => rawCall(`${stalled.url}/token/v1/prices`, { headers: { 'x-tollgate-key': key }, agent }));
        redisServer.pause();
        await sleep(150);
        redisServer.resume();
        statuses.push(...(await Promise.all(calls)).map((c) => c.status));
        await sleep(100);
      }
      agent.destroy();
      expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
      expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
      await sleep(500);
      expect(await used(id, 'token')).toBe(statuses.filter((s) => s === 200).length);
    } finally {
      redisServer.resume();
      await stalled.stop();
    }
  });

  it('when an admin creates a key while Redis is frozen, then 503, and no record is left behind', async () => {
    const redis = new Redis(redisServer.url);
    try {
      const records = async () => (await redis.keys('gw:*:key')).length;
      const before = await records();
      redisServer.pause();
      let res;
      try {
        res = await admin('POST', '/keys', { owner: 'frozen@example.test' });
        await sleep(200);
      } finally {
        redisServer.resume();
      }
      expect(res.status).toBe(503);
      await sleep(500);
      expect(await records()).toBe(before);
      expect(await redis.scard('gw:keys')).toBe(before);
    } finally {
      redis.disconnect();
    }
  });

  it('when 1,000 new connections arrive at once with Redis healthy, then none gets a 503', async () => {
    // The default pool and timeouts: this is about the store, not about waiting for a connection.
    const roomy = await startGatewayProcess({ ...env, UPSTREAM_MAX_SOCKETS: '256', UPSTREAM_TIMEOUT_MS: '15000' });
    try {
      const { key } = await newKey();
      const answers = await Promise.all(Array.from({ length: 1_000 }, () => rawCall(`${roomy.url}/token/v1/prices`, { headers: { 'x-tollgate-key': key }, timeoutMs: 30_000 }).then((a) => a.status, () => 0)));
      const counts: Record<number, number> = {};
      for (const s of answers) counts[s] = (counts[s] ?? 0) + 1;
      expect(counts).toEqual({ 200: 1_000 });
    } finally {
      await roomy.stop();
    }
  });

  it('when QUOTA_FAIL_MODE=open and a key is revoked through one gateway, then another refuses it while Redis is down', async () => {
    const open = { ...env, QUOTA_FAIL_MODE: 'open' };
    const started: GatewayProcess[] = [];
    try {
      await allStarted([open, open].map(async (e) => started.push(await startGatewayProcess(e))));
      const [a, b] = started as [GatewayProcess, GatewayProcess];
      await eventually(async () => ((await rawCall(`${b.url}/readyz`)).json?.data as { revocations_heard?: boolean } | undefined)?.revocations_heard === true, 'revocations heard');
      const { key, id } = await newKey();
      const call = (g: GatewayProcess) => rawCall(`${g.url}/token/v1/prices`, { headers: { 'x-tollgate-key': key } });
      expect((await call(b)).status).toBe(200);
      const other = await newKey();
      expect((await rawCall(`${b.url}/token/v1/prices`, { headers: { 'x-tollgate-key': other.key } })).status).toBe(200);
      const revoked = await rawCall(`${a.url}/admin/v1/keys/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(revoked.status).toBe(200);
      await sleep(200);
      redisServer.pause();
      try {
        const refused = await call(b);
        expect(refused.status).toBe(503);
        expect((await rawCall(`${b.url}/token/v1/prices`, { headers: { 'x-tollgate-key': other.key } })).status).toBe(200);
      } finally {
        redisServer.resume();
      }
    } finally {
      await Promise.all(started.map((g) => g.stop()));
    }
  });

  it('when METRICS_PORT is set, then /metrics is served there and not on the public port', async () => {
    const withPort = await startGatewayProcess({ ...env, METRICS_PORT: '0' });
    try {
      expect((await rawCall(`${withPort.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).status).toBe(404);
      const line = withPort.output.map((l) => JSON.parse(l) as { msg?: string; port?: number }).find((l) => l.msg === 'metrics listening');
      const metrics = await rawCall(`http://127.0.0.1:${line!.port}/metrics`);
      expect(metrics.status).toBe(200);
      expect(metrics.body).toContain('tollgate_gateway_calls_total');
    } finally {
      await withPort.stop();
    }
  });
});
