import { INVITATION_KEPT_AFTER_END_MS, LastOwnerError, PersonEmailTakenError, TeamLimitError, byJoined, leavesNoOwner, newInvitationRecord, newPersonRecord, newTeamStoreId } from '../team-store';
import type { Invitation, Membership, Person, TeamRole, TeamStore } from '../team-store';
import type { RedisClient } from './redis-client';
import { redisKeys } from './redis-keys';
import type { StoreGuard } from './store-guard';
import { ACCEPT_INVITATION_SCRIPT, ADD_MEMBER_SCRIPT, CREATE_INVITATION_SCRIPT, DELETE_IF_SCRIPT, REMOVE_MEMBER_SCRIPT, SET_ROLE_SCRIPT } from './scripts/team-scripts';

interface TeamScripts {
  tollgateAddMember(key: string, personId: string, record: string, max: number, onlyIfEmpty: string): Promise<[string, string?]>;
  tollgateSetRole(key: string, personId: string, role: string): Promise<string | null>;
  tollgateRemoveMember(key: string, personId: string): Promise<string | null>;
  tollgateCreateInvitation(invitations: string, members: string, ...args: string[]): Promise<string[]>;
  tollgateAcceptInvitation(invitations: string, members: string, ...args: string[]): Promise<string[]>;
  tollgateDeleteIf(key: string, value: string): Promise<number>;
}

/** An invitation as the hash holds it: the record, its code's hash and its end in ms (for the scripts). */
type StoredJson = Invitation & { code_hash: string; expires_ms: number };

const encodeMember = (m: Pick<Membership, 'role' | 'invited_by'>, joinedMs: number): string => `${m.role}|${joinedMs}|${m.invited_by ?? ''}`;
function decodeMember(teamId: string, personId: string, record: string): Membership {
  const [role, joined, invitedBy] = record.split('|');
  return { team_id: teamId, person_id: personId, role: role as TeamRole, joined_at: new Date(Number(joined)).toISOString(), invited_by: invitedBy ? invitedBy : null };
}
const decodeInvitation = (json: string): Invitation => {
  const { code_hash: _code, expires_ms: _ends, ...invitation } = JSON.parse(json) as StoredJson;
  return invitation;
};
const TTL_AFTER_END_MS = INVITATION_KEPT_AFTER_END_MS;

/** A refusal carried through the store guard. */
class Refused {
  constructor(readonly error: Error) {}
}

