import http from 'node:http';
import Redis from 'ioredis';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { redisKeys } from '../../src/data/redis/redis-keys';
import { monthWindow } from '../../src/domain/windows';
import { startEchoUpstream } from './echo-upstream';
import type { EchoUpstream } from './echo-upstream';
import { startGatewayProcess } from './gateway-process';
import { rawCall } from './raw-http';
import type { GatewayProcess } from './gateway-process';
import { startRedisCluster } from './redis-cluster';
import type { RedisCluster } from './redis-cluster';
import { startRedisServer } from './redis-server';

export const ADMIN_TOKEN = 'quota-tests-admin-token-0123456';

/** One answered call of a load. */
export interface CallResult {
  status: number;
  /** The error code of a refused call (`QUOTA_EXCEEDED`, `STORE_UNAVAILABLE`, …). */
  code?: string;
  /** When it was answered (Date.now()). */
  at: number;
}

/** An echo service and gateway processes on one Redis store, with a one-plan table of quota `quota`. */
export interface QuotaGateways {
  gateways: GatewayProcess[];
  /** An admin API call on gateway `g`; throws on a non-2xx answer. */
  admin<T>(method: string, pathname: string, body?: unknown, g?: number): Promise<T>;
  /** A new account on plan `q` for `token` with two keys. */
  account(): Promise<{ accountId: string; keys: { id: string; key: string }[] }>;
  /**
   * `total` calls to `GET /token/v1/prices`, alternating keys and gateways, started at `perSecond`
   * (all at once when unset). `during(done)` is called after each answer with the count so far.
   */
  load(keys: string[], total: number, options?: { perSecond?: number; during?: (answered: number) => void }): Promise<CallResult[]>;
  /** The account's month counter in the store. */
  monthCount(accountId: string): Promise<number>;
  /** The store's variables the gateways run with (REDIS_URL or REDIS_CLUSTER_NODES). */
  storeEnv: Record<string, string>;
  /** Every variable the gateways run with (store, plans, service, tokens), to start one more alike. */
  gatewayEnv: Record<string, string>;
  /** A connection to the node that holds `key` (the one Redis, or the key's master in a cluster). */
  nodeFor(key: string): Promise<Redis>;
  stop(): Promise<void>;
}

/** {@link QuotaGateways} on a three-master cluster (a replica each). */
export interface ClusterGateways extends QuotaGateways {
  redisCluster: RedisCluster;
}

/** What the gateways are started on: the store's variables, how to read a counter, how to stop it. */
interface QuotaStoreUnder {
  env: Record<string, string>;
  get(name: string): Promise<string | null>;
  nodeFor(name: string): Promise<Redis>;
  stop(): Promise<void>;
}

interface QuotaGatewaysOptions {
  count: number;
  quota: number;
  env?: Record<string, string>;
  /** Variables of gateway `i` alone (its `GATEWAY_ROLE`, say), over `env`. */
  each?: (i: number) => Record<string, string>;
}

/** Starts a three-master cluster (a replica each) and `count` gateway processes on it. */
export async function startClusterGateways(options: QuotaGatewaysOptions): Promise<ClusterGateways> {
  const redisCluster = await startRedisCluster();
  const store: QuotaStoreUnder = {
    env: { REDIS_CLUSTER_NODES: redisCluster.seeds },
    get: async (name) => redisCluster.node(await redisCluster.masterOf(await redisCluster.slotOf(name))).get(name),
    nodeFor: async (name) => redisCluster.node(await redisCluster.masterOf(await redisCluster.slotOf(name))),
    stop: () => redisCluster.stop(),
  };
  return { ...(await startQuotaGateways(options, store)), redisCluster };
}

/** Starts one `redis-server` and `count` gateway processes on it. */
export async function startRedisGateways(options: QuotaGatewaysOptions): Promise<QuotaGateways> {
  const server = await startRedisServer();
  const reader = new Redis(server.url);
  const store: QuotaStoreUnder = {
    env: { REDIS_URL: server.url },
    get: (name) => reader.get(name),
    nodeFor: async () => reader,
    stop: async () => {
      reader.disconnect();
      await server.stop();
    },
  };
  return startQuotaGateways(options, store);
}

