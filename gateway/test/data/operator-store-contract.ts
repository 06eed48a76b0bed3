import type { Account } from '../../src/data/account-store';
import { auditedAccountStore } from '../../src/data/audited-account-store';
import type { AuditEntry, NewAuditEntry } from '../../src/data/audit-log';
import type { Stores } from '../../src/data/stores';
import type { ManualClock } from './store-contract';

const NO_ACCOUNT = 'acc_000000000000000000000000';
const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * What every store set shows the operators (the console, the admin API and the CLI): listing
 * newest first and counting accounts, finding keys by prefix through an index, comps, the
 * server's totals and top accounts, and the audit log. Run by describeStoreContract on every
 * engine, with its stores and clock.
 */
export function describeOperatorContract(current: () => { stores: Stores; clock: ManualClock }): void {
  const stores = (): Stores => current().stores;
  const clock = (): ManualClock => current().clock;
  const entry = (accountId: string | null, action: NewAuditEntry['action'], n = 0): NewAuditEntry => ({
    account_id: accountId,
    actor: { type: 'operator', id: 'ops@example.com', via: 'console' },
    from: '192.0.2.7',
    action,
    target: null,
    details: { n },
  });

  describe('what operators read', () => {
    it('when accounts are listed newest first, then pages run from the newest to the oldest, and the count is every account', async () => {
      const made: Account[] = [];
      for (let i = 0; i < 5; i++) {
        made.push(await stores().accountStore.createAccount({ email: `user${i}@example.com` }));
        clock().advance(i === 2 ? 0 : 1_000);
      }
      const newest = [...made].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
      const seen: Account[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await stores().accountStore.listAccounts({ cursor, limit: 2, newestFirst: true });
        seen.push(...page.items);
        cursor = page.next_cursor ?? undefined;
        pages++;
      } while (cursor && pages < 10);
      expect([pages, seen]).toEqual([3, newest]);
      expect(await stores().accountStore.countAccounts()).toBe(5);
    });

    it('when keys are looked up by prefix, then the key whose record holds it is found (each key has its own, also after a roll), at most the limit; a prefix of none or `tg_` finds nothing', async () => {
      const a = await stores().accountStore.createAccount({ name: 'a' });
      const b = await stores().accountStore.createAccount({ name: 'b' });
      const one = (await stores().accountStore.createKey(a.id, { name: 'one' }))!;
      const two = (await stores().accountStore.createKey(a.id, { name: 'two' }))!;
      const other = (await stores().accountStore.createKey(b.id, { name: 'other' }))!;
      const byPrefix = async (prefix: string, limit = 10) => (await stores().accountStore.findKeysByPrefix(prefix, limit)).map((k) => k.id).sort();
      // Each key has a prefix of its own, also between keys of one account.
      expect(new Set([one.record.prefix, two.record.prefix, other.record.prefix]).size).toBe(3);
      expect(await byPrefix(one.record.prefix)).toEqual([one.record.id]);
      expect(await byPrefix(two.record.prefix)).toEqual([two.record.id]);
      expect(await byPrefix(other.record.prefix)).toEqual([other.record.id]);
      expect(await byPrefix(one.record.prefix, 1)).toHaveLength(1);
      expect(await byPrefix('tg_')).toEqual([]);
      expect(await byPrefix('tg_00000000')).toEqual([]);
      const rolled = (await stores().accountStore.rollKey(one.record.id, 0))!;
      const found = await stores().accountStore.findKeysByPrefix(rolled.record.prefix, 10);
      expect(found.find((k) => k.id === one.record.id)).toEqual(rolled.record);
    });

    it('when a plan is set as a comp, then the account shows it; set again without, or cancelled, the mark is gone', async () => {
      const account = await stores().accountStore.createAccount({ name: 'Team', subscriptions: { burger: { plan: 'tiny', status: 'active', comp: true } } });
      expect(account.subscriptions).toEqual({ burger: { plan: 'tiny', status: 'active', comp: true } });
      expect((await stores().accountStore.setSubscription(account.id, 'token', { plan: 'slow', status: 'active', comp: true }))?.subscriptions.token).toEqual({ plan: 'slow', status: 'active', comp: true });
      expect((await stores().accountStore.getAccount(account.id))?.subscriptions).toEqual({ burger: { plan: 'tiny', status: 'active', comp: true }, token: { plan: 'slow', status: 'active', comp: true } });
      expect((await stores().accountStore.setSubscription(account.id, 'token', { plan: 'tiny', status: 'active' }))?.subscriptions.token).toEqual({ plan: 'tiny', status: 'active' });
      expect((await stores().accountStore.setSubscription(account.id, 'burger', null))?.subscriptions).toEqual({ token: { plan: 'tiny', status: 'active' } });
      await stores().accountStore.setSubscription(account.id, 'burger', { plan: 'tiny', status: 'active' });
      expect((await stores().accountStore.getAccount(account.id))?.subscriptions.burger).toEqual({ plan: 'tiny', status: 'active' });
    });

    it('when history is recorded, then the server totals add up every account by day, API and outcome, once per batch, and the month ranks its accounts', async () => {
      const a = await stores().accountStore.createAccount({ name: 'a' });
      const b = await stores().accountStore.createAccount({ name: 'b' });
      const c = await stores().accountStore.createAccount({ name: 'c' });
      const counts = [
        { accountId: a.id, api: 'token', dayId: '2026-03-30', outcome: '2xx' as const, count: 5 },
        { accountId: b.id, api: 'token', dayId: '2026-03-30', outcome: '2xx' as const, count: 7 },
        { accountId: b.id, api: 'token', dayId: '2026-03-31', outcome: '429' as const, count: 2 },
        { accountId: c.id, api: 'burger', dayId: '2026-03-31', outcome: 'refunded' as const, count: 1 },
        { accountId: a.id, api: 'token', dayId: '2026-04-01', outcome: '2xx' as const, count: 50 },
      ];
      await stores().accountStore.record(counts, new Map(), 'batch-1');
      await stores().accountStore.record(counts, new Map(), 'batch-1');
      const zero = { '2xx': 0, '4xx': 0, '429': 0, '5xx': 0, refunded: 0 };
      expect(await stores().accountStore.serverHistory(['token', 'burger'], '2026-03-30', '2026-03-31')).toEqual([
        { day: '2026-03-30', api: 'token', counts: { ...zero, '2xx': 12 } },
        { day: '2026-03-30', api: 'burger', counts: zero },
        { day: '2026-03-31', api: 'token', counts: { ...zero, '429': 2 } },
        { day: '2026-03-31', api: 'burger', counts: { ...zero, refunded: 1 } },
      ]);
      expect(await stores().accountStore.topAccounts('2026-03', 2)).toEqual({ top: [{ account_id: b.id, calls: 9 }, { account_id: a.id, calls: 5 }], active: 3 });
      expect(await stores().accountStore.topAccounts('2026-04', 10)).toEqual({ top: [{ account_id: a.id, calls: 50 }], active: 1 });
      expect(await stores().accountStore.topAccounts('2026-02', 10)).toEqual({ top: [], active: 0 });
    });

    it('when entries are added to the audit log, then it lists them newest first (or oldest), all or one account’s, a page at a time, each with an id and its time', async () => {
      const log = stores().auditLog;
      const added: AuditEntry[] = [];
      for (let i = 0; i < 5; i++) {
        added.push(await log.append(entry(i % 2 === 0 ? 'acc_aaaaaaaaaaaaaaaaaaaaaaaa' : 'acc_bbbbbbbbbbbbbbbbbbbbbbbb', 'key.revoke', i)));
        clock().advance(1_000);
      }
      added.push(await log.append(entry(null, 'billing.provider_changed', 5)));
      expect(added[0]).toEqual({ id: expect.any(String), at: iso(clock().now() - 5_000), ...entry('acc_aaaaaaaaaaaaaaaaaaaaaaaa', 'key.revoke', 0) });
      expect(new Set(added.map((e) => e.id)).size).toBe(6);
      const pages: AuditEntry[][] = [];
      let cursor: string | undefined;
      do {
        const page = await log.list({ cursor, limit: 4 });
        pages.push(page.items);
        cursor = page.next_cursor ?? undefined;
      } while (cursor && pages.length < 10);
      expect(pages.map((p) => p.length)).toEqual([4, 2]);
      expect(pages.flat()).toEqual([...added].reverse());
      expect((await log.list({ limit: 10, oldestFirst: true })).items).toEqual(added);
      const mine = await log.list({ accountId: 'acc_aaaaaaaaaaaaaaaaaaaaaaaa', limit: 2 });
      expect(mine.items.map((e) => e.details.n)).toEqual([4, 2]);
      expect((await log.list({ accountId: 'acc_aaaaaaaaaaaaaaaaaaaaaaaa', limit: 2, cursor: mine.next_cursor! })).items.map((e) => e.details.n)).toEqual([0]);
      expect((await log.list({ accountId: 'acc_aaaaaaaaaaaaaaaaaaaaaaaa', limit: 10, oldestFirst: true })).items.map((e) => e.details.n)).toEqual([0, 2, 4]);
      expect(await log.list({ accountId: NO_ACCOUNT, limit: 10 })).toEqual({ items: [], next_cursor: null });
      expect((await log.list({ limit: 2, cursor: 'not-a-cursor' })).items).toHaveLength(2);
    });

    it('when an audited store changes an account, then each change is one entry with who, from where and what; a change that changes nothing adds none', async () => {
      const failures: unknown[] = [];
      const source = { actor: { type: 'operator' as const, id: 'ops@example.com', via: 'console' }, from: '192.0.2.7' };
      const audited = auditedAccountStore(stores().accountStore, { auditLog: stores().auditLog, onAuditFailure: (e) => failures.push(e) }, source);
      const account = await audited.createAccount({ email: 'ada@example.com' });
      await audited.setSubscription(account.id, 'token', { plan: 'slow', status: 'active', comp: true });
      await audited.setSubscription(account.id, 'token', { plan: 'slow', status: 'active', comp: true });
      await audited.setStatus(account.id, 'suspended');
      await audited.setStatus(account.id, 'suspended');
      await audited.setStatus(account.id, 'active');
      const key = (await audited.createKey(account.id, { name: 'ci' }))!;
      await audited.rollKey(key.record.id, 60_000);
      await audited.endGrace(key.record.id);
      await audited.endGrace(key.record.id);
      await audited.revokeKey(key.record.id);
      await audited.revokeKey(key.record.id);
      await audited.setSubscription(account.id, 'token', null);
      expect(await audited.setStatus(NO_ACCOUNT, 'suspended')).toBeUndefined();
      const { items } = await stores().auditLog.list({ accountId: account.id, limit: 50, oldestFirst: true });
      expect(items.map((e) => [e.action, e.target])).toEqual([
        ['account.create', null],
        ['subscription.set', 'token'],
        ['account.suspend', null],
        ['account.reactivate', null],
        ['key.create', key.record.id],
        ['key.roll', key.record.id],
        ['key.end_grace', key.record.id],
        ['key.revoke', key.record.id],
        ['subscription.cancel', 'token'],
      ]);
      for (const e of items) expect([e.actor, e.from, e.account_id]).toEqual([source.actor, source.from, account.id]);
      expect(items[1]!.details).toEqual({ before: null, after: { plan: 'slow', status: 'active', comp: true } });
      expect(items[2]!.details).toEqual({ before: 'active', after: 'suspended' });
      expect(JSON.stringify(items)).not.toContain(key.key);
      expect(failures).toEqual([]);
    });
  });
}
