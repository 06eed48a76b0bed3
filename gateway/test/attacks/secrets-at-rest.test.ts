import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { eventually } from '../support/eventually';
import { runGatewayScript, startGatewayProcess } from '../support/gateway-process';
import type { GatewayProcess } from '../support/gateway-process';
import { rawCall } from '../support/raw-http';
import { startRedisServer } from '../support/redis-server';
import type { RedisServer } from '../support/redis-server';
import { startWebhookReceiver } from '../support/webhook-receiver';
import type { WebhookReceiver } from '../support/webhook-receiver';
import { STORE_KINDS } from './attack-target';

// Issue 35, item 9: the SQLite store and its WAL were world-readable (0644) and held webhook signing
// secrets in plain form, beside an admin token kept 0600. Every store file is 0600 now (its folder
// 0700 when the gateway makes it), and with SECRETS_KEY the signing secrets are sealed
// (AES-256-GCM) on every engine: what was kept plain is sealed at the next start, a rotation
// re-seals under the new key, and a gateway without the key refuses to start rather than sign with
// nothing.

jest.setTimeout(240_000);

const ADMIN_TOKEN = 'secrets-at-rest-admin-token-0123';
const KEY_A = Buffer.from(Array.from({ length: 32 }, (_, i) => i + 1)).toString('base64');
const KEY_B = Buffer.from(Array.from({ length: 32 }, (_, i) => 200 - i)).toString('hex');
const mode = (file: string): string => (statSync(file).mode & 0o777).toString(8);