async function startQuotaGateways(options: QuotaGatewaysOptions, store: QuotaStoreUnder): Promise<QuotaGateways> {
  const upstream = await startEchoUpstream().catch(async (err: unknown) => {
    await store.stop();
    throw err;
  });
  const dir = mkdtempSync(path.join(tmpdir(), 'tollgate-quota-gw-'));
  const plansFile = path.join(dir, 'plans.json');
  // A rate far above what the tests send: only the monthly quota refuses.
  writeFileSync(plansFile, JSON.stringify({ token: { playground_per_day: 0, plans: { q: { monthly_quota: options.quota, rate_per_second: 10_000, price: 0, currency: 'EUR' } } } }));
  const env = { ...store.env, PLANS_FILE: plansFile, TOKEN_URL: upstream.url, ADMIN_TOKEN, PROXY_SECRET: 'quota-tests-proxy-secret-01234', ...options.env };
  let gateways: GatewayProcess[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(gateways.map((g) => g.stop()));
    await Promise.all([store.stop(), (upstream as EchoUpstream).close()]);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    gateways = await Promise.all(Array.from({ length: options.count }, (_, i) => startGatewayProcess({ ...env, ...options.each?.(i) })));
  } catch (err) {
    await stop();
    throw err;
  }
  const admin = async <T>(method: string, pathname: string, body?: unknown, g = 0): Promise<T> => {
    const headers = { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
    const res = await rawCall(`${gateways[g]!.url}${pathname}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), timeoutMs: 30_000 });
    if (res.status >= 300) throw new Error(`${method} ${pathname}: ${res.status} ${res.body}`);
    return res.json!.data as T;
  };
  let accounts = 0;
  return {
    gateways,
    admin,
    async account() {
      const first = await admin<{ id: string; key: string; account_id: string }>('POST', '/admin/v1/keys', { owner: `team-${++accounts}@example.com`, subscriptions: { token: 'q' } });
      const second = await admin<{ id: string; key: string }>('POST', `/admin/v1/accounts/${first.account_id}/keys`, { name: 'second' }, gateways.length - 1);
      return { accountId: first.account_id, keys: [first, second].map(({ id, key }) => ({ id, key })) };
    },
    async load(keys, total, { perSecond, during } = {}) {
      const agents = gateways.map(() => new http.Agent({ keepAlive: true, maxSockets: 32 }));
      const started = Date.now();
      let answered = 0;
      try {
        return await Promise.all(
          Array.from({ length: total }, async (_, i): Promise<CallResult> => {
            if (perSecond) await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + (i * 1000) / perSecond - Date.now())));
            const g = Math.floor(i / keys.length) % gateways.length;
            const res = await rawCall(`${gateways[g]!.url}/token/v1/prices?i=${i}`, { agent: agents[g], headers: { 'x-tollgate-key': keys[i % keys.length]! }, timeoutMs: 60_000 });
            const result: CallResult = { status: res.status, at: Date.now() };
            if (res.status !== 200) result.code = res.json?.error?.code;
            during?.(++answered);
            return result;
          }),
        );
      } finally {
        agents.forEach((agent) => agent.destroy());
      }
    },
    storeEnv: store.env,
    gatewayEnv: env,
    nodeFor: (key) => store.nodeFor(key),
    async monthCount(accountId) {
      return Number((await store.get(redisKeys.month(accountId, 'token', monthWindow(Date.now()).id))) ?? 0);
    },
    stop,
  };
}

/** Counts of each status (and of codes other than 200 and 429's QUOTA_EXCEEDED). */
export function tally(results: readonly CallResult[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of results) {
    const name = r.status === 200 ? '200' : `${r.status} ${r.code ?? ''}`.trim();
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}

/** Waits until the UTC month has at least `ms` left: a test's calls must count in one month. */
export async function insideOneMonth(ms = 60_000): Promise<void> {
  const left = monthWindow(Date.now()).endMs - Date.now();
  if (left < ms) await new Promise((resolve) => setTimeout(resolve, left + 100));
}
