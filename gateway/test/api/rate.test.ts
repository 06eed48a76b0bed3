import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Redis from 'ioredis';
import { createLogger } from '@tollgate/envelope';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { createServiceDocuments } from '../../src/data/service-documents';
import { createRedisStores } from '../../src/data/redis/redis-stores';
import { createUsageRecorder } from '../../src/data/usage-recorder';
import type { UsageRecorder } from '../../src/data/usage-recorder';
import type { QuotaStore } from '../../src/data/quota-store';
import type { Stores } from '../../src/data/stores';
import { createBackgroundLoops } from '../../src/data/background-loop';
import { createMetrics } from '../../src/http/metrics';
import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';
import { startRedisServer } from '../support/redis-server';
import type { RedisServer } from '../support/redis-server';

jest.setTimeout(90_000);

const RATE = 20;
// The stores' own timeout, longer than the 1 s they default to: this file asks what the limiter
// admits, not how fast Redis answers. Beside two busy loops, Redis left the set-up's create_account
// unanswered for 1.1 s (a fresh-clone run under load, 2026-11-29); the timeouts have their own suites.
const STORE_TIMEOUT_MS = 10_000;
let redisServer: RedisServer;
let upstream: EchoUpstream;
beforeAll(async () => {
  [redisServer, upstream] = await Promise.all([startRedisServer(), startEchoUpstream()]);
});
afterAll(async () => {
  await Promise.all([redisServer.stop(), upstream.close()]);
});

/** Records the clock value each admitted call was decided at: the times the limiter itself used. */
function recording(store: QuotaStore, admittedAt: number[]): QuotaStore {
  return {
    ...store,
    admit: async (request) => {
      const admission = await store.admit(request);
      if (admission.outcome === 'admitted') admittedAt.push(request.nowMs);
      return admission;
    },
  };
}

/** The most admitted calls found in any rolling one-second window (t - 1000, t]. */
function busiestSecond(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while ((sorted[start] as number) <= (sorted[end] as number) - 1000) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

describe('per-second rate', () => {
  it(`when two gateways sharing Redis are saturated on a ${RATE}/s plan for at least 3 s (until it refuses), then no rolling second holds more than ${RATE} admitted calls`, async () => {
    const config = loadConfig(
      { TOKEN_URL: upstream.url, PLANS_FILE: 'plans.json', LOG_LEVEL: 'silent' },
      () => JSON.stringify({ token: { playground_per_day: 0, plans: { r: { monthly_quota: 1_000_000, rate_per_second: RATE, price: 0, currency: 'EUR' } } } }),
    );
    const admittedAt: number[] = [];
    const recorders: UsageRecorder[] = [];
    const clients = [new Redis(redisServer.url), new Redis(redisServer.url)];
    // Closed whether the calls went through or not: a server or client left open would keep jest from exiting.
    const servers: http.Server[] = [];
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    const statuses: Record<number, number> = {};
    try {
      const apps = clients.map((redis) => {
        const stores: Stores = createRedisStores(redis, { clock: Date.now, timeoutMs: STORE_TIMEOUT_MS });
        const logger = createLogger({ service: 'rate-test', level: 'silent' });
        const recorder = createUsageRecorder({ store: stores.accountStore, clock: Date.now });
        recorders.push(recorder);
        return createApp({ config, stores: { ...stores, quotaStore: recording(stores.quotaStore, admittedAt) }, clock: Date.now, logger, metrics: createMetrics(), documents: createServiceDocuments({ catalogue: () => config.catalogue, clock: Date.now }), recorder, loops: createBackgroundLoops({ clock: Date.now }) });
      });
      servers.push(...await Promise.all(apps.map((app) => new Promise<http.Server>((resolve) => {
        const s = app.listen(0, '127.0.0.1', () => resolve(s));
      }))));
      const { key } = await createRedisStores(clients[0]!, { clock: Date.now, timeoutMs: STORE_TIMEOUT_MS }).keyStore.create({ owner: 'rate', subscriptions: { token: { plan: 'r', status: 'active' } } });

      // At least 3 s, and on until the limiter has had to refuse: a machine starved enough (load 21
      // on two cores) served the 16 workers fewer than 20 calls a second for all of 3 s.
      const until = Date.now() + 3_000;
      const atMost = Date.now() + 30_000;
      const worker = async (n: number) => {
        const port = (servers[n % 2]!.address() as AddressInfo).port;
        while (Date.now() < until || (!statuses[429] && Date.now() < atMost)) {
          const status = await new Promise<number>((resolve, reject) => {
            http.get({ host: '127.0.0.1', port, path: '/token/v1/prices', agent, headers: { 'x-tollgate-key': key } }, (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            }).on('error', reject);
          });
          statuses[status] = (statuses[status] ?? 0) + 1;
        }
      };
      await Promise.all(Array.from({ length: 16 }, (_, n) => worker(n)));
    } finally {
      agent.destroy();
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
      await Promise.all(recorders.map((r) => r.stop()));
      await Promise.all(clients.map((c) => c.quit()));
    }

    expect(Object.keys(statuses).sort()).toEqual(['200', '429']);
    expect(statuses[200]).toBe(admittedAt.length);
    expect(admittedAt.length).toBeGreaterThanOrEqual(2 * RATE); // saturated over several seconds, not idle
    expect(busiestSecond(admittedAt)).toBeLessThanOrEqual(RATE);
  });
});
