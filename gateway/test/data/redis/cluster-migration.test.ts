import { redisKeys } from '../../../src/data/redis/redis-keys';
import { startClusterGateways, insideOneMonth, tally } from '../../support/quota-gateways';
import type { ClusterGateways } from '../../support/quota-gateways';

jest.setTimeout(120_000);

const Q = 200;
let env: ClusterGateways;

beforeAll(async () => {
  // A slower machine must not turn the migration's pauses (TRYAGAIN rounds of 50 ms) into 503s.
  env = await startClusterGateways({ count: 2, quota: Q, env: { REDIS_TIMEOUT_MS: '2000' } });
});
afterAll(() => env?.stop());

/**
 * Moves `slot` from its master to another, as `redis-cli --cluster reshard` does: IMPORTING on the
 * target, MIGRATING on the source, MIGRATE its keys in batches, then SETSLOT NODE everywhere.
 * Returns the target's port and how many keys moved.
 */
async function migrateSlot(slot: number): Promise<{ from: number; to: number; keys: number }> {
  const { redisCluster } = env;
  const nodes = await redisCluster.describe();
  const from = await redisCluster.masterOf(slot);
  const source = nodes.find((n) => n.port === from)!;
  const target = nodes.find((n) => n.role === 'master' && n.port !== from)!;
  const src = redisCluster.node(source.port);
  const dst = redisCluster.node(target.port);
  await dst.cluster('SETSLOT', slot, 'IMPORTING', source.id);
  await src.cluster('SETSLOT', slot, 'MIGRATING', target.id);
  let moved = 0;
  for (;;) {
    const keys = (await src.cluster('GETKEYSINSLOT', slot, 100)) as string[];
    if (!keys.length) break;
    await src.migrate('127.0.0.1', target.port, '', 0, 5_000, 'KEYS', ...keys);
    moved += keys.length;
  }
  await dst.cluster('SETSLOT', slot, 'NODE', target.id);
  await src.cluster('SETSLOT', slot, 'NODE', target.id);
  for (const other of nodes.filter((n) => n.role === 'master' && n.port !== source.port && n.port !== target.port)) await redisCluster.node(other.port).cluster('SETSLOT', slot, 'NODE', target.id);
  return { from, to: target.port, keys: moved };
}

/** Redirections the masters have answered so far, by kind (INFO errorstats: MOVED, ASK, TRYAGAIN). */
async function redirections(): Promise<Record<string, number>> {
  const sum: Record<string, number> = { MOVED: 0, ASK: 0, TRYAGAIN: 0 };
  for (const node of (await env.redisCluster.describe()).filter((n) => n.role === 'master')) {
    const info = (await env.redisCluster.node(node.port).info('errorstats')) as string;
    for (const kind of Object.keys(sum)) sum[kind]! += Number(new RegExp(`errorstat_${kind}:count=(\\d+)`).exec(info)?.[1] ?? 0);
  }
  return sum;
}

describe("an account's slot migrated to another master mid-load", () => {
  it(`when the slot moves while ${5 * Q} calls arrive, then every call is answered 200 or 429 (MOVED, ASK and TRYAGAIN followed) and exactly ${Q} are admitted`, async () => {
    await insideOneMonth();
    const { accountId, keys } = await env.account();
    const slot = await env.redisCluster.slotOf(redisKeys.account(accountId));
    const before = await redirections();
    let migration: Promise<{ from: number; to: number; keys: number }> | undefined;
    const results = await env.load(
      keys.map((k) => k.key),
      5 * Q,
      // Paced, so the move lands while calls are still being admitted (about 60 are by then).
      { perSecond: 300, during: (answered) => void (answered === 60 && (migration = migrateSlot(slot))) },
    );
    const moved = await migration!;
    expect(moved.keys).toBeGreaterThanOrEqual(4);
    expect(await env.redisCluster.masterOf(slot)).toBe(moved.to);
    expect(tally(results)).toEqual({ 200: Q, '429 QUOTA_EXCEEDED': 4 * Q });
    // The calls did meet the move: the masters redirected some (MOVED after it, ASK or TRYAGAIN during it).
    const after = await redirections();
    process.stdout.write(`migration: ${moved.keys} keys moved; redirections ${JSON.stringify(Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - before[k]!])))}\n`);
    expect(after.MOVED! - before.MOVED!).toBeGreaterThan(0);
    expect(await env.monthCount(accountId)).toBe(Q);
    // The account, its keys and its counters are all on the new master now.
    const usage = await env.admin<{ apis: { api: string; used: number }[] }>('GET', `/admin/v1/accounts/${accountId}/usage`, undefined, 1);
    expect(usage.apis.find((line) => line.api === 'token')?.used).toBe(Q);
    for (const k of keys) expect((await env.admin<{ id: string }>('GET', `/admin/v1/keys/${k.id}`)).id).toBe(k.id);
  });
});
