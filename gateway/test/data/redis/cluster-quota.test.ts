import { startClusterGateways, insideOneMonth, tally } from '../../support/quota-gateways';
import type { ClusterGateways } from '../../support/quota-gateways';

jest.setTimeout(120_000);

const Q = 150;
let env: ClusterGateways;

beforeAll(async () => {
  env = await startClusterGateways({ count: 2, quota: Q, env: { REDIS_TIMEOUT_MS: '2000' } });
});
afterAll(() => env?.stop());

/** NOSCRIPT errors every master has answered so far (INFO errorstats). */
async function noscripts(): Promise<number> {
  let sum = 0;
  for (const node of (await env.redisCluster.describe()).filter((n) => n.role === 'master')) {
    const info = (await env.redisCluster.node(node.port).info('errorstats')) as string;
    sum += Number(/errorstat_NOSCRIPT:count=(\d+)/.exec(info)?.[1] ?? 0);
  }
  return sum;
}

describe('two gateway processes on a three-master Redis Cluster', () => {
  it(`when ${5 * Q} calls arrive at once over one account's two keys and both gateways on a ${Q}-call quota, then exactly ${Q} are admitted and usage reads ${Q}`, async () => {
    await insideOneMonth();
    const { accountId, keys } = await env.account();
    const results = await env.load(keys.map((k) => k.key), 5 * Q);
    expect(tally(results)).toEqual({ 200: Q, '429 QUOTA_EXCEEDED': 4 * Q });
    expect(await env.monthCount(accountId)).toBe(Q);
    for (const g of [0, 1]) {
      const usage = await env.admin<{ apis: { api: string; used: number; remaining: number }[] }>('GET', `/admin/v1/accounts/${accountId}/usage`, undefined, g);
      expect(usage.apis.find((line) => line.api === 'token')).toMatchObject({ used: Q, remaining: 0 });
    }
  });

  it(`when SCRIPT FLUSH runs on every master while ${5 * Q} calls are under way, then no call fails (NOSCRIPT is answered by sending the script) and exactly ${Q} are admitted`, async () => {
    await insideOneMonth();
    const { accountId, keys } = await env.account();
    const before = await noscripts();
    const masters = (await env.redisCluster.describe()).filter((n) => n.role === 'master').map((n) => env.redisCluster.node(n.port));
    let flushed: Promise<unknown> | undefined;
    // Flushed once a few calls are answered and most are still to come (paced, so the flush lands mid-load).
    const results = await env.load(
      keys.map((k) => k.key),
      5 * Q,
      { perSecond: 400, during: (answered) => void (answered === 40 && (flushed = Promise.all(masters.map((m) => m.script('FLUSH'))))) },
    );
    await flushed;
    expect(tally(results)).toEqual({ 200: Q, '429 QUOTA_EXCEEDED': 4 * Q });
    expect(await env.monthCount(accountId)).toBe(Q);
    // The flush did reach calls in flight: masters answered NOSCRIPT, and the gateways recovered.
    expect(await noscripts()).toBeGreaterThan(before);
  });
});