describe.each(STORE_KINDS)('webhook signing secrets and store files at rest, with the %s store', (kind) => {
  let dir: string;
  let redis: RedisServer | undefined;
  let receiver: WebhookReceiver;
  let gateway: GatewayProcess | undefined;
  const storeFile = (): string => path.join(dir, 'data', 'tollgate.db');

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });
  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'tollgate-secrets-'));
    redis = kind === 'redis' ? await startRedisServer() : undefined;
    receiver.received.length = 0;
  });
  afterEach(async () => {
    await gateway?.stop();
    gateway = undefined;
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  // With `ADMIN_TOKEN: ''` the gateway keeps a token of its own in the file beside the store.
  let token = ADMIN_TOKEN;
  const env = (keys: Record<string, string>): Record<string, string> => ({
    ADMIN_TOKEN,
    PROXY_SECRET: 'secrets-at-rest-proxy-secret-0123',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: 'info',
    ...(redis ? { REDIS_URL: redis.url } : { STORE_PATH: storeFile() }),
    ...keys,
  });
  const start = async (keys: Record<string, string> = {}): Promise<GatewayProcess> => {
    const vars = env(keys);
    if (vars.ADMIN_TOKEN === '') delete vars.ADMIN_TOKEN;
    gateway = await startGatewayProcess(vars);
    token = vars.ADMIN_TOKEN ?? readFileSync(path.join(dir, 'data', 'admin-token'), 'utf8').trim();
    return gateway;
  };
  const stop = async (): Promise<void> => {
    await gateway?.stop();
    gateway = undefined;
  };
  const admin = (method: string, route: string, body?: unknown) =>
    rawCall(`${gateway!.url}/admin/v1${route}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const dashboard = (method: string, route: string, key: string, body?: unknown) =>
    rawCall(`${gateway!.url}/dashboard/v1${route}`, { method, headers: { 'x-tollgate-key': key, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

  /** An account with a webhook endpoint at the receiver: its key, the endpoint's id and its signing secret (shown once). */
  const endpoint = async (): Promise<{ key: string; id: string; secret: string }> => {
    const made = await admin('POST', '/keys', { owner: `owner-${kind}@example.com`, subscriptions: { token: 'free' } });
    const key = (made.json!.data as { key: string }).key;
    const res = await dashboard('POST', '/webhooks', key, { url: receiver.url, types: ['key.revoked'] });
    expect(res.status).toBe(201);
    const data = res.json!.data as { id: string; secret: string };
    return { key, id: data.id, secret: data.secret };
  };
  /** A test event sent now and received, verified with `secret` (the standardwebhooks package). */
  const signsWith = async (key: string, id: string, secret: string): Promise<void> => {
    const before = receiver.received.length;
    expect((await dashboard('POST', `/webhooks/${id}/test`, key)).status).toBe(202);
    await eventually(async () => receiver.received.length > before, 'the test event');
    expect(() => receiver.verified(secret)).not.toThrow();
  };
  /** Everything the store keeps, as bytes: the SQLite file and its WAL, or every string and hash in Redis. */
  const kept = async (): Promise<string> => {
    if (!redis) return [storeFile(), `${storeFile()}-wal`].filter(existsSync).map((f) => readFileSync(f).toString('latin1')).join('\n');
    const client = new Redis(redis.url);
    try {
      const parts: string[] = [];
      for (const name of await client.keys('*')) {
        const type = await client.type(name);
        if (type === 'string') parts.push((await client.get(name)) ?? '');
        if (type === 'hash') parts.push(JSON.stringify(await client.hgetall(name)));
      }
      return parts.join('\n');
    } finally {
      client.disconnect();
    }
  };
  const sealedLine = (g: GatewayProcess): string | undefined => g.output.map((l) => JSON.parse(l) as { msg: string }).find((l) => l.msg.startsWith('webhook signing secrets'))?.msg;

  if (kind === 'sqlite') {
    it('when the gateway makes its store, then the file, its WAL and the admin token are 0600 and the folder 0700; a store left 0644 is tightened at start', async () => {
      await start({ SECRETS_KEY: KEY_A, ADMIN_TOKEN: '' });
      await endpoint();
      expect({ folder: mode(path.dirname(storeFile())), store: mode(storeFile()), wal: mode(`${storeFile()}-wal`), token: mode(path.join(dir, 'data', 'admin-token')) }).toEqual({ folder: '700', store: '600', wal: '600', token: '600' });
      expect(existsSync(`${storeFile()}-shm`)).toBe(false);
      await stop();
      chmodSync(storeFile(), 0o644);
      await start({ SECRETS_KEY: KEY_A, ADMIN_TOKEN: '' });
      expect({ store: mode(storeFile()), wal: mode(`${storeFile()}-wal`) }).toEqual({ store: '600', wal: '600' });
    });
  }

  it('when SECRETS_KEY is set, then no signing secret is kept in plain form, and the sealed one signs', async () => {
    await start({ SECRETS_KEY: KEY_A });
    const { key, id, secret } = await endpoint();
    const rotated = await dashboard('POST', `/webhooks/${id}/rotate-secret`, key, { overlap_hours: 1 });
    const next = (rotated.json!.data as { secret: string }).secret;
    await stop();
    const store = await kept();
    expect([store.includes(secret), store.includes(next), store.includes(secret.slice(6)), store.includes(next.slice(6))]).toEqual([false, false, false, false]);
    expect(store).toContain('tgsealed:v1:');
    await start({ SECRETS_KEY: KEY_A });
    await signsWith(key, id, next);
  });

  it('when secrets were kept plain and SECRETS_KEY is set, then the next start seals them; without the key the gateway then refuses to start; a rotation re-seals under the new key', async () => {
    await start();
    const { key, id, secret } = await endpoint();
    await stop();
    expect((await kept()).includes(secret)).toBe(true);

    const sealing = await start({ SECRETS_KEY: KEY_A });
    expect(sealedLine(sealing)).toMatch(/^webhook signing secrets: 1 endpoint sealed now with SECRETS_KEY \(key [0-9a-f]{8}\)/);
    await signsWith(key, id, secret);
    await stop();
    expect((await kept()).includes(secret)).toBe(false);

    const refused = await runGatewayScript('src/main.ts', [], { ...env({}), PORT: '0' });
    expect([refused.code, refused.stderr.trim()]).toEqual([1, expect.stringMatching(/^gateway: a webhook signing secret in the store is sealed with a key this gateway does not have \(key [0-9a-f]{8}\): set SECRETS_KEY/)]);

    const rotating = await start({ SECRETS_KEY: KEY_B, SECRETS_KEY_PREVIOUS: KEY_A });
    expect(sealedLine(rotating)).toMatch(/^webhook signing secrets: 1 endpoint sealed now with SECRETS_KEY \(key [0-9a-f]{8}\)/);
    await stop();
    const afterRotation = await start({ SECRETS_KEY: KEY_B });
    expect(sealedLine(afterRotation)).toMatch(/^webhook signing secrets: every endpoint's is sealed with SECRETS_KEY/);
    await signsWith(key, id, secret);
  });
});
