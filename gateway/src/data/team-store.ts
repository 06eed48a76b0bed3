import { randomBytes } from 'node:crypto';
import type { TeamRole } from '../domain/team-roles';

export type { TeamRole } from '../domain/team-roles';
export { TEAM_ROLES } from '../domain/team-roles';

/**
 * People and the teams they belong to (docs/teams.md). A team is an account (`acc_…`): everything
 * the account owns stays keyed by it, so this store adds people beside accounts and moves nothing.
 */

/** Someone who signs in. */
export interface Person {
  /** `per_` + 24 hex. */
  id: string;
  /** Normalised and unique among people. */
  email: string;
  name: string;
  created_at: string;
  /** The team a sign-in opens: the one used last; null before any. */
  last_team_id: string | null;
}

/** A person's place in a team. */
export interface Membership {
  team_id: string;
  person_id: string;
  role: TeamRole;
  joined_at: string;
  /** The person who invited or added them; null for a team's founder and for operators' additions. */
  invited_by: string | null;
}

/** A pending invitation to a team; its one-time code is stored only as a hash. */
export interface Invitation {
  /** `inv_` + 24 hex. */
  id: string;
  team_id: string;
  /** The normalised address that may accept it. */
  email: string;
  role: TeamRole;
  /** The person who sent it. */
  invited_by: string;
  created_at: string;
  expires_at: string;
}

/** What creating an invitation takes. */
export interface NewInvitation {
  teamId: string;
  email: string;
  role: TeamRole;
  invitedBy: string;
  /** SHA-256 of the one-time code the mail carries. */
  codeHash: string;
  expiresAtMs: number;
  /** Pending invitations the team may hold (this one included). */
  maxPending: number;
  /** Members the team may hold: no invitation while it is full. */
  maxMembers: number;
}

/** What accepting an invitation found; only `ok` changed anything. */
export type AcceptOutcome =
  | { outcome: 'ok'; membership: Membership; invitation: Invitation }
  /** No live invitation has this code: never made, used, revoked, or dropped a day after its end. */
  | { outcome: 'none' }
  | { outcome: 'expired' }
  /** The code is live, but for another address: left unused. */
  | { outcome: 'other_address' }
  /** The team is full: left unused. */
  | { outcome: 'members_limit'; max: number };

/** An address is held by another person. */
export class PersonEmailTakenError extends Error {
  constructor(readonly personId: string) {
    super('a person with this email already exists');
    this.name = 'PersonEmailTakenError';
  }
}

/** The change would leave the team without an owner. */
export class LastOwnerError extends Error {
  constructor(readonly teamId: string) {
    super('the team would have no owner left: make another member owner first');
    this.name = 'LastOwnerError';
  }
}

/** The team holds the most members (`kind: 'members'`) or pending invitations (`'invitations'`) allowed. */
export class TeamLimitError extends Error {
  constructor(
    readonly kind: 'members' | 'invitations',
    readonly max: number,
  ) {
    super(`the team already holds ${max} ${kind === 'members' ? 'members' : 'pending invitations'}`);
    this.name = 'TeamLimitError';
  }
}

/** How long an invitation may be accepted: a week, as Stripe's and GitHub's team invitations. */
export const INVITATION_TTL_MS = 7 * 86_400_000;

/** How long a lapsed invitation is kept, so its code is told as expired rather than unknown. */
export const INVITATION_KEPT_AFTER_END_MS = 86_400_000;

/**
 * People, memberships and invitations. Every method returns undefined for an unknown id. The checks
 * that keep a team whole (an owner left, the limits, a code used once) are made in the same atomic
 * step as the change.
 */
