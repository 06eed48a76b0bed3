import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eventually } from '../support/eventually';
import { startGatewayProcess } from '../support/gateway-process';
import type { GatewayProcess } from '../support/gateway-process';
import { startPythonUpstream } from '../support/python-upstream';
import type { PythonUpstream } from '../support/python-upstream';
import { startRedisServer } from '../support/redis-server';
import type { RedisServer } from '../support/redis-server';

jest.setTimeout(120_000);

// Several gateways on one Redis, each reading the same catalogue file (a shared volume, a config
// map): each is told to reload (SIGHUP, or the admin route on each), as docs/catalogue.md says.
const BUILT_IN = readFileSync(path.resolve(__dirname, '../../catalogue/built-in.yaml'), 'utf8');
const ADMIN_TOKEN = 'fleet-admin-token-of-the-operator';
const WEATHER = (upstream: string): string => `
  weather:
    title: Weather
    summary: Tomorrow's temperature for a city.
    upstream: ${upstream}
    plans:
      free: { monthly_quota: 5, rate_per_second: 50, price: 0, currency: USD }
`;

let redis: RedisServer;
let weather: PythonUpstream;
let dir: string;
let file: string;
const gateways: GatewayProcess[] = [];

beforeAll(async () => {
  [redis, weather] = await Promise.all([startRedisServer(), startPythonUpstream('weather-service.py')]);
  dir = mkdtempSync(path.join(tmpdir(), 'tollgate-fleet-'));
  file = path.join(dir, 'catalogue.yaml');
  writeFileSync(file, BUILT_IN);
  const env = { REDIS_URL: redis.url, CATALOGUE_FILE: file, ADMIN_TOKEN, LOG_LEVEL: 'info' };
  // One after the other: both at once on a loaded machine may miss the shared start-up limit.
  gateways.push(await startGatewayProcess(env));
  gateways.push(await startGatewayProcess(env));
});

afterAll(async () => {
  await Promise.all(gateways.map((g) => g.stop()));
  await Promise.all([redis?.stop(), weather?.stop()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function admin<T>(gateway: GatewayProcess, method: string, route: string, body?: unknown): Promise<{ status: number; data: T; message: string }> {
  const res = await fetch(`${gateway.url}/admin/v1/${route}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = (await res.json()) as { data: T; message: string };
  return { status: res.status, data: parsed.data, message: parsed.message };
}

const inForce = async (gateway: GatewayProcess): Promise<{ digest: string; apis: string[] }> => {
  const { data } = await admin<{ digest: string; apis: Record<string, unknown> }>(gateway, 'GET', 'catalogue');
  return { digest: data.digest, apis: Object.keys(data.apis) };
};

const call = async (gateway: GatewayProcess, secret: string): Promise<number> => (await fetch(`${gateway.url}/weather/v1/forecast/oslo`, { headers: { 'x-tollgate-key': secret } })).status;

describe('one catalogue file, two gateways on one Redis', () => {
  it('when the file changes and each gateway is told (SIGHUP, the admin route), then both serve the same catalogue, share the new API’s quota, withdraw it together, and a bad file changes neither', async () => {
    const [a, b] = gateways as [GatewayProcess, GatewayProcess];
    const before = await inForce(a);
    expect(await inForce(b)).toEqual(before);
    expect(before.apis).toEqual(['burger', 'token', 'logs']);

    // The file gains an API; until a gateway is told, it serves what it had.
    writeFileSync(file, BUILT_IN + WEATHER(weather.url));
    expect((await inForce(a)).digest).toBe(before.digest);
    a.signal('SIGHUP');
    b.signal('SIGHUP');
    await eventually(async () => (await inForce(a)).digest !== before.digest && (await inForce(b)).digest !== before.digest, 'both gateways reloading on SIGHUP');
    const added = await inForce(a);
    expect(await inForce(b)).toEqual(added);
    expect(added.apis).toEqual(['burger', 'token', 'logs', 'weather']);

    // An account made and subscribed through one gateway calls through both; the monthly quota (5) is one, in Redis.
    const account = await admin<{ id: string }>(a, 'POST', 'accounts', { email: 'fleet@example.com' });
    expect(account.status).toBe(201);
    expect((await admin(b, 'PUT', `accounts/${account.data.id}/subscriptions/weather`, { plan: 'free' })).status).toBe(200);
    const key = await admin<{ key: string }>(b, 'POST', `accounts/${account.data.id}/keys`, { name: 'fleet' });
    const secret = key.data.key;
    const statuses = [];
    for (const gateway of [a, b, a, b, a, b]) statuses.push(await call(gateway, secret));
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);

    // Each reload is in the one audit log, by the signal.
    const audit = await admin<{ items: { action: string; actor: { id: string } }[] }>(a, 'GET', 'audit?limit=50');
    expect(audit.data.items.filter((e) => e.action === 'catalogue.reload').map((e) => e.actor.id)).toEqual(['signal:SIGHUP', 'signal:SIGHUP']);

    // The API leaves the file; the admin route on each gateway withdraws it there: 410 on both.
    writeFileSync(file, BUILT_IN);
    const reloads = await Promise.all([a, b].map((g) => admin<{ digest: string; changes: { removed: string[] } }>(g, 'POST', 'catalogue/reload')));
    expect(reloads.map((r) => [r.status, r.data.digest, r.data.changes.removed])).toEqual([
      [200, before.digest, ['weather']],
      [200, before.digest, ['weather']],
    ]);
    expect([await call(a, secret), await call(b, secret)]).toEqual([410, 410]);

    // A bad file: SIGHUP to each leaves both on the catalogue in force, the error in each one's log.
    writeFileSync(file, BUILT_IN.replace('price: 575', 'price: -575'));
    a.signal('SIGHUP');
    b.signal('SIGHUP');
    const refused = (g: GatewayProcess): boolean => g.output.some((line) => line.includes('catalogue not reloaded') && line.includes('apis.burger.plans.starter.price must be >= 0'));
    await eventually(async () => refused(a) && refused(b), 'both gateways logging the bad file');
    expect([await inForce(a), await inForce(b)]).toEqual([before, before]);
    expect((await fetch(`${a.url}/token/v1/prices`)).status).toBe(401);
  });
});
