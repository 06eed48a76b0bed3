import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startGatewayProcess } from '../support/gateway-process';
import type { GatewayProcess } from '../support/gateway-process';
import { rawCall } from '../support/raw-http';
import { startRedisServer } from '../support/redis-server';
import type { RedisServer } from '../support/redis-server';
import type { PlanTable } from '../../src/domain/plans';

const ADMIN_TOKEN = 'attack-tests-admin-token-0123456';
const plan = { monthly_quota: 100_000, rate_per_second: 10_000, price: 0, currency: 'EUR' };

/** A gateway process on the embedded SQLite store or on a Redis of its own, for the attack tests. */
export interface AttackGateway {
  url: string;
  process: GatewayProcess;
  /** The environment it was started with (the CLI is run with it). */
  env: Record<string, string>;
  /** The admin token now (read from its file when the gateway keeps one). */
  adminToken(): string;
  /** A call to the admin API with the admin token as it is now. */
  admin(method: string, route: string, body?: unknown): ReturnType<typeof rawCall>;
  /** A new key subscribed as given (`{ token: 'q' }`), with its account. */
  newKey(subscriptions: Record<string, string>): Promise<{ id: string; key: string; account_id: string }>;
  /** The key's usage of `api` this month, read once it equals `expected` or has stopped changing. */
  settledUsage(id: string, api: string, expected: number): Promise<number>;
  /** The account's history of `api` over the last two UTC days, summed by outcome, read once it holds `calls` calls or has stopped changing. */
  settledHistory(accountId: string, api: string, calls: number): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

/** `read()` once `done` says so, or after 3 s of asking. */
async function settled<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let i = 0; i < 30 && !done(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

/**
 * Starts a gateway on `store` (an SQLite file in a fresh folder, or a fresh redis-server) whose
 * every API has one plan `q` (quota and rate far above what a test sends) and no playground, or the
 * plans given; with `tokenFile` the admin token is the one the gateway makes and keeps in a file
 * of that folder (rotatable), else a fixed ADMIN_TOKEN.
 */
export async function startAttackGateway(store: 'sqlite' | 'redis', env: Record<string, string>, options: { plans?: PlanTable; tokenFile?: boolean } = {}): Promise<AttackGateway> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tollgate-attack-'));
  const plansFile = path.join(dir, 'plans.json');
  writeFileSync(plansFile, JSON.stringify(options.plans ?? Object.fromEntries(['burger', 'token', 'logs'].map((api) => [api, { playground_per_day: 0, plans: { q: plan } }]))));
  const tokenFile = path.join(dir, 'admin-token');
  let redis: RedisServer | undefined;
  try {
    redis = store === 'redis' ? await startRedisServer() : undefined;
    const storeEnv: Record<string, string> = redis ? { REDIS_URL: redis.url } : { STORE_PATH: path.join(dir, 'tollgate.db') };
    const tokenEnv: Record<string, string> = options.tokenFile ? { ADMIN_TOKEN_FILE: tokenFile } : { ADMIN_TOKEN };
    const fullEnv = { PLANS_FILE: plansFile, ...tokenEnv, PROXY_SECRET: 'attack-tests-proxy-secret-012345', ...storeEnv, ...env };
    const gateway = await startGatewayProcess(fullEnv);
    const adminToken = (): string => (options.tokenFile ? readFileSync(tokenFile, 'utf8').trim() : ADMIN_TOKEN);
    const admin = (method: string, route: string, body?: unknown) =>
      rawCall(`${gateway.url}/admin/v1${route}`, { method, headers: { authorization: `Bearer ${adminToken()}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const usage = async (id: string, api: string): Promise<number> => {
      const res = await admin('GET', `/keys/${id}/usage`);
      return (res.json!.data as { apis: { api: string; used: number }[] }).apis.find((a) => a.api === api)?.used ?? 0;
    };
    const history = async (accountId: string, api: string): Promise<Record<string, number>> => {
      const from = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      const res = await admin('GET', `/accounts/${accountId}/history?from=${from}`);
      const sums: Record<string, number> = {};
      for (const day of (res.json!.data as { days: { api: string; counts: Record<string, number> }[] }).days) {
        if (day.api === api) for (const [outcome, n] of Object.entries(day.counts)) sums[outcome] = (sums[outcome] ?? 0) + n;
      }
      return sums;
    };
    return {
      url: gateway.url,
      process: gateway,
      env: fullEnv,
      adminToken,
      admin,
      async newKey(subscriptions) {
        const res = await admin('POST', '/keys', { owner: 'attacks@example.test', subscriptions });
        if (res.status !== 201) throw new Error(`key not created: ${res.status} ${res.body}`);
        return res.json!.data as { id: string; key: string; account_id: string };
      },
      // Refunds are sent as the client leaves; give the last ones a moment to land.
      settledUsage: (id, api, expected) => settled(() => usage(id, api), (used) => used === expected),
      // The history is written once a second.
      settledHistory: (accountId, api, calls) => settled(() => history(accountId, api), (sums) => Object.values(sums).reduce((a, b) => a + b, 0) === calls),
      async stop() {
        await gateway.stop();
        await redis?.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
