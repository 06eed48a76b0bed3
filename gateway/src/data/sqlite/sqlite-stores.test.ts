import { usageFields } from '../usage-breakdown';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describeStoreContract, manualClock } from '../../../test/data/store-contract';
import { billingRecord } from '../../../test/data/billing-store-contract';
import type { ApiPlans } from '../../domain/plans';
import { parseApiKey } from '../../domain/api-key';
import { StoreInUseError } from './sqlite-file';
import { openSqliteStores } from './sqlite-stores';
import type { SqliteStores } from './sqlite-stores';

let dir: string;
let files = 0;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tollgate-sqlite-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const freshFile = (): string => path.join(dir, `store-${++files}`, 'tollgate.db');

describeStoreContract('sqlite', async (clock) => {
  const opened = openSqliteStores({ path: freshFile(), clock });
  return { stores: opened.stores, close: async () => opened.close() };
});

const plans: ApiPlans = { playground_per_day: 2, plans: { tiny: { monthly_quota: 4, rate_per_second: 100, price: 0, currency: 'EUR' } } };
const START = Date.parse('2026-03-10T12:00:00.000Z');

/** What a `kill -9` leaves: the database file and its write-ahead log as they are now, copied to a new path. */
function crashCopy(file: string): string {
  const copy = `${file}.crash-${++files}`;
  copyFileSync(file, copy);
  if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`);
  return copy;
}

describe('sqlite stores on disk', () => {
  let opened: SqliteStores[] = [];
  const clock = manualClock(START);
  const open = (file: string): SqliteStores => {
    const stores = openSqliteStores({ path: file, clock: clock.now, flushEveryMs: 60_000 });
    opened.push(stores);
    return stores;
  };
  const admit = (s: SqliteStores, key: string, api = 'token') => {
    const parsed = parseApiKey(key);
    if (!parsed.ok) throw new Error('not a key');
    return s.stores.quotaStore.admit({ accountId: parsed.accountId, keyHash: parsed.hash, api, apiPlans: plans, nowMs: clock.now() });
  };
  beforeEach(() => clock.set(START));
  afterEach(() => {
    for (const s of opened) s.close();
    opened = [];
  });

  it('when an account is moved to another address, deleted beside one that stays, and the file reopened after a crash, then the deletion and the move are as they were', async () => {
    const file = freshFile();
    const first = open(file);
    const { accountStore, billingStore } = first.stores;
    const gone = await accountStore.createAccount({ email: 'gone@example.com' });
    const key = (await accountStore.createKey(gone.id, { name: 'k' }))!;
    await billingStore.rememberCustomer(gone.id, 'EUR', 'cus_gone');
    await accountStore.record([{ accountId: gone.id, api: 'token', dayId: '2026-03-10', outcome: '2xx', count: 3 }], new Map());
    first.flush();
    const moved = await accountStore.createAccount({ email: 'ada@example.com' });
    await accountStore.changeEmail(moved.id, 'ada@new.example');
    await accountStore.deleteAccount(gone.id);
    first.flush();
    const again = open(crashCopy(file));
    expect(await again.stores.accountStore.getAccount(gone.id)).toBeUndefined();
    expect(await again.stores.accountStore.findKey(key.key)).toBeUndefined();
    expect((await admit(again, key.key)).outcome).toBe('unknown_key');
    expect(await again.stores.billingStore.accountOfCustomer('cus_gone')).toBeUndefined();
    expect(await again.stores.accountStore.findAccountByEmail('gone@example.com')).toBeUndefined();
    expect((await again.stores.accountStore.findAccountByEmail('ada@new.example'))?.id).toBe(moved.id);
    expect(await again.stores.accountStore.findAccountByEmail('ada@example.com')).toBeUndefined();
    expect((await again.stores.accountStore.serverHistory(['token'], '2026-03-10', '2026-03-10'))[0]?.counts['2xx']).toBe(3);
  });

  it('when closed and reopened, then accounts, emails, keys (rolled, revoked), subscriptions, counters, history and last use are all as they were', async () => {
    const file = freshFile();
    const first = open(file);
    const { accountStore } = first.stores;
    const account = await accountStore.createAccount({ email: 'ada@example.com', name: 'Ada', subscriptions: { token: { plan: 'tiny', status: 'active' } } });
    const kept = (await accountStore.createKey(account.id, { name: 'kept' }))!;
    const rolled = (await accountStore.createKey(account.id, { name: 'rolled' }))!;
    const revoked = (await accountStore.createKey(account.id, { name: 'revoked' }))!;
    const fresh = (await accountStore.rollKey(rolled.record.id, 3_600_000))!;
    await accountStore.revokeKey(revoked.record.id);
    const free = await accountStore.createAccount({ email: null, name: 'Free' });
    const freeKey = (await accountStore.createKey(free.id, { name: 'play' }))!;
    expect((await admit(first, kept.key)).outcome).toBe('admitted');
    expect((await admit(first, rolled.key)).outcome).toBe('admitted');
    expect((await admit(first, freeKey.key)).outcome).toBe('playground');
    await first.stores.quotaStore.countSignup('192.0.2.1', clock.now());
    await accountStore.record([{ accountId: account.id, api: 'token', dayId: '2026-03-10', outcome: '2xx', count: 2 }], new Map([[kept.record.id, START]]), 'b1', [
      { accountId: account.id, dayId: '2026-03-10', field: usageFields.keyCalls(kept.record.id), count: 2 },
      { accountId: account.id, dayId: '2026-03-10', field: usageFields.latency(4), count: 2 },
    ]);
    const before = {
      breakdown: await accountStore.usageBreakdown(account.id, '2026-03-09', '2026-03-10'),
      accounts: await accountStore.listAccounts({ limit: 10 }),
      keys: await accountStore.listKeys(account.id, { limit: 10 }),
      history: await accountStore.history(account.id, ['token'], '2026-03-09', '2026-03-10'),
      usage: await first.stores.quotaStore.usage(account.id, 'token', clock.now()),
      played: await first.stores.quotaStore.usage(free.id, 'token', clock.now()),
    };
    expect(before.usage).toEqual({ month: 2, day: 0 });
    expect(before.breakdown?.[1]?.keys).toEqual([{ key_id: kept.record.id, calls: 2, errors: 0 }]);
    expect(before.keys?.items.find((k) => k.id === kept.record.id)?.last_used_at).toBe(new Date(START).toISOString());
    first.close();
    // Closed: the write-ahead log is folded into the file, so copying the file alone is a backup.
    expect(existsSync(`${file}-wal`)).toBe(false);

    clock.advance(1_000);
    const second = open(file);
    const again = second.stores.accountStore;
    expect(second.stores.kind).toBe('sqlite');
    expect({
      breakdown: await again.usageBreakdown(account.id, '2026-03-09', '2026-03-10'),
      accounts: await again.listAccounts({ limit: 10 }),
      keys: await again.listKeys(account.id, { limit: 10 }),
      history: await again.history(account.id, ['token'], '2026-03-09', '2026-03-10'),
      usage: await second.stores.quotaStore.usage(account.id, 'token', clock.now()),
      played: await second.stores.quotaStore.usage(free.id, 'token', clock.now()),
    }).toEqual(before);
    expect((await again.findAccountByEmail('ada@example.com'))?.id).toBe(account.id);
    await expect(again.createAccount({ email: 'ada@example.com' })).rejects.toThrow(/email/i);
    // Both secrets of the rolled key work within its grace; the revoked key stays revoked.
    expect((await admit(second, rolled.key)).outcome).toBe('admitted');
    expect((await admit(second, fresh.key)).outcome).toBe('admitted');
    expect((await admit(second, revoked.key)).outcome).toBe('revoked');
    // The month's quota of 4 was used up across the restart: a restart does not reset it.
    expect((await admit(second, kept.key)).outcome).toBe('quota_exceeded');
    expect((await admit(second, freeKey.key)).outcome).toBe('playground');
    expect((await admit(second, freeKey.key)).outcome).toBe('playground_exhausted');
    expect(await second.stores.quotaStore.countSignup('192.0.2.1', clock.now())).toBe(2);
  });

  it('when closed and reopened, then what operators read is as it was: comps, keys by prefix, newest-first listing, the server totals, the top accounts and the audit log', async () => {
    const file = freshFile();
    const first = open(file);
    const { accountStore, auditLog } = first.stores;
    const older = await accountStore.createAccount({ email: 'old@example.com' });
    clock.advance(1_000);
    const account = await accountStore.createAccount({ email: 'ada@example.com', subscriptions: { token: { plan: 'tiny', status: 'active', comp: true } } });
    const key = (await accountStore.createKey(account.id, { name: 'k' }))!;
    await accountStore.record([{ accountId: account.id, api: 'token', dayId: '2026-03-10', outcome: '2xx', count: 3 }], new Map());
    const entry = await auditLog.append({ account_id: account.id, actor: { type: 'operator', id: 'admin token', via: 'console' }, from: '192.0.2.1', action: 'subscription.set', target: 'token', details: {} });
    const before = {
      newest: await accountStore.listAccounts({ limit: 10, newestFirst: true }),
      count: await accountStore.countAccounts(),
      byPrefix: await accountStore.findKeysByPrefix(key.record.prefix, 10),
      server: await accountStore.serverHistory(['token'], '2026-03-10', '2026-03-10'),
      top: await accountStore.topAccounts('2026-03', 10),
      audit: await auditLog.list({ limit: 10 }),
    };
    expect(before.newest.items.map((a) => a.id)).toEqual([account.id, older.id]);
    expect(before.audit.items).toEqual([entry]);
    first.close();
    const again = open(file).stores;
    expect({
      newest: await again.accountStore.listAccounts({ limit: 10, newestFirst: true }),
      count: await again.accountStore.countAccounts(),
      byPrefix: await again.accountStore.findKeysByPrefix(key.record.prefix, 10),
      server: await again.accountStore.serverHistory(['token'], '2026-03-10', '2026-03-10'),
      top: await again.accountStore.topAccounts('2026-03', 10),
      audit: await again.auditLog.list({ limit: 10 }),
    }).toEqual(before);
    expect((await again.accountStore.getAccount(account.id))?.subscriptions.token).toEqual({ plan: 'tiny', status: 'active', comp: true });
  });

  it('when the process dies without closing, then accounts and keys are there at once, and counts as of the last flush', async () => {
    const file = freshFile();
    const live = open(file);
    const account = await live.stores.accountStore.createAccount({ name: 'Crash', subscriptions: { token: { plan: 'tiny', status: 'active' } } });
    const key = (await live.stores.accountStore.createKey(account.id, { name: 'k' }))!;
    expect((await admit(live, key.key)).outcome).toBe('admitted');

    const unflushed = open(crashCopy(file));
    expect(await unflushed.stores.accountStore.getAccount(account.id)).toEqual(account);
    expect(await unflushed.stores.accountStore.getKey(key.record.id)).toEqual(key.record);
    expect(await unflushed.stores.quotaStore.usage(account.id, 'token', clock.now())).toEqual({ month: 0, day: 0 });
    expect((await admit(unflushed, key.key)).outcome).toBe('admitted');

    live.flush();
    expect((await admit(live, key.key)).outcome).toBe('admitted'); // after the flush: lost by the next crash
    const flushed = open(crashCopy(file));
    expect(await flushed.stores.quotaStore.usage(account.id, 'token', clock.now())).toEqual({ month: 1, day: 0 });
  });

  it('when the process dies right after billing changes, then customers, records, the lapsed subscription and handled events are all there', async () => {
    const file = freshFile();
    const live = open(file);
    const { accountStore, billingStore } = live.stores;
    const account = await accountStore.createAccount({ name: 'Billed' });
    await billingStore.rememberCustomer(account.id, 'EUR', 'cus_eur');
    const record = billingRecord({ status: 'unpaid', state: 'lapsed' });
    await billingStore.applyBilling(account.id, 'token', { record, subscription: { plan: 'pro', status: 'inactive', lapsed: 'unpaid' } });
    await billingStore.claimEvent('evt_done', clock.now());
    await billingStore.settleEvent('evt_done', true, clock.now());
    await billingStore.claimEvent('evt_held', clock.now());

    const after = open(crashCopy(file)).stores;
    expect(await after.billingStore.getBilling(account.id)).toEqual({ customers: { EUR: 'cus_eur' }, subscriptions: { token: record } });
    expect(await after.billingStore.accountOfCustomer('cus_eur')).toBe(account.id);
    expect((await after.accountStore.getAccount(account.id))?.subscriptions.token).toEqual({ plan: 'pro', status: 'inactive', lapsed: 'unpaid' });
    expect(await after.billingStore.claimEvent('evt_done', clock.now())).toBe('done');
    expect(await after.billingStore.claimEvent('evt_held', clock.now())).toBe('busy');
  });

  it('when counters lapse, then they are deleted from the file when swept, and not read back', async () => {
    const file = freshFile();
    const live = open(file);
    const account = await live.stores.accountStore.createAccount({ name: 'Old', subscriptions: { token: { plan: 'tiny', status: 'active' } } });
    const key = (await live.stores.accountStore.createKey(account.id, { name: 'k' }))!;
    await admit(live, key.key);
    live.flush();
    const names = (f: string): string[] => {
      const db = new Database(crashCopy(f), { readonly: false });
      try {
        return (db.prepare('SELECT name FROM counters ORDER BY name').all() as { name: string }[]).map((r) => r.name);
      } finally {
        db.close();
      }
    };
    expect(names(file)).toEqual([expect.stringContaining('2026-03')]);
    clock.advance(40 * 86_400_000); // past March's counter's lapse
    // The memory store sweeps lapsed counters every 10 000 writes.
    for (let i = 0; i < 10_000; i++) await live.stores.quotaStore.countSignup('192.0.2.9', clock.now());
    live.flush();
    expect(names(file)).toEqual([expect.stringContaining('192.0.2.9')]);
    live.close();
    clock.advance(2 * 3_600_000);
    const reopened = open(file);
    expect(await reopened.stores.quotaStore.countSignup('192.0.2.9', clock.now())).toBe(1);
  });

  it('when a second store opens a file that is open, then it is refused with StoreInUseError naming the file, and the first keeps working', async () => {
    const file = freshFile();
    const first = open(file);
    expect(() => openSqliteStores({ path: file, clock: clock.now })).toThrow(StoreInUseError);
    expect(() => openSqliteStores({ path: file, clock: clock.now })).toThrow(`STORE_PATH ${file} is in use by another gateway process`);
    expect((await first.stores.accountStore.createAccount({ name: 'Still' })).name).toBe('Still');
    first.close();
    expect(open(file).stores.kind).toBe('sqlite');
  });
});
