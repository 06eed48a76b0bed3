import type { Cluster } from 'ioredis';
import { createLogger } from '@tollgate/envelope';
import { createClusterClient, whenReady } from '../../../src/data/redis/redis-client';
import { redisKeys } from '../../../src/data/redis/redis-keys';
import { codeHash, sha256 } from '../../../src/data/session-store';
import { createRedisStores } from '../../../src/data/redis/redis-stores';
import { openStores } from '../../../src/data/open-stores';
import { adoptedPersonId } from '../../../src/data/team-store';
import { hashApiKey, parseApiKey } from '../../../src/domain/api-key';
import { builtInPlanTable } from '../../../src/config';
import { eventually } from '../../support/eventually';
import { startRedisCluster } from '../../support/redis-cluster';
import type { RedisCluster } from '../../support/redis-cluster';
import { describeStoreContract } from '../store-contract';

const BUILT_IN_PLANS = builtInPlanTable();

jest.setTimeout(60_000);

const logger = createLogger({ service: 'test', level: 'silent' });
let redisCluster: RedisCluster;
const clients: Cluster[] = [];

beforeAll(async () => {
  redisCluster = await startRedisCluster();
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await redisCluster.stop();
});

/** The gateway's own cluster client (no offline queue), once it is ready. */
async function connect(): Promise<Cluster> {
  const cluster = createClusterClient(redisCluster.seeds.split(',').map((s) => ({ host: '127.0.0.1', port: Number(s.split(':')[1]) })), { logger });
  clients.push(cluster);
  // Several store sets share one client here (each listens for 'ready').
  cluster.setMaxListeners(100);
  if (!(await whenReady(cluster, 10_000))) throw new Error('the cluster client did not connect');
  return cluster;
}

async function flushMasters(cluster: Cluster): Promise<void> {
  await Promise.all(cluster.nodes('master').map((m) => m.flushall()));
}

describeStoreContract('redis cluster', async (clock) => {
  const cluster = await connect();
  await flushMasters(cluster);
  return { stores: createRedisStores(cluster, { clock }), close: async () => void (await cluster.quit()) };
});

