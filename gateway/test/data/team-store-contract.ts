import type { ApiPlans } from '../../src/domain/plans';
import { parseApiKey } from '../../src/domain/api-key';
import { sha256 } from '../../src/data/session-store';
import { INVITATION_KEPT_AFTER_END_MS, LastOwnerError, PersonEmailTakenError, TeamLimitError, adoptedPersonId } from '../../src/data/team-store';
import type { NewInvitation, Person } from '../../src/data/team-store';
import { adoptAccount, adoptAllAccounts } from '../../src/data/team-adoption';
import type { Stores } from '../../src/data/stores';
import { billingRecord } from './billing-store-contract';

/** What the team part of the store contract works with: the stores of the test and its clock. */
export interface TeamContractContext {
  stores: () => Stores;
  now: () => number;
  advance: (ms: number) => void;
}

const plans: ApiPlans = { playground_per_day: 0, plans: { tiny: { monthly_quota: 4, rate_per_second: 100, price: 0, currency: 'EUR' } } };
const DAY = 86_400_000;
const NO_TEAM = 'acc_000000000000000000000000';
const NO_PERSON = 'per_000000000000000000000000';

/** The team store's part of the contract (run by describeStoreContract on every engine). */
export function describeTeamContract(ctx: TeamContractContext): void {
  describe('teams', () => {
    const teams = () => ctx.stores().teamStore;
    let serial = 0;
    const person = async (name = 'p'): Promise<Person> => teams().createPerson({ email: `${name}${++serial}@example.com`, name });
    const team = async (): Promise<string> => (await ctx.stores().accountStore.createAccount({ email: null, name: 'Team' })).id;
    /** A team whose owner is a new person. */
    const ownedTeam = async () => {
      const teamId = await team();
      const owner = await person('owner');
      await teams().addMember(teamId, owner.id, 'owner', { invitedBy: null });
      return { teamId, owner };
    };
    const invitation = (teamId: string, invitedBy: string, fields: Partial<NewInvitation> = {}): NewInvitation => ({
      teamId,
      email: `guest${++serial}@example.com`,
      role: 'developer',
      invitedBy,
      codeHash: sha256(`code-${serial}`),
      expiresAtMs: ctx.now() + 7 * DAY,
      maxPending: 10,
      maxMembers: 25,
      ...fields,
    });

    it('when a person is made, then they are read back by id and address, an address is held once, and the last team is recorded', async () => {
      const ada = await teams().createPerson({ email: 'ada@teams.example', name: 'Ada' });
      expect(ada).toEqual({ id: expect.stringMatching(/^per_[0-9a-f]{24}$/), email: 'ada@teams.example', name: 'Ada', created_at: new Date(ctx.now()).toISOString(), last_team_id: null });
      expect(await teams().getPerson(ada.id)).toEqual(ada);
      expect(await teams().findPersonByEmail('ada@teams.example')).toEqual(ada);
      await expect(teams().createPerson({ email: 'ada@teams.example' })).rejects.toEqual(new PersonEmailTakenError(ada.id));
      const teamId = await team();
      expect(await teams().setLastTeam(ada.id, teamId)).toEqual({ ...ada, last_team_id: teamId });
      expect((await teams().getPerson(ada.id))?.last_team_id).toBe(teamId);
      const moved = await teams().changePersonEmail(ada.id, 'ada@moved.example');
      expect(moved).toEqual({ ...ada, email: 'ada@moved.example', last_team_id: teamId });
      expect(await teams().findPersonByEmail('ada@moved.example')).toEqual(moved);
      expect(await teams().findPersonByEmail('ada@teams.example')).toBeUndefined();
      const other = await teams().createPerson({ email: 'ada@teams.example' });
      expect(other.name).toBe('ada@teams.example');
      await expect(teams().changePersonEmail(ada.id, 'ada@teams.example')).rejects.toEqual(new PersonEmailTakenError(other.id));
      expect(await teams().changePersonEmail(NO_PERSON, 'x@teams.example')).toBeUndefined();
      expect(await teams().getPerson(NO_PERSON)).toBeUndefined();
      expect(await teams().findPersonByEmail('nobody@teams.example')).toBeUndefined();
      expect(await teams().setLastTeam(NO_PERSON, teamId)).toBeUndefined();
    });

    it('when people join a team, then both sides list them in the order they joined, joining again changes nothing, and the members limit refuses one more', async () => {
      const { teamId, owner } = await ownedTeam();
      const dev = await person('dev');
      ctx.advance(1_000);
      const joined = await teams().addMember(teamId, dev.id, 'developer', { invitedBy: owner.id, maxMembers: 2 });
      expect(joined).toEqual({ team_id: teamId, person_id: dev.id, role: 'developer', joined_at: new Date(ctx.now()).toISOString(), invited_by: owner.id });
      expect(await teams().addMember(teamId, dev.id, 'admin', { invitedBy: null, maxMembers: 2 })).toEqual(joined);
      await expect(teams().addMember(teamId, (await person()).id, 'developer', { invitedBy: owner.id, maxMembers: 2 })).rejects.toEqual(new TeamLimitError('members', 2));
      expect((await teams().listMembers(teamId)).map((m) => [m.person_id, m.role])).toEqual([[owner.id, 'owner'], [dev.id, 'developer']]);
      expect(await teams().getMembership(teamId, dev.id)).toEqual(joined);
      const other = await team();
      ctx.advance(1_000);
      await teams().addMember(other, dev.id, 'billing', { invitedBy: null });
      expect((await teams().listTeamsOf(dev.id)).map((m) => [m.team_id, m.role])).toEqual([[teamId, 'developer'], [other, 'billing']]);
      expect(await teams().getMembership(NO_TEAM, dev.id)).toBeUndefined();
      expect(await teams().listMembers(NO_TEAM)).toEqual([]);
      expect(await teams().listTeamsOf(NO_PERSON)).toEqual([]);
      // Only into an empty team (the migration): a team with members is left as it is.
      expect(await teams().addMember(teamId, (await person()).id, 'owner', { invitedBy: null, onlyIfEmpty: true })).toBeUndefined();
      expect(await teams().listMembers(teamId)).toHaveLength(2);
    });

    it('when roles change and members leave, then the last owner can be neither demoted nor removed, and with two owners one may go', async () => {
      const { teamId, owner } = await ownedTeam();
      const admin = await person('admin');
      await teams().addMember(teamId, admin.id, 'admin', { invitedBy: owner.id });
      await expect(teams().setRole(teamId, owner.id, 'admin')).rejects.toEqual(new LastOwnerError(teamId));
      await expect(teams().removeMember(teamId, owner.id)).rejects.toEqual(new LastOwnerError(teamId));
      expect((await teams().setRole(teamId, admin.id, 'owner'))?.role).toBe('owner');
      expect((await teams().setRole(teamId, owner.id, 'billing'))?.role).toBe('billing');
      expect((await teams().removeMember(teamId, owner.id))?.role).toBe('billing');
      expect(await teams().getMembership(teamId, owner.id)).toBeUndefined();
      expect(await teams().listTeamsOf(owner.id)).toEqual([]);
      expect((await teams().listMembers(teamId)).map((m) => m.person_id)).toEqual([admin.id]);
      expect(await teams().removeMember(teamId, owner.id)).toBeUndefined();
      expect(await teams().setRole(teamId, NO_PERSON, 'owner')).toBeUndefined();
    });

    it('when two owners each remove the other at once, then exactly one removal happens and the team keeps an owner', async () => {
      const { teamId, owner } = await ownedTeam();
      const second = await person('second');
      await teams().addMember(teamId, second.id, 'owner', { invitedBy: owner.id });
      const results = await Promise.allSettled([teams().removeMember(teamId, owner.id), teams().removeMember(teamId, second.id), teams().setRole(teamId, owner.id, 'developer')]);
      const refused = results.filter((r) => r.status === 'rejected');
      expect(refused.length).toBeGreaterThanOrEqual(1);
      for (const r of refused) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(LastOwnerError);
      expect((await teams().listMembers(teamId)).filter((m) => m.role === 'owner')).toHaveLength(1);
    });

    it('when an invitation is accepted by its address, then the person joins with its role and sender, and its code is used up', async () => {
      const { teamId, owner } = await ownedTeam();
      const input = invitation(teamId, owner.id, { role: 'billing' });
      const made = await teams().createInvitation(input);
      expect(made).toEqual({ id: expect.stringMatching(/^inv_[0-9a-f]{24}$/), team_id: teamId, email: input.email, role: 'billing', invited_by: owner.id, created_at: new Date(ctx.now()).toISOString(), expires_at: new Date(input.expiresAtMs).toISOString() });
      expect(made).not.toHaveProperty('code_hash');
      expect(await teams().listInvitations(teamId)).toEqual([made]);
      const guest = await teams().createPerson({ email: input.email });
      const stranger = await person('stranger');
      expect(await teams().acceptInvitation(input.codeHash, stranger, ctx.now(), 25)).toEqual({ outcome: 'other_address' });
      expect(await teams().acceptInvitation(sha256('not a code'), guest, ctx.now(), 25)).toEqual({ outcome: 'none' });
      ctx.advance(60_000);
      const accepted = await teams().acceptInvitation(input.codeHash, guest, ctx.now(), 25);
      expect(accepted).toEqual({ outcome: 'ok', invitation: made, membership: { team_id: teamId, person_id: guest.id, role: 'billing', joined_at: new Date(ctx.now()).toISOString(), invited_by: owner.id } });
      expect(await teams().getMembership(teamId, guest.id)).toEqual(accepted.outcome === 'ok' ? accepted.membership : undefined);
      expect((await teams().listTeamsOf(guest.id)).map((m) => m.team_id)).toEqual([teamId]);
      expect(await teams().listInvitations(teamId)).toEqual([]);
      expect(await teams().acceptInvitation(input.codeHash, guest, ctx.now(), 25)).toEqual({ outcome: 'none' });
    });

    it('when one code is presented many times at once, then exactly one acceptance succeeds', async () => {
      const { teamId, owner } = await ownedTeam();
      const input = invitation(teamId, owner.id);
      await teams().createInvitation(input);
      const guest = await teams().createPerson({ email: input.email });
      const outcomes = await Promise.all(Array.from({ length: 5 }, () => teams().acceptInvitation(input.codeHash, guest, ctx.now(), 25)));
      expect(outcomes.filter((o) => o.outcome === 'ok')).toHaveLength(1);
      expect(outcomes.filter((o) => o.outcome === 'none')).toHaveLength(4);
    });

    it('when an invitation lapses, then its code is told expired for a day after its end, then unknown, and it leaves the list', async () => {
      const { teamId, owner } = await ownedTeam();
      const input = invitation(teamId, owner.id, { expiresAtMs: ctx.now() + DAY });
      await teams().createInvitation(input);
      const guest = await teams().createPerson({ email: input.email });
      ctx.advance(DAY);
      expect(await teams().acceptInvitation(input.codeHash, guest, ctx.now(), 25)).toEqual({ outcome: 'expired' });
      expect(await teams().listInvitations(teamId)).toHaveLength(1);
      ctx.advance(INVITATION_KEPT_AFTER_END_MS);
      expect(await teams().acceptInvitation(input.codeHash, guest, ctx.now(), 25)).toEqual({ outcome: 'none' });
      expect(await teams().listInvitations(teamId)).toEqual([]);
      expect(await teams().getMembership(teamId, guest.id)).toBeUndefined();
    });

    it('when invitations pile up, then one to the same address replaces the older (whose code is void), and the pending and members limits refuse more', async () => {
      const { teamId, owner } = await ownedTeam();
      const first = invitation(teamId, owner.id, { maxPending: 2 });
      const older = await teams().createInvitation(first);
      const again = await teams().createInvitation({ ...first, codeHash: sha256('second code') });
      expect(again.id).not.toBe(older.id);
      expect((await teams().listInvitations(teamId)).map((i) => i.id)).toEqual([again.id]);
      const guest = await teams().createPerson({ email: first.email });
      expect(await teams().acceptInvitation(first.codeHash, guest, ctx.now(), 25)).toEqual({ outcome: 'none' });
      await teams().createInvitation(invitation(teamId, owner.id, { maxPending: 2 }));
      await expect(teams().createInvitation(invitation(teamId, owner.id, { maxPending: 2 }))).rejects.toEqual(new TeamLimitError('invitations', 2));
      await expect(teams().createInvitation(invitation(teamId, owner.id, { maxMembers: 1 }))).rejects.toEqual(new TeamLimitError('members', 1));
      // A team that filled up after the invitation was sent: left unused.
      expect(await teams().acceptInvitation(sha256('second code'), guest, ctx.now(), 1)).toEqual({ outcome: 'members_limit', max: 1 });
      expect((await teams().acceptInvitation(sha256('second code'), guest, ctx.now(), 25)).outcome).toBe('ok');
    });

    it('when an invitation is revoked, then its code is unknown; another team cannot revoke it', async () => {
      const { teamId, owner } = await ownedTeam();
      const input = invitation(teamId, owner.id);
      const made = await teams().createInvitation(input);
      const other = await ownedTeam();
      expect(await teams().revokeInvitation(other.teamId, made.id)).toBeUndefined();
      expect(await teams().revokeInvitation(teamId, made.id)).toEqual(made);
      expect(await teams().revokeInvitation(teamId, made.id)).toBeUndefined();
      const guest = await teams().createPerson({ email: input.email });
      expect(await teams().acceptInvitation(input.codeHash, guest, ctx.now(), 25)).toEqual({ outcome: 'none' });
    });

    it('when a team is forgotten and a person deleted, then their memberships, invitations and address go, but not while they are a last owner', async () => {
      const { teamId, owner } = await ownedTeam();
      const dev = await person('dev');
      await teams().addMember(teamId, dev.id, 'developer', { invitedBy: owner.id });
      const input = invitation(teamId, owner.id);
      await teams().createInvitation(input);
      await expect(teams().deletePerson(owner.id)).rejects.toEqual(new LastOwnerError(teamId));
      expect(await teams().getMembership(teamId, owner.id)).toBeDefined();
      const other = await ownedTeam();
      await teams().addMember(other.teamId, dev.id, 'admin', { invitedBy: null });
      expect(await teams().deletePerson(dev.id)).toEqual(dev);
      expect(await teams().getPerson(dev.id)).toBeUndefined();
      expect(await teams().findPersonByEmail(dev.email)).toBeUndefined();
      expect((await teams().listMembers(teamId)).map((m) => m.person_id)).toEqual([owner.id]);
      expect((await teams().listMembers(other.teamId)).map((m) => m.person_id)).toEqual([other.owner.id]);
      expect((await teams().createPerson({ email: dev.email })).id).not.toBe(dev.id);
      await teams().forgetTeam(teamId);
      expect(await teams().listMembers(teamId)).toEqual([]);
      expect(await teams().listInvitations(teamId)).toEqual([]);
      expect(await teams().listTeamsOf(owner.id)).toEqual([]);
      expect(await teams().acceptInvitation(input.codeHash, await teams().createPerson({ email: input.email }), ctx.now(), 25)).toEqual({ outcome: 'none' });
      expect(await teams().deletePerson(owner.id)).toEqual(owner);
      expect(await teams().deletePerson(owner.id)).toBeUndefined();
    });

    it('when a member makes a key, then every read names them as its maker, and the key stays, working, after they leave', async () => {
      const { accountStore, quotaStore } = ctx.stores();
      const { teamId, owner } = await ownedTeam();
      const dev = await person('dev');
      await teams().addMember(teamId, dev.id, 'developer', { invitedBy: owner.id });
      await accountStore.setSubscription(teamId, 'token', { plan: 'tiny', status: 'active' });
      const made = (await accountStore.createKey(teamId, { name: 'ci', createdBy: { person_id: dev.id, email: dev.email } }))!;
      ctx.advance(1_000);
      const byOperator = (await accountStore.createKey(teamId, { name: 'ops' }))!;
      const creator = { person_id: dev.id, email: dev.email };
      expect(made.record.created_by).toEqual(creator);
      expect(byOperator.record.created_by).toBeNull();
      expect((await accountStore.getKey(made.record.id))?.created_by).toEqual(creator);
      expect((await accountStore.listKeys(teamId, { limit: 10 }))?.items.map((k) => k.created_by)).toEqual([creator, null]);
      expect((await accountStore.findKey(made.key))?.key.created_by).toEqual(creator);
      const rolled = (await accountStore.rollKey(made.record.id, 0))!;
      expect(rolled.record.created_by).toEqual(creator);
      expect((await accountStore.revokeKey(byOperator.record.id))?.created_by).toBeNull();

      await teams().removeMember(teamId, dev.id);
      expect((await accountStore.getKey(made.record.id))?.created_by).toEqual(creator);
      const parsed = parseApiKey(rolled.key);
      if (!parsed.ok) throw new Error('a generated key did not parse');
      expect((await quotaStore.admit({ accountId: parsed.accountId, keyHash: parsed.hash, api: 'token', apiPlans: plans, nowMs: ctx.now() })).outcome).toBe('admitted');
    });

    describe('the migration: every account becomes a team of one', () => {
      it('when accounts written as before teams are adopted, then each with an address has its person as owner, and keys, calls, quotas, history and paid plans answer as before', async () => {
        const { accountStore, quotaStore, billingStore } = ctx.stores();
        const subscribed = { token: { plan: 'tiny', status: 'active' as const } };
        const paid = await accountStore.createAccount({ email: 'paid@before.example', name: 'Paid Ltd', subscriptions: subscribed });
        const keyless = await accountStore.createAccount({ email: null, name: 'From a key' });
        const plain = await accountStore.createAccount({ email: 'plain@before.example' });
        const key = (await accountStore.createKey(paid.id, { name: 'prod' }))!;
        const parsed = parseApiKey(key.key);
        if (!parsed.ok) throw new Error('a generated key did not parse');
        const admit = () => quotaStore.admit({ accountId: parsed.accountId, keyHash: parsed.hash, api: 'token', apiPlans: plans, nowMs: ctx.now() });
        expect((await admit()).outcome).toBe('admitted');
        await accountStore.record([{ accountId: paid.id, api: 'token', dayId: '2026-03-31', outcome: '2xx', count: 1 }], new Map());
        await billingStore.applyBilling(paid.id, 'token', { record: billingRecord(), subscription: subscribed.token });
        const before = {
          account: await accountStore.getAccount(paid.id),
          keys: await accountStore.listKeys(paid.id, { limit: 10 }),
          usage: await quotaStore.usage(paid.id, 'token', ctx.now()),
          history: await accountStore.history(paid.id, ['token'], '2026-03-31', '2026-03-31'),
          billing: await billingStore.getBilling(paid.id),
        };

        expect(await adoptAllAccounts(accountStore, teams(), 2)).toBe(2);

        const owner = await teams().findPersonByEmail('paid@before.example');
        expect(owner).toEqual({ id: adoptedPersonId(paid.id), email: 'paid@before.example', name: 'Paid Ltd', created_at: new Date(ctx.now()).toISOString(), last_team_id: paid.id });
        expect(await teams().listMembers(paid.id)).toEqual([{ team_id: paid.id, person_id: owner!.id, role: 'owner', joined_at: new Date(ctx.now()).toISOString(), invited_by: null }]);
        expect((await teams().listMembers(plain.id)).map((m) => m.role)).toEqual(['owner']);
        expect(await teams().listMembers(keyless.id)).toEqual([]);
        expect({
          account: await accountStore.getAccount(paid.id),
          keys: await accountStore.listKeys(paid.id, { limit: 10 }),
          usage: await quotaStore.usage(paid.id, 'token', ctx.now()),
          history: await accountStore.history(paid.id, ['token'], '2026-03-31', '2026-03-31'),
          billing: await billingStore.getBilling(paid.id),
        }).toEqual(before);
        expect((await admit()).outcome).toBe('admitted');
        expect((await quotaStore.usage(paid.id, 'token', ctx.now())).month).toBe(before.usage.month + 1);
        expect(before.usage.month).toBe(1);
        // Run again (another gateway, the next start): nothing more to do, nothing changed.
        expect(await adoptAllAccounts(accountStore, teams())).toBe(0);
        expect(await teams().listMembers(paid.id)).toHaveLength(1);
      });

      it('when an account is adopted whose address already has a person, or by two gateways at once, then one person owns it', async () => {
        const { accountStore } = ctx.stores();
        const known = await teams().createPerson({ email: 'known@before.example', name: 'Known' });
        const account = await accountStore.createAccount({ email: 'known@before.example' });
        await Promise.all([adoptAccount(teams(), account), adoptAccount(teams(), account)]);
        expect(await teams().listMembers(account.id)).toEqual([expect.objectContaining({ person_id: known.id, role: 'owner' })]);
        expect((await teams().getPerson(known.id))?.last_team_id).toBe(account.id);
        const fresh = await accountStore.createAccount({ email: 'fresh@before.example' });
        await Promise.all([adoptAccount(teams(), fresh), adoptAccount(teams(), fresh), adoptAccount(teams(), fresh)]);
        expect(await teams().listMembers(fresh.id)).toEqual([expect.objectContaining({ person_id: adoptedPersonId(fresh.id), role: 'owner' })]);
      });
    });
  });
}
