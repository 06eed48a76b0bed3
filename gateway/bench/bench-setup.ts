import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ChildServer } from './child-server';

/** What the benches share about the gateway they start: its admin token, plan table and route. */
export const BENCH_ADMIN_TOKEN = 'bench-admin-token-0123456789';
/** Long enough for the gateway's secret rule (16 characters, no placeholder). */
export const BENCH_PROXY_SECRET = 'bench-proxy-secret-0123456789';
export const BENCH_PATH = '/token/v1/prices?coins=eth';

/** The bench's plan table: token only, no playground, one plan of 1,000/s (200 keys: far above any rate here, so no call is refused) and a quota no run reaches. */
export const BENCH_PLANS = { token: { playground_per_day: 0, plans: { bench: { monthly_quota: 1_000_000_000, rate_per_second: 1_000, price: 0, currency: 'EUR' } } } };

/** Writes {@link BENCH_PLANS} into `dir` as the bench's PLANS_FILE. */
export function writeBenchPlans(dir: string): string {
  const file = path.join(dir, 'plans.json');
  writeFileSync(file, JSON.stringify(BENCH_PLANS));
  return file;
}

/** Creates `count` keys subscribed to the bench plan through the gateway's admin API. */
export async function createBenchKeys(gateway: Pick<ChildServer, 'url'>, count: number): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${gateway.url}/admin/v1/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${BENCH_ADMIN_TOKEN}` },
      body: JSON.stringify({ owner: `bench-${i}`, subscriptions: { token: 'bench' } }),
    });
    keys.push(((await res.json()) as { data: { key: string } }).data.key);
  }
  return keys;
}

/** Whether `build` is one of the helper servers (the bare proxies, the baseline), not a gateway: no admin API, no gateway flags. */
export function isHelperServer(build: string): boolean {
  return /bare-proxy|bare-undici-proxy|baseline/.test(build);
}

/**
 * The keys a run sends: `count` made through a gateway's admin API, or for a helper server
 * ({@link isHelperServer}) as many plain names (the baseline limits by the header's value).
 */
export async function keysFor(build: string, server: Pick<ChildServer, 'url'>, count: number): Promise<string[]> {
  return isHelperServer(build) ? Array.from({ length: count }, (_, i) => `client-${i}`) : createBenchKeys(server, count);
}