describe('a Redis Cluster of three masters', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await connect();
  });
  beforeEach(() => flushMasters(cluster));

  /** Which master's port holds each account's slot. */
  const mastersOfAccounts = async (ids: string[]): Promise<Set<number>> => new Set(await Promise.all(ids.map(async (id) => redisCluster.masterOf(await redisCluster.slotOf(redisKeys.account(id))))));

  it('when 60 accounts spread over every master are listed 7 at a time, then the pages hold each once, in creation order, and end', async () => {
    let now = Date.parse('2026-03-15T12:00:00Z');
    const { accountStore } = createRedisStores(cluster, { clock: () => now });
    const made: string[] = [];
    for (let i = 0; i < 60; i++) {
      made.push((await accountStore.createAccount({ email: `user${i}@example.com`, name: `User ${i}`, subscriptions: {} })).id);
      now += 1;
    }
    expect((await mastersOfAccounts(made)).size).toBe(3);
    const listed: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await accountStore.listAccounts({ cursor, limit: 7 });
      listed.push(...page.items.map((a) => a.id));
      cursor = page.next_cursor ?? undefined;
      pages += 1;
    } while (cursor);
    expect(listed).toEqual(made);
    expect(pages).toBe(9);
    // A key listing is one account's slot; it pages the same way.
    const keys = [];
    for (let i = 0; i < 5; i++) {
      keys.push((await accountStore.createKey(made[0]!, { name: `k${i}` }))!.record.id);
      now += 1;
    }
    const first = (await accountStore.listKeys(made[0]!, { limit: 3 }))!;
    const second = (await accountStore.listKeys(made[0]!, { limit: 3, cursor: first.next_cursor! }))!;
    expect([...first.items, ...second.items].map((k) => k.id)).toEqual(keys);
    expect(second.next_cursor).toBeNull();
  });

  it("when a history batch covers accounts on every master, then one flush writes each account's counts and keys' last use, and the same batch again adds nothing", async () => {
    const now = Date.parse('2026-03-15T12:00:00Z');
    const { accountStore } = createRedisStores(cluster, { clock: () => now });
    const accounts = [];
    // Ids are random: made until every master holds some (12 alone would miss one 2% of the time).
    while (accounts.length < 12 || (await mastersOfAccounts(accounts.map((a) => a.id))).size < 3) accounts.push(await accountStore.createAccount({ email: null, name: `H${accounts.length}`, subscriptions: {} }));
    const keys = await Promise.all(accounts.map(async (a) => (await accountStore.createKey(a.id, { name: 'k' }))!.record.id));
    const counts = accounts.map((a, i) => ({ accountId: a.id, api: 'token', dayId: '2026-03-15', outcome: '2xx' as const, count: i + 1 }));
    const lastUsed = new Map(keys.map((k) => [k, now]));
    await accountStore.record(counts, lastUsed, 'batch-1');
    await accountStore.record(counts, lastUsed, 'batch-1');
    for (const [i, a] of accounts.entries()) {
      const days = (await accountStore.history(a.id, ['token'], '2026-03-15', '2026-03-15'))!;
      expect(days[0]!.counts['2xx']).toBe(i + 1);
      expect((await accountStore.getKey(keys[i]!))!.last_used_at).toBe(new Date(now).toISOString());
    }
  });

  it('when calls of accounts on every master arrive in one turn, then each is admitted and charged once (a batch never spans two slots)', async () => {
    const now = Date.parse('2026-03-15T12:00:00Z');
    const { keyStore, quotaStore } = createRedisStores(cluster, { clock: () => now });
    const callers: { accountId: string; keyHash: string }[] = [];
    while (callers.length < 12 || (await mastersOfAccounts(callers.map((c) => c.accountId))).size < 3) {
      const { key, record } = await keyStore.create({ owner: `t${callers.length}@example.com`, subscriptions: { token: { plan: 'free', status: 'active' } } });
      callers.push({ accountId: record.account_id, keyHash: hashApiKey(key) });
    }
    // Each account twice in the turn: its two calls may travel together, with no other account's.
    const twice = [...callers, ...callers];
    const admissions = await Promise.all(twice.map((c) => quotaStore.admit({ ...c, api: 'token', apiPlans: BUILT_IN_PLANS.token!, nowMs: now })));
    expect(admissions.map((a) => a.outcome)).toEqual(twice.map(() => 'admitted'));
    for (const c of callers) expect(await cluster.get(redisKeys.month(c.accountId, 'token', '2026-03'))).toBe('2');
  });

  it('when calls are admitted, then every key an admission touches is in its account\'s slot, and usage reads both counters there', async () => {
    const now = Date.parse('2026-03-15T12:00:00Z');
    const { keyStore, quotaStore } = createRedisStores(cluster, { clock: () => now });
    for (let i = 0; i < 6; i++) {
      const { key, record } = await keyStore.create({ owner: `o${i}@example.com`, subscriptions: { token: { plan: 'free', status: 'active' } } });
      const parsed = parseApiKey(key);
      if (!parsed.ok) throw new Error('a generated key did not parse');
      expect(parsed.hash).toBe(hashApiKey(key));
      const admission = await quotaStore.admit({ accountId: record.account_id, keyHash: parsed.hash, api: 'token', apiPlans: BUILT_IN_PLANS.token!, nowMs: now });
      expect(admission.outcome).toBe('admitted');
      expect(await quotaStore.usage(record.account_id, 'token', now)).toEqual({ month: 1, day: 0 });
      const slot = await redisCluster.slotOf(redisKeys.account(record.account_id));
      const names = [redisKeys.legacy.secrets, (id: string) => redisKeys.secondLog(id, 'token'), (id: string) => redisKeys.month(id, 'token', '2026-03'), (id: string) => redisKeys.day(id, 'token', '2026-03-15'), (id: string) => redisKeys.playgroundLog(id, 'token', '2026-03-15'), (id: string) => redisKeys.refunded(id, 'm')];
      for (const name of names) expect(await redisCluster.slotOf(name(record.account_id))).toBe(slot);
    }
  });

  it('when sign-in codes for addresses on every master are stored, checked and followed, then each step is one script on one slot (no CROSSSLOT)', async () => {
    const now = Date.parse('2026-03-15T12:00:00Z');
    const { sessionStore } = createRedisStores(cluster, { clock: () => now });
    const limits = { perSlot: 10, perSubject: 20 };
    const masters = new Set<number>();
    for (let i = 0; i < 12; i++) {
      const subject = `sign-in:user${i}@example.com`;
      const code = { hash: codeHash(subject, '123456'), tokenHash: codeHash(subject, 'token'), expiresAtMs: now + 900_000, tries: 5 };
      expect(await sessionStore.putCode(subject, '10.0.0.1', code, { maxLive: 3, nowMs: now })).toEqual({ stored: true });
      expect(await sessionStore.putCode(subject, '2001:db8::/64', { ...code, tokenHash: '' }, { maxLive: 3, nowMs: now })).toEqual({ stored: true });
      expect(await sessionStore.checkCode(subject, '10.0.0.1', codeHash(subject, '000000'), now, limits)).toEqual({ outcome: 'wrong', triesLeft: 4 });
      expect(await sessionStore.useLink(subject, codeHash(subject, 'token'), now)).toEqual({ outcome: 'ok' });
      expect(await sessionStore.checkCode(subject, '2001:db8::/64', codeHash(subject, '123456'), now, limits)).toEqual({ outcome: 'ok' });
      const subjectHash = sha256(subject);
      const slot = await redisCluster.slotOf(redisKeys.code(subjectHash));
      expect(await redisCluster.slotOf(redisKeys.codeChecks(subjectHash, '2026-03-15', sha256('10.0.0.1')))).toBe(slot);
      masters.add(await redisCluster.masterOf(slot));
    }
    expect(masters.size).toBe(3);
  });

  it('when the store is asked, then readiness pings every master and persistence is read from each (AOF on all)', async () => {
    const stores = createRedisStores(cluster, { clock: Date.now });
    await stores.quotaStore.ping();
    await eventually(async () => stores.persistence?.() === 'aof', 'persistence read from every master');
    await Promise.all(cluster.nodes('master').map((m) => m.config('SET', 'appendonly', 'no')));
    try {
      const again = createRedisStores(cluster, { clock: Date.now });
      await eventually(async () => again.persistence?.() === 'none', 'a master persisting nothing seen');
    } finally {
      await Promise.all(cluster.nodes('master').map((m) => m.config('SET', 'appendonly', 'yes')));
    }
  });

  it('when a key is revoked through one gateway, then another gateway on the cluster hears it (pub/sub across nodes)', async () => {
    const { keyStore } = createRedisStores(cluster, { clock: Date.now });
    const listener = await connect();
    const heard: string[] = [];
    let listening = false;
    createRedisStores(listener, { clock: Date.now }).quotaStore.onRevoked(
      (id) => heard.push(id),
      (up) => void (listening = up),
    );
    await eventually(async () => listening, 'the subscription');
    const { record } = await keyStore.create({ owner: 'r@example.com', subscriptions: {} });
    await keyStore.revoke(record.id);
    await eventually(async () => heard.includes(record.id), 'the revocation heard');
  });

  it('when accounts on every master were written before teams, then a gateway starting on the cluster adopts each as a team of one and marks the cluster', async () => {
    const now = Date.parse('2026-03-15T12:00:00Z');
    const { accountStore } = createRedisStores(cluster, { clock: () => now });
    const ids: string[] = [];
    // Account ids are random: twelve leave one of the three masters without an account about once in
    // 43 runs, so accounts are made until every master holds some (at most 120: too few once in 10^20).
    for (let i = 0; i < 120 && (i < 12 || (await mastersOfAccounts(ids)).size < 3); i++) ids.push((await accountStore.createAccount({ email: `c${i}@before.example` })).id);
    expect((await mastersOfAccounts(ids)).size).toBe(3);
    const nodes = redisCluster.seeds.split(',').map((s) => ({ host: '127.0.0.1', port: Number(s.split(':')[1]) }));
    const opened = await openStores({ redisClusterNodes: nodes, storePath: ':memory:', redisTimeoutMs: 2_000, clock: () => now, logger }, 10_000);
    try {
      await opened.adopted;
      const owners = await Promise.all(ids.map(async (id) => (await opened.stores.teamStore.listMembers(id)).map((m) => [m.person_id, m.role])));
      expect(owners).toEqual(ids.map((id) => [[adoptedPersonId(id), 'owner']]));
      expect(await cluster.get(redisKeys.teamsAdopted())).toBe('1');
    } finally {
      opened.redis?.disconnect();
    }
  });
});