/** People, memberships and invitations in Redis (docs/teams.md#layout-per-engine). */
export function createRedisTeamStore(redis: RedisClient, options: { guard: StoreGuard; clock: () => number }): TeamStore {
  const { guard, clock } = options;
  redis.defineCommand('tollgateAddMember', { numberOfKeys: 1, lua: ADD_MEMBER_SCRIPT });
  redis.defineCommand('tollgateSetRole', { numberOfKeys: 1, lua: SET_ROLE_SCRIPT });
  redis.defineCommand('tollgateRemoveMember', { numberOfKeys: 1, lua: REMOVE_MEMBER_SCRIPT });
  redis.defineCommand('tollgateCreateInvitation', { numberOfKeys: 2, lua: CREATE_INVITATION_SCRIPT });
  redis.defineCommand('tollgateAcceptInvitation', { numberOfKeys: 2, lua: ACCEPT_INVITATION_SCRIPT });
  redis.defineCommand('tollgateDeleteIf', { numberOfKeys: 1, lua: DELETE_IF_SCRIPT });
  const scripts = redis as unknown as TeamScripts;
  // The guard turns every error thrown inside it into a StoreError: a refusal goes through it as a
  // value and is thrown after (as the account store's are, account-context.ts refusedAfter).
  const run = <T>(operation: string, command: () => Promise<T>): Promise<T> =>
    guard
      .run(operation, async (): Promise<T | Refused> => {
        try {
          return await command();
        } catch (err) {
          if (err instanceof PersonEmailTakenError || err instanceof LastOwnerError || err instanceof TeamLimitError) return new Refused(err);
          throw err;
        }
      })
      .then((value) => {
        if (value instanceof Refused) throw value.error;
        return value;
      });

  const readPerson = async (id: string): Promise<Person | undefined> => {
    const fields = await redis.hgetall(redisKeys.person(id));
    if (fields.email === undefined) return undefined;
    return { id, email: fields.email, name: fields.name ?? fields.email, created_at: fields.created_at ?? '', last_team_id: fields.last_team ? fields.last_team : null };
  };
  const readMembers = async (teamId: string): Promise<Membership[]> =>
    byJoined(Object.entries(await redis.hgetall(redisKeys.members(teamId))).map(([personId, record]) => decodeMember(teamId, personId, record)));
  const removeMember = async (teamId: string, personId: string): Promise<Membership | undefined> => {
    const removed = await scripts.tollgateRemoveMember(redisKeys.members(teamId), personId);
    if (removed === 'last_owner') throw new LastOwnerError(teamId);
    if (removed === null) return undefined;
    await redis.srem(redisKeys.personTeams(personId), teamId);
    return decodeMember(teamId, personId, removed);
  };
  const dropCodes = async (hashes: readonly string[]): Promise<void> => {
    if (hashes.length > 0) await Promise.all(hashes.map((hash) => redis.del(redisKeys.invitationCode(hash))));
  };

  return {
    createPerson: (input) =>
      run('create_person', async () => {
        const person = newPersonRecord(input.id ?? newTeamStoreId('per_'), input, clock());
        // The address is claimed first, in its own slot: the claim is what keeps it unique. A
        // claim already made for this very id (a migration run at once elsewhere) is this one's.
        if (!(await redis.set(redisKeys.personEmail(person.email), person.id, 'NX'))) {
          const holder = (await redis.get(redisKeys.personEmail(person.email))) ?? '';
          if (holder !== person.id) throw new PersonEmailTakenError(holder);
        }
        await redis.hset(redisKeys.person(person.id), { email: person.email, name: person.name, created_at: person.created_at, last_team: '' });
        return person;
      }),
    getPerson: (id) => run('get_person', () => readPerson(id)),
    findPersonByEmail: (email) =>
      run('find_person', async () => {
        const id = await redis.get(redisKeys.personEmail(email));
        return id ? readPerson(id) : undefined;
      }),
    changePersonEmail: (personId, email) =>
      run('change_person_email', async () => {
        const person = await readPerson(personId);
        if (!person) return undefined;
        if (person.email === email) return person;
        // The new address is claimed first, as at creation; the old one is freed only once the person holds the new.
        if (!(await redis.set(redisKeys.personEmail(email), personId, 'NX'))) {
          const holder = (await redis.get(redisKeys.personEmail(email))) ?? '';
          if (holder !== personId) throw new PersonEmailTakenError(holder);
        }
        const name = person.name === person.email ? email : person.name;
        await redis.hset(redisKeys.person(personId), { email, name });
        await scripts.tollgateDeleteIf(redisKeys.personEmail(person.email), personId);
        return { ...person, email, name };
      }),
    setLastTeam: (personId, teamId) =>
      run('set_last_team', async () => {
        if (!(await redis.exists(redisKeys.person(personId)))) return undefined;
        await redis.hset(redisKeys.person(personId), 'last_team', teamId);
        return readPerson(personId);
      }),
    addMember: (teamId, personId, role, { invitedBy, maxMembers, onlyIfEmpty }) =>
      run('add_member', async () => {
        const record = encodeMember({ role, invited_by: invitedBy }, clock());
        const [outcome, stored] = await scripts.tollgateAddMember(redisKeys.members(teamId), personId, record, maxMembers ?? -1, onlyIfEmpty ? '1' : '0');
        if (outcome === 'limit') throw new TeamLimitError('members', maxMembers ?? 0);
        if (outcome === 'skip' || stored === undefined) return undefined;
        await redis.sadd(redisKeys.personTeams(personId), teamId);
        return decodeMember(teamId, personId, stored);
      }),
    getMembership: (teamId, personId) =>
      run('get_membership', async () => {
        const record = await redis.hget(redisKeys.members(teamId), personId);
        return record === null ? undefined : decodeMember(teamId, personId, record);
      }),
    listMembers: (teamId) => run('list_members', () => readMembers(teamId)),
    listTeamsOf: (personId) =>
      run('list_teams_of', async () => {
        const teamIds = await redis.smembers(redisKeys.personTeams(personId));
        const records = await Promise.all(teamIds.map((teamId) => redis.hget(redisKeys.members(teamId), personId)));
        // The team's hash is the record: an index entry it does not confirm (a removal cut short) is not a membership.
        return byJoined(teamIds.flatMap((teamId, i) => (records[i] ? [decodeMember(teamId, personId, records[i])] : [])));
      }),
    setRole: (teamId, personId, role) =>
      run('set_role', async () => {
        const updated = await scripts.tollgateSetRole(redisKeys.members(teamId), personId, role);
        if (updated === 'last_owner') throw new LastOwnerError(teamId);
        return updated === null ? undefined : decodeMember(teamId, personId, updated);
      }),
    removeMember: (teamId, personId) => run('remove_member', () => removeMember(teamId, personId)),
    createInvitation: (input) =>
      run('create_invitation', async () => {
        const nowMs = clock();
        const invitation = newInvitationRecord(newTeamStoreId('inv_'), input, nowMs);
        const stored: StoredJson = { ...invitation, code_hash: input.codeHash, expires_ms: input.expiresAtMs };
        const [outcome, ...dropped] = await scripts.tollgateCreateInvitation(
          redisKeys.invitations(input.teamId),
          redisKeys.members(input.teamId),
          invitation.id,
          JSON.stringify(stored),
          input.email,
          String(nowMs),
          String(TTL_AFTER_END_MS),
          String(input.maxPending),
          String(input.maxMembers),
        );
        await dropCodes(dropped);
        if (outcome === 'members') throw new TeamLimitError('members', input.maxMembers);
        if (outcome === 'invitations') throw new TeamLimitError('invitations', input.maxPending);
        await redis.set(redisKeys.invitationCode(input.codeHash), `${input.teamId}|${invitation.id}`, 'PX', Math.max(1, input.expiresAtMs + TTL_AFTER_END_MS - nowMs));
        return invitation;
      }),
    listInvitations: (teamId) =>
      run('list_invitations', async () => {
        const nowMs = clock();
        const all = Object.entries(await redis.hgetall(redisKeys.invitations(teamId))).map(([id, json]) => ({ id, stored: JSON.parse(json) as StoredJson, json }));
        const lapsed = all.filter(({ stored }) => stored.expires_ms + TTL_AFTER_END_MS <= nowMs);
        if (lapsed.length > 0) await redis.hdel(redisKeys.invitations(teamId), ...lapsed.map(({ id }) => id));
        return byJoined(all.filter((entry) => !lapsed.includes(entry)).map(({ json }) => decodeInvitation(json)));
      }),
    revokeInvitation: (teamId, invitationId) =>
      run('revoke_invitation', async () => {
        const json = await redis.hget(redisKeys.invitations(teamId), invitationId);
        // Only the call whose HDEL removed it revoked it: an acceptance in between used it first.
        if (json === null || (await redis.hdel(redisKeys.invitations(teamId), invitationId)) === 0) return undefined;
        await dropCodes([(JSON.parse(json) as StoredJson).code_hash]);
        return decodeInvitation(json);
      }),
    acceptInvitation: (codeHash, person, nowMs, maxMembers) =>
      run('accept_invitation', async () => {
        const pointer = await redis.get(redisKeys.invitationCode(codeHash));
        if (pointer === null) return { outcome: 'none' } as const;
        const [teamId = '', invitationId = ''] = pointer.split('|');
        const [outcome, record, json] = await scripts.tollgateAcceptInvitation(
          redisKeys.invitations(teamId),
          redisKeys.members(teamId),
          invitationId,
          codeHash,
          person.email,
          person.id,
          String(nowMs),
          String(TTL_AFTER_END_MS),
          String(maxMembers),
        );
        if (outcome === 'members_limit') return { outcome, max: maxMembers } as const;
        if (outcome === 'expired' || outcome === 'other_address') return { outcome } as const;
        if (outcome !== 'ok' || record === undefined || json === undefined) {
          await dropCodes([codeHash]);
          return { outcome: 'none' } as const;
        }
        await redis.sadd(redisKeys.personTeams(person.id), teamId);
        await dropCodes([codeHash]);
        return { outcome: 'ok', membership: decodeMember(teamId, person.id, record), invitation: decodeInvitation(json) } as const;
      }),
    forgetTeam: (teamId) =>
      run('forget_team', async () => {
        const personIds = await redis.hkeys(redisKeys.members(teamId));
        const invitations = Object.values(await redis.hgetall(redisKeys.invitations(teamId))).map((json) => JSON.parse(json) as StoredJson);
        await Promise.all(personIds.map((personId) => redis.srem(redisKeys.personTeams(personId), teamId)));
        await dropCodes(invitations.map((invitation) => invitation.code_hash));
        await redis.del(redisKeys.members(teamId), redisKeys.invitations(teamId));
      }),
    deletePerson: (personId) =>
      run('delete_person', async () => {
        const person = await readPerson(personId);
        if (!person) return undefined;
        const teamIds = await redis.smembers(redisKeys.personTeams(personId));
        const teams = await Promise.all(teamIds.map(readMembers));
        const held = teamIds.find((teamId, i) => leavesNoOwner(teams[i]!, personId, null));
        if (held !== undefined) throw new LastOwnerError(held);
        for (const teamId of teamIds) await removeMember(teamId, personId);
        await scripts.tollgateDeleteIf(redisKeys.personEmail(person.email), personId);
        await redis.del(redisKeys.person(personId), redisKeys.personTeams(personId));
        return person;
      }),
  };
}
