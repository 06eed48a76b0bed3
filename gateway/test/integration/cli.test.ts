import Redis from 'ioredis';
import { createRedisStores } from '../../src/data/redis-stores';
import { hashApiKey } from '../../src/domain/api-key';
import { BUILT_IN_PLANS } from '../../src/domain/plans';
import { runGatewayScript } from '../support/gateway-process';
import { startRedisServer } from '../support/redis-server';
import type { RedisServer } from '../support/redis-server';

let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(() => server.stop());

jest.setTimeout(30_000);

const cli = (...args: string[]) => runGatewayScript('src/cli.ts', args, { REDIS_URL: server.url });

describe('operator CLI', () => {
  it('when a key is created, listed, subscribed, used, read and revoked, then the store and the gateway agree', async () => {
    const created = await cli('create', '--owner', 'ops@example.com', '--subscribe', 'burger=starter');
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout) as { id: string; key: string; subscriptions: object };
    expect(key.subscriptions).toEqual({ burger: { plan: 'starter', status: 'active' } });

    const listed = JSON.parse((await cli('list')).stdout) as { id: string }[];
    expect(listed.map((k) => k.id)).toContain(key.id);

    const subscribed = await cli('subscribe', key.id, 'token', 'pro');
    expect(JSON.parse(subscribed.stdout).subscriptions.token).toEqual({ plan: 'pro', status: 'active' });

    // A call admitted through the same store shows up in the CLI's usage.
    const redis = new Redis(server.url);
    const { quotaStore } = createRedisStores(redis, { clock: Date.now });
    const admitted = await quotaStore.admit({ keyId: key.id, keyHash: hashApiKey(key.key), api: 'token', apiPlans: BUILT_IN_PLANS.token!, nowMs: Date.now() });
    expect(admitted.outcome).toBe('admitted');
    const usage = JSON.parse((await cli('usage', key.id)).stdout) as { apis: { api: string; used: number; limit: number }[] };
    expect(usage.apis.find((a) => a.api === 'token')).toMatchObject({ used: 1, limit: 650_000 });

    const revoked = JSON.parse((await cli('revoke', key.id)).stdout) as { revoked_at: string | null };
    expect(revoked.revoked_at).not.toBeNull();
    const after = await quotaStore.admit({ keyId: key.id, keyHash: hashApiKey(key.key), api: 'token', apiPlans: BUILT_IN_PLANS.token!, nowMs: Date.now() });
    expect(after.outcome).toBe('revoked');
    await redis.quit();
  });

  it.each([
    [['subscribe', 'key_000000000000000000000000', 'token', 'gold'], 2, 'plan must be one of free, starter, pro, scale for token'],
    [['launch'], 2, "unknown command 'launch'"],
    [['revoke', 'key_000000000000000000000000'], 1, 'no API key with id key_000000000000000000000000'],
  ])('when the command is %j, then exit %d with one line saying why', async (args, code, message) => {
    const result = await cli(...args);
    expect(result.code).toBe(code);
    expect(result.stderr.split('\n')[0]).toBe(`gateway cli: ${message}`);
  });
});

describe('gateway start-up', () => {
  it('when PLANS_FILE is invalid, then the process exits 1 with one line naming the problem', async () => {
    const result = await runGatewayScript('src/main.ts', [], { PLANS_FILE: '/nonexistent/plans.json', PORT: '0' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^gateway: PLANS_FILE \/nonexistent\/plans\.json cannot be read: ENOENT[^\n]*\n$/);
  });
});
