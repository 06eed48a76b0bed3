/**
 * Writes gateway/test/fixtures/legacy-redis.json: a Redis keyspace as the gateway made it before
 * accounts (commit d7aa4a1, where a key was the identity: `gw:{key_X}:key`, its counters under
 * `{key_X}`, the index `gw:keys`), for migration.test.ts to restore and migrate. The OLD code's
 * createRedisStores writes it, on a fixed clock (the capture time), with the test plan table; the
 * file holds every Redis key (type, value, milliseconds to live), the secrets and the capture time.
 * Run by hand, not in CI (the fixture is committed):
 *
 *   git -C /work/main worktree add /tmp/legacy d7aa4a1
 *   ln -s /work/main/node_modules /tmp/legacy/node_modules
 *   ln -s /work/main/gateway/node_modules /tmp/legacy/gateway/node_modules
 *   ln -s /work/main/packages/envelope/node_modules /tmp/legacy/packages/envelope/node_modules
 *   cd /work/main/gateway && node --conditions=development --import tsx test/support/capture-legacy-redis.ts /tmp/legacy
 *   git -C /work/main worktree remove --force /tmp/legacy
 *
 * What it makes (labels as in the fixture's `keys`):
 * - `ada`: owner `Ada@Example.com`, token=free (quota 5 a month), 5 calls and one refused: at quota.
 * - `bob`: owner `bob@example.com`, token=pro and burger=free, 4 token calls (one refunded, so 3) and 2 burger calls.
 * - `ops`: owner `ops team` (not an address), burger=free, 1 call.
 * - `player`: owner `player@example.com`, no subscription, 4 token playground calls.
 * - `ada_again`: owner `ada@example.com` (the address `ada` holds), token=slow inactive, 2 playground calls.
 * - `mallory`: owner `mallory@example.com`, token=pro, 1 call, then revoked.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import Redis from 'ioredis';
import type { ApiPlans } from '../../src/domain/plans';
import { startRedisServer } from './redis-server';
import { TEST_PLANS } from './gateway-fixture';

/** One Redis key as captured: `value` by type (string; hash fields; set members sorted; sorted set [member, score] pairs). */
export interface CapturedKey {
  name: string;
  type: 'string' | 'hash' | 'set' | 'zset';
  value: string | Record<string, string> | string[] | [string, string][];
  /** Milliseconds left to live at capture time; -1 for none. */
  pttl: number;
}

/** One key the old code made, as its creator was told. */
export interface LegacyKey {
  secret: string;
  id: string;
  owner: string;
  subscriptions: Record<string, { plan: string; status: 'active' | 'inactive' }>;
  revoked_at: string | null;
  /** Calls charged this month (plans) and today (playground) per API at capture time. */
  month: Record<string, number>;
  day: Record<string, number>;
}

/** The fixture file. */
export interface LegacyRedisFixture {
  description: string;
  commit: string;
  captured_at: string;
  keys: Record<string, LegacyKey>;
  redis: CapturedKey[];
}

export const CAPTURED_AT = '2026-03-20T10:00:00.000Z';
export const FIXTURE_PATH = path.resolve(__dirname, '../fixtures/legacy-redis.json');

/** The old code's stores, as much of them as this script uses. */
interface OldStores {
  keyStore: {
    create(input: { owner: string; subscriptions?: LegacyKey['subscriptions'] }): Promise<{ key: string; record: { id: string; owner: string; revoked_at: string | null; subscriptions: LegacyKey['subscriptions'] } }>;
    revoke(id: string): Promise<{ revoked_at: string | null } | undefined>;
  };
  quotaStore: {
    admit(request: { keyId: string; keyHash: string; api: string; apiPlans: ApiPlans; nowMs: number }): Promise<{ outcome: string; ticket?: unknown }>;
    refund(ticket: unknown): Promise<void>;
  };
}

/** Every key in the Redis, with its type, value and time to live. */
export async function captureKeyspace(redis: Redis): Promise<CapturedKey[]> {
  const names = (await redis.keys('*')).sort();
  const captured: CapturedKey[] = [];
  for (const name of names) {
    const type = (await redis.type(name)) as CapturedKey['type'];
    const pttl = await redis.pttl(name);
    if (type === 'string') captured.push({ name, type, value: (await redis.get(name)) ?? '', pttl });
    else if (type === 'hash') captured.push({ name, type, value: Object.fromEntries(Object.entries(await redis.hgetall(name)).sort()), pttl });
    else if (type === 'set') captured.push({ name, type, value: (await redis.smembers(name)).sort(), pttl });
    else if (type === 'zset') {
      const flat = await redis.zrange(name, 0, -1, 'WITHSCORES');
      const pairs: [string, string][] = [];
      for (let i = 0; i < flat.length; i += 2) pairs.push([flat[i]!, flat[i + 1]!]);
      captured.push({ name, type, value: pairs, pttl });
    } else throw new Error(`unexpected Redis type ${type} of ${name}`);
  }
  return captured;
}

