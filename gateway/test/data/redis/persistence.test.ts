import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { createRedisStores } from '../../../src/data/redis/redis-stores';
import { usageFields } from '../../../src/data/usage-breakdown';
import { disconnectRedis, useCloseAfterEach } from '../../support/close-after-each';
import { startGatewayProcess } from '../../support/gateway-process';
import { rawCall } from '../../support/raw-http';
import { startRedisServer } from '../../support/redis-server';
import type { RedisServer } from '../../support/redis-server';

jest.setTimeout(30_000);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tollgate-aof-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const closeAfterEach = useCloseAfterEach();

// /readyz once the gateway has read the settings (they are read when the connection is ready).
async function readiness(redisServer: RedisServer): Promise<{ persistence: unknown; warned: boolean }> {
  const gateway = await startGatewayProcess({ REDIS_URL: redisServer.url });
  try {
    let persistence: unknown = 'unknown';
    for (let i = 0; i < 40 && persistence === 'unknown'; i++) {
      persistence = ((await rawCall(`${gateway.url}/readyz`)).json?.data as { store_persistence?: string }).store_persistence;
      if (persistence === 'unknown') await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The warning is logged with the read that set the answer; give the log batch its 250 ms.
    await new Promise((resolve) => setTimeout(resolve, 400));
    return { persistence, warned: gateway.output.some((l) => l.includes('REDIS PERSISTS NOTHING')) };
  } finally {
    await gateway.stop();
  }
}

describe('Redis as the system of record', () => {
  it('when Redis persists nothing, then the gateway warns loudly at start and /readyz says so; with AOF on, neither', async () => {
    for (const [options, expected] of [
      [{}, { persistence: 'none', warned: true }],
      [{ aofDir: dir }, { persistence: 'aof', warned: false }],
    ] as const) {
      const redisServer = await startRedisServer(options);
      try {
        expect(await readiness(redisServer)).toEqual(expected);
      } finally {
        await redisServer.stop();
      }
    }
  });

  it('when Redis restarts with AOF on, then an account’s day in detail is still there', async () => {
    const aofDir = mkdtempSync(path.join(dir, 'restart-'));
    const first = closeAfterEach(await startRedisServer({ aofDir }), (server) => server.stop());
    const now = Date.parse('2026-03-10T12:00:00Z');
    let redis = closeAfterEach(new Redis(first.url), disconnectRedis);
    const { accountStore } = createRedisStores(redis, { clock: () => now });
    const account = await accountStore.createAccount({ name: 'kept' });
    await accountStore.record([{ accountId: account.id, api: 'token', dayId: '2026-03-10', outcome: '2xx', count: 2 }], new Map(), 'b1', [
      { accountId: account.id, dayId: '2026-03-10', field: usageFields.keyCalls('key_kept'), count: 2 },
      { accountId: account.id, dayId: '2026-03-10', field: usageFields.endpointCalls('token', '/v1/meta'), count: 2 },
    ]);
    const before = await accountStore.usageBreakdown(account.id, '2026-03-10', '2026-03-10');
    await redis.quit();
    await first.stop();
    const second = closeAfterEach(await startRedisServer({ aofDir, port: first.port }), (server) => server.stop());
    redis = closeAfterEach(new Redis(second.url), disconnectRedis);
    const after = await createRedisStores(redis, { clock: () => now }).accountStore.usageBreakdown(account.id, '2026-03-10', '2026-03-10');
    expect(after).toEqual(before);
    expect(after?.[0]?.keys).toEqual([{ key_id: 'key_kept', calls: 2, errors: 0 }]);
  });
});