export interface TeamStore {
  /** Makes a person; `id` only for the migration's derived ids. Throws {@link PersonEmailTakenError}. */
  createPerson(input: { email: string; name?: string; id?: string }): Promise<Person>;
  getPerson(id: string): Promise<Person | undefined>;
  findPersonByEmail(email: string): Promise<Person | undefined>;
  /** Moves a person to another (normalised) address, freeing the old one; throws {@link PersonEmailTakenError}. */
  changePersonEmail(personId: string, email: string): Promise<Person | undefined>;
  /** Records the team a sign-in opens next. */
  setLastTeam(personId: string, teamId: string): Promise<Person | undefined>;
  /**
   * Adds a person to a team, or resolves with their membership as it is (the role unchanged).
   * Throws {@link TeamLimitError} at `maxMembers`; with `onlyIfEmpty`, adds only to a team without
   * members (the migration) and resolves undefined otherwise.
   */
  addMember(teamId: string, personId: string, role: TeamRole, options: { invitedBy: string | null; maxMembers?: number; onlyIfEmpty?: boolean }): Promise<Membership | undefined>;
  getMembership(teamId: string, personId: string): Promise<Membership | undefined>;
  /** The team's members in the order they joined. */
  listMembers(teamId: string): Promise<Membership[]>;
  /** The person's memberships in the order they joined. */
  listTeamsOf(personId: string): Promise<Membership[]>;
  /** Changes a member's role; throws {@link LastOwnerError} for the last owner's demotion. */
  setRole(teamId: string, personId: string, role: TeamRole): Promise<Membership | undefined>;
  /** Removes a member (leaving or removed); throws {@link LastOwnerError} for the last owner. */
  removeMember(teamId: string, personId: string): Promise<Membership | undefined>;
  /**
   * Stores an invitation, replacing a pending one to the same address (its code then is void).
   * Throws {@link TeamLimitError} at either limit.
   */
  createInvitation(input: NewInvitation): Promise<Invitation>;
  /** The team's invitations not yet dropped (lapsed ones too, until a day past their end), oldest first. */
  listInvitations(teamId: string): Promise<Invitation[]>;
  /** Voids an invitation: its code is unknown from now on. */
  revokeInvitation(teamId: string, invitationId: string): Promise<Invitation | undefined>;
  /** Uses an invitation's code for `person` (whose address must be the invited one), as one atomic step. */
  acceptInvitation(codeHash: string, person: Person, nowMs: number, maxMembers: number): Promise<AcceptOutcome>;
  /** Drops a deleted team's memberships and invitations. */
  forgetTeam(teamId: string): Promise<void>;
  /**
   * Deletes a person and their memberships; resolves with the person as they were. Throws
   * {@link LastOwnerError}, changing nothing, while they are the last owner of a team (callers hand
   * it over, or delete a team they are alone in, first).
   */
  deletePerson(personId: string): Promise<Person | undefined>;
}

/** A new id with a prefix and 24 hex digits, as account ids are. */
export function newTeamStoreId(prefix: 'per_' | 'inv_', random: (size: number) => Buffer = randomBytes): string {
  return `${prefix}${random(12).toString('hex')}`;
}

/** The person the migration makes for an account: the same 24 hex, so gateways adopting at once agree. */
export const adoptedPersonId = (accountId: string): string => `per_${accountId.slice('acc_'.length)}`;

/** Whether a role change or removal of `current` leaves the team without an owner. */
export function leavesNoOwner(members: readonly Pick<Membership, 'role' | 'person_id'>[], personId: string, newRole: TeamRole | null): boolean {
  const current = members.find((m) => m.person_id === personId);
  if (current?.role !== 'owner' || newRole === 'owner') return false;
  return members.filter((m) => m.role === 'owner').length <= 1;
}

/** A new invitation record, as every store makes it. */
export function newInvitationRecord(id: string, input: NewInvitation, nowMs: number): Invitation {
  return { id, team_id: input.teamId, email: input.email, role: input.role, invited_by: input.invitedBy, created_at: new Date(nowMs).toISOString(), expires_at: new Date(input.expiresAtMs).toISOString() };
}

/** A new person record, as every store makes it. */
export function newPersonRecord(id: string, input: { email: string; name?: string }, nowMs: number): Person {
  return { id, email: input.email, name: input.name ?? input.email, created_at: new Date(nowMs).toISOString(), last_team_id: null };
}

/** Members and invitations in joined (created) order; members who joined at once, most powers first; then by id. */
export function byJoined<T extends { joined_at: string } | { created_at: string }>(items: T[]): T[] {
  const at = (item: T): string => ('joined_at' in item ? item.joined_at : item.created_at);
  const rank = (item: T): number => ('role' in item ? TEAM_ROLE_ORDER.indexOf(item.role as TeamRole) : 0);
  return items.sort((a, b) => at(a).localeCompare(at(b)) || rank(a) - rank(b) || JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

const TEAM_ROLE_ORDER: readonly TeamRole[] = ['owner', 'admin', 'billing', 'developer'];
