import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { manualClock } from '../../../test/data/store-contract';
import type { ApiPlans } from '../../domain/plans';
import { parseApiKey } from '../../domain/api-key';
import { sha256 } from '../session-store';
import { adoptAllAccounts } from '../team-adoption';
import { openSqliteStores } from './sqlite-stores';
import type { SqliteStores } from './sqlite-stores';

const plans: ApiPlans = { playground_per_day: 0, plans: { tiny: { monthly_quota: 4, rate_per_second: 100, price: 0, currency: 'EUR' } } };
const clock = manualClock(Date.parse('2026-03-10T12:00:00.000Z'));
let dir: string;
let opened: SqliteStores[] = [];
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tollgate-sqlite-teams-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  for (const s of opened) s.close();
  opened = [];
});
const open = (file: string): SqliteStores => {
  const stores = openSqliteStores({ path: file, clock: clock.now, flushEveryMs: 60_000 });
  opened.push(stores);
  return stores;
};

describe('teams in the embedded file', () => {
  it('when a file written before teams is opened, then its accounts are adopted with nothing else changed, and members and invitations survive a crash', async () => {
    const file = path.join(dir, 'before-teams', 'tollgate.db');
    const before = open(file);
    const account = await before.stores.accountStore.createAccount({ email: 'old@file.example', subscriptions: { token: { plan: 'tiny', status: 'active' } } });
    const key = (await before.stores.accountStore.createKey(account.id, { name: 'prod' }))!;
    const parsed = parseApiKey(key.key);
    if (!parsed.ok) throw new Error('a generated key did not parse');
    const admit = (s: SqliteStores) => s.stores.quotaStore.admit({ accountId: parsed.accountId, keyHash: parsed.hash, api: 'token', apiPlans: plans, nowMs: clock.now() });
    expect((await admit(before)).outcome).toBe('admitted');
    before.close();
    opened = [];
    // What the release before teams left: the same file without the team tables.
    const raw = new Database(file);
    raw.exec('DROP TABLE people; DROP TABLE team_members; DROP TABLE team_invitations;');
    raw.exec("UPDATE keys SET record = json_remove(record, '$.created_by')");
    raw.close();

    const after = open(file);
    expect(await after.stores.accountStore.getAccount(account.id)).toEqual(account);
    expect(await after.stores.accountStore.getKey(key.record.id)).toEqual({ ...key.record, created_by: null });
    expect(await after.stores.teamStore.listMembers(account.id)).toEqual([]);
    expect(await adoptAllAccounts(after.stores.accountStore, after.stores.teamStore)).toBe(1);
    expect(await after.stores.quotaStore.usage(account.id, 'token', clock.now())).toEqual({ month: 1, day: 0 });
    expect((await admit(after)).outcome).toBe('admitted');
    const owner = (await after.stores.teamStore.findPersonByEmail('old@file.example'))!;
    const invited = await after.stores.teamStore.createInvitation({ teamId: account.id, email: 'new@file.example', role: 'developer', invitedBy: owner.id, codeHash: sha256('code'), expiresAtMs: clock.now() + 86_400_000, maxPending: 10, maxMembers: 25 });

    // kill -9: the file and its log as they are, without a close.
    const copy = `${file}.crash`;
    copyFileSync(file, copy);
    if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`);
    const reopened = open(copy);
    expect(await reopened.stores.teamStore.listMembers(account.id)).toEqual([expect.objectContaining({ person_id: owner.id, role: 'owner' })]);
    expect(await reopened.stores.teamStore.getPerson(owner.id)).toEqual(owner);
    expect(await reopened.stores.teamStore.listInvitations(account.id)).toEqual([invited]);
    const guest = await reopened.stores.teamStore.createPerson({ email: 'new@file.example' });
    expect((await reopened.stores.teamStore.acceptInvitation(sha256('code'), guest, clock.now(), 25)).outcome).toBe('ok');
    expect(await adoptAllAccounts(reopened.stores.accountStore, reopened.stores.teamStore)).toBe(0);
  });
});
