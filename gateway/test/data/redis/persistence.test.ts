import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
});
