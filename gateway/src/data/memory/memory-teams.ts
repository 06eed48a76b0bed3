import { INVITATION_KEPT_AFTER_END_MS, LastOwnerError, PersonEmailTakenError, TeamLimitError, byJoined, leavesNoOwner, newInvitationRecord, newPersonRecord, newTeamStoreId } from '../team-store';
import type { Invitation, Membership, Person, TeamStore } from '../team-store';
import { copy } from './account-state';

/** An invitation as stores keep it: with the hash of its code. */
export interface StoredInvitation extends Invitation {
  code_hash: string;
}

/** Everything the team store holds; given pre-filled by a store that keeps it on disk. */
export interface MemoryTeamState {
  people: Map<string, Person>;
  /** Team id → person id → membership. */
  members: Map<string, Map<string, Membership>>;
  /** Invitation id → invitation. */
  invitations: Map<string, StoredInvitation>;
}

/** Told of every change before it resolves, for a store that writes the state through (SQLite). */
export interface MemoryTeamPersistence {
  person(personId: string): void;
  member(teamId: string, personId: string): void;
  invitation(invitationId: string): void;
}

export const emptyTeamState = (): MemoryTeamState => ({ people: new Map(), members: new Map(), invitations: new Map() });

/** People, memberships and invitations in this process: the same rules as the Redis store. */
export function createMemoryTeamStore(options: { clock: () => number; state?: MemoryTeamState; persist?: MemoryTeamPersistence; newId?: (prefix: 'per_' | 'inv_') => string }): TeamStore {
  const { clock, persist } = options;
  const { people, members, invitations } = options.state ?? emptyTeamState();
  const newId = options.newId ?? newTeamStoreId;
  // Indexes rebuilt from the state: address → person, person → teams, code → invitation.
  const emails = new Map<string, string>();
  const teamsOf = new Map<string, Set<string>>();
  const codes = new Map<string, string>();
  for (const person of people.values()) emails.set(person.email, person.id);
  for (const [teamId, team] of members) for (const personId of team.keys()) teamsOf.set(personId, (teamsOf.get(personId) ?? new Set()).add(teamId));
  for (const invitation of invitations.values()) codes.set(invitation.code_hash, invitation.id);

  const teamOf = (teamId: string): Map<string, Membership> => members.get(teamId) ?? new Map();
  const dropInvitation = (invitation: StoredInvitation): void => {
    invitations.delete(invitation.id);
    codes.delete(invitation.code_hash);
    persist?.invitation(invitation.id);
  };
  const withoutCode = ({ code_hash: _code, ...invitation }: StoredInvitation): Invitation => structuredClone(invitation);
  // The team's invitations, those past their keeping dropped first.
  const invitationsOf = (teamId: string, nowMs: number): StoredInvitation[] => {
    const found: StoredInvitation[] = [];
    for (const invitation of invitations.values()) {
      if (invitation.team_id !== teamId) continue;
      if (Date.parse(invitation.expires_at) + INVITATION_KEPT_AFTER_END_MS <= nowMs) dropInvitation(invitation);
      else found.push(invitation);
    }
    return found;
  };
  const join = (teamId: string, membership: Membership): void => {
    members.set(teamId, teamOf(teamId).set(membership.person_id, membership));
    teamsOf.set(membership.person_id, (teamsOf.get(membership.person_id) ?? new Set()).add(teamId));
    persist?.member(teamId, membership.person_id);
  };

  const removeMember = async (teamId: string, personId: string): Promise<Membership | undefined> => {
    const team = teamOf(teamId);
    const membership = team.get(personId);
    if (!membership) return undefined;
    if (leavesNoOwner([...team.values()], personId, null)) throw new LastOwnerError(teamId);
    team.delete(personId);
    if (team.size === 0) members.delete(teamId);
    teamsOf.get(personId)?.delete(teamId);
    persist?.member(teamId, personId);
    return copy(membership);
  };

  return {
    async createPerson(input) {
      const holder = emails.get(input.email);
      if (holder !== undefined) throw new PersonEmailTakenError(holder);
      const person = newPersonRecord(input.id ?? newId('per_'), input, clock());
      people.set(person.id, person);
      emails.set(person.email, person.id);
      persist?.person(person.id);
      return copy(person)!;
    },
    getPerson: async (id) => copy(people.get(id)),
    findPersonByEmail: async (email) => copy(people.get(emails.get(email) ?? '')),
    async changePersonEmail(personId, email) {
      const person = people.get(personId);
      if (!person) return undefined;
      const holder = emails.get(email);
      if (holder !== undefined && holder !== personId) throw new PersonEmailTakenError(holder);
      emails.delete(person.email);
      emails.set(email, personId);
      if (person.name === person.email) person.name = email;
      person.email = email;
      persist?.person(personId);
      return copy(person);
    },
    async setLastTeam(personId, teamId) {
      const person = people.get(personId);
      if (!person) return undefined;
      person.last_team_id = teamId;
      persist?.person(personId);
      return copy(person);
    },
    async addMember(teamId, personId, role, { invitedBy, maxMembers, onlyIfEmpty }) {
      const team = teamOf(teamId);
      const existing = team.get(personId);
      if (onlyIfEmpty && team.size > 0) return undefined;
      if (existing) return copy(existing);
      if (maxMembers !== undefined && team.size >= maxMembers) throw new TeamLimitError('members', maxMembers);
      const membership: Membership = { team_id: teamId, person_id: personId, role, joined_at: new Date(clock()).toISOString(), invited_by: invitedBy };
      join(teamId, membership);
      return copy(membership);
    },
    getMembership: async (teamId, personId) => copy(members.get(teamId)?.get(personId)),
    listMembers: async (teamId) => byJoined(structuredClone([...teamOf(teamId).values()])),
    listTeamsOf: async (personId) => byJoined([...(teamsOf.get(personId) ?? [])].map((teamId) => structuredClone(teamOf(teamId).get(personId)!))),
    async setRole(teamId, personId, role) {
      const team = teamOf(teamId);
      const membership = team.get(personId);
      if (!membership) return undefined;
      if (leavesNoOwner([...team.values()], personId, role)) throw new LastOwnerError(teamId);
      membership.role = role;
      persist?.member(teamId, personId);
      return copy(membership);
    },
    removeMember: async (teamId, personId) => removeMember(teamId, personId),
    async createInvitation(input) {
      const nowMs = clock();
      const pending = invitationsOf(input.teamId, nowMs);
      const replaced = pending.find((invitation) => invitation.email === input.email);
      const live = pending.filter((invitation) => invitation !== replaced && Date.parse(invitation.expires_at) > nowMs);
      if (teamOf(input.teamId).size >= input.maxMembers) throw new TeamLimitError('members', input.maxMembers);
      if (live.length >= input.maxPending) throw new TeamLimitError('invitations', input.maxPending);
      if (replaced) dropInvitation(replaced);
      const invitation: StoredInvitation = { ...newInvitationRecord(newId('inv_'), input, nowMs), code_hash: input.codeHash };
      invitations.set(invitation.id, invitation);
      codes.set(invitation.code_hash, invitation.id);
      persist?.invitation(invitation.id);
      return withoutCode(invitation);
    },
    listInvitations: async (teamId) => byJoined(invitationsOf(teamId, clock()).map(withoutCode)),
    async revokeInvitation(teamId, invitationId) {
      const invitation = invitations.get(invitationId);
      if (invitation?.team_id !== teamId) return undefined;
      dropInvitation(invitation);
      return withoutCode(invitation);
    },
    async acceptInvitation(codeHash, person, nowMs, maxMembers) {
      const invitation = invitations.get(codes.get(codeHash) ?? '');
      if (!invitation) return { outcome: 'none' };
      const endMs = Date.parse(invitation.expires_at);
      if (endMs + INVITATION_KEPT_AFTER_END_MS <= nowMs) {
        dropInvitation(invitation);
        return { outcome: 'none' };
      }
      if (endMs <= nowMs) return { outcome: 'expired' };
      if (invitation.email !== person.email) return { outcome: 'other_address' };
      const team = teamOf(invitation.team_id);
      let membership = team.get(person.id);
      if (!membership) {
        if (team.size >= maxMembers) return { outcome: 'members_limit', max: maxMembers };
        membership = { team_id: invitation.team_id, person_id: person.id, role: invitation.role, joined_at: new Date(nowMs).toISOString(), invited_by: invitation.invited_by };
        join(invitation.team_id, membership);
      }
      dropInvitation(invitation);
      return { outcome: 'ok', membership: copy(membership)!, invitation: withoutCode(invitation) };
    },
    async forgetTeam(teamId) {
      for (const personId of teamOf(teamId).keys()) {
        teamsOf.get(personId)?.delete(teamId);
        members.get(teamId)?.delete(personId);
        persist?.member(teamId, personId);
      }
      members.delete(teamId);
      for (const invitation of [...invitations.values()]) if (invitation.team_id === teamId) dropInvitation(invitation);
    },
    async deletePerson(personId) {
      const person = people.get(personId);
      if (!person) return undefined;
      const teamIds = [...(teamsOf.get(personId) ?? [])];
      const held = teamIds.find((teamId) => leavesNoOwner([...teamOf(teamId).values()], personId, null));
      if (held !== undefined) throw new LastOwnerError(held);
      for (const teamId of teamIds) await removeMember(teamId, personId);
      people.delete(personId);
      emails.delete(person.email);
      teamsOf.delete(personId);
      persist?.person(personId);
      return copy(person);
    },
  };
}