async function main(legacyDir: string): Promise<void> {
  const commit = 'd7aa4a1';
  const { createRedisStores } = (await import(path.join(path.resolve(legacyDir), 'gateway/src/data/redis-stores.ts'))) as { createRedisStores: (redis: Redis, options: { clock: () => number }) => OldStores };
  const { hashApiKey } = (await import(path.join(path.resolve(legacyDir), 'gateway/src/domain/api-key.ts'))) as { hashApiKey: (key: string) => string };
  const server = await startRedisServer();
  const redis = new Redis(server.url);
  try {
    const nowMs = Date.parse(CAPTURED_AT);
    const { keyStore, quotaStore } = createRedisStores(redis, { clock: () => nowMs });
    const keys: Record<string, LegacyKey> = {};
    const make = async (label: string, owner: string, subscriptions: LegacyKey['subscriptions'] = {}): Promise<LegacyKey> => {
      const { key, record } = await keyStore.create({ owner, subscriptions });
      keys[label] = { secret: key, id: record.id, owner: record.owner, subscriptions: record.subscriptions, revoked_at: null, month: {}, day: {} };
      return keys[label];
    };
    const calls = async (k: LegacyKey, api: string, n: number, expected: string): Promise<unknown[]> => {
      const tickets = [];
      for (let i = 0; i < n; i++) {
        const admission = await quotaStore.admit({ keyId: k.id, keyHash: hashApiKey(k.secret), api, apiPlans: TEST_PLANS[api]!, nowMs });
        if (admission.outcome !== expected) throw new Error(`call ${i + 1} of ${k.owner} to ${api}: ${admission.outcome}, expected ${expected}`);
        tickets.push(admission.ticket);
      }
      const window = expected === 'admitted' ? k.month : expected === 'playground' ? k.day : undefined;
      if (window) window[api] = (window[api] ?? 0) + n;
      return tickets;
    };

    const ada = await make('ada', 'Ada@Example.com', { token: { plan: 'free', status: 'active' } });
    await calls(ada, 'token', 5, 'admitted');
    await calls(ada, 'token', 1, 'quota_exceeded');
    const bob = await make('bob', 'bob@example.com', { token: { plan: 'pro', status: 'active' }, burger: { plan: 'free', status: 'active' } });
    const [refunded] = await calls(bob, 'token', 4, 'admitted');
    await quotaStore.refund(refunded);
    bob.month.token = 3;
    await calls(bob, 'burger', 2, 'admitted');
    const ops = await make('ops', 'ops team', { burger: { plan: 'free', status: 'active' } });
    await calls(ops, 'burger', 1, 'admitted');
    const player = await make('player', 'player@example.com');
    await calls(player, 'token', 4, 'playground');
    const again = await make('ada_again', 'ada@example.com', { token: { plan: 'slow', status: 'inactive' } });
    await calls(again, 'token', 2, 'playground');
    const mallory = await make('mallory', 'mallory@example.com', { token: { plan: 'pro', status: 'active' } });
    await calls(mallory, 'token', 1, 'admitted');
    mallory.revoked_at = (await keyStore.revoke(mallory.id))?.revoked_at ?? null;

    const fixture: LegacyRedisFixture = {
      description: `Redis as the gateway at ${commit} (before accounts) left it; written by test/support/capture-legacy-redis.ts. pttl: ms to live at captured_at, -1 for none.`,
      commit,
      captured_at: CAPTURED_AT,
      keys,
      redis: await captureKeyspace(redis),
    };
    writeFileSync(FIXTURE_PATH, `${JSON.stringify(fixture, null, 2)}\n`);
    process.stdout.write(`wrote ${FIXTURE_PATH}: ${fixture.redis.length} Redis keys, ${Object.keys(keys).length} API keys\n`);
  } finally {
    await redis.quit();
    await server.stop();
  }
}

if (require.main === module) {
  const legacyDir = process.argv[2];
  if (!legacyDir) {
    process.stderr.write('usage: capture-legacy-redis.ts <checkout of d7aa4a1>\n');
    process.exit(2);
  }
  main(legacyDir).catch((err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
}
