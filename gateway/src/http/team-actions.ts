import { AppError } from '@tollgate/envelope/core';
import type { QuerySchema } from '@tollgate/envelope/core';
import { isAccountId } from '../domain/api-key';
import { MAX_EMAIL_LENGTH, parseEmail } from '../domain/email';
import { TEAM_ROLES } from '../domain/team-roles';
import type { TeamRole } from '../domain/team-roles';
import type { AccountStore } from '../data/account-store';
import { appendAudit } from '../data/audited-account-store';
import type { AuditDeps, AuditSource } from '../data/audited-account-store';
import { endSessionsOnTeam } from '../data/end-sessions-on-team';
import { memberView } from '../data/member-view';
import type { MemberView } from '../data/member-view';
import type { SessionStore } from '../data/session-store';
import { LastOwnerError, PersonEmailTakenError, TeamLimitError } from '../data/team-store';
import type { Membership, TeamStore } from '../data/team-store';
import { createBodyParser } from './body';

const role = { type: 'string', enum: [...TEAM_ROLES] };
/** `{email, role}`: whom an operator adds to a team. */
export const ADD_MEMBER_BODY: QuerySchema = { type: 'object', additionalProperties: false, required: ['email', 'role'], properties: { email: { type: 'string', minLength: 3, maxLength: MAX_EMAIL_LENGTH, description: 'The person’s address; a person is made for it if there is none' }, role } };
/** `{role}`: a member's new role. */
export const SET_ROLE_BODY: QuerySchema = { type: 'object', additionalProperties: false, required: ['role'], properties: { role } };
/** `{person}`: the member who becomes the team's only owner. */
export const TRANSFER_BODY: QuerySchema = { type: 'object', additionalProperties: false, required: ['person'], properties: { person: { type: 'string', minLength: 1, maxLength: MAX_EMAIL_LENGTH, description: 'The member’s person id (`per_…`) or address' } } };

/** What the operators' team actions need. */
export interface TeamActionsDeps extends AuditDeps {
  accountStore: AccountStore;
  teamStore: TeamStore;
  sessionStore: SessionStore;
  /** Members a team may hold (TEAM_MAX_MEMBERS): operators are held to it as owners are. */
  maxMembers: number;
}

/**
 * The operators' operations on a team's members (admin API, CLI, console), each validating its raw
 * input and throwing {@link AppError}, and recording each change in the team's audit stream as made
 * by the source the actions were built for. A member is named by person id or address.
 */
export interface TeamActions {
  members(teamId: string): Promise<{ team_id: string; members: MemberView[] }>;
  addMember(teamId: string, body: unknown): Promise<MemberView>;
  setRole(teamId: string, member: string, body: unknown): Promise<MemberView>;
  removeMember(teamId: string, member: string): Promise<MemberView>;
  transferOwnership(teamId: string, body: unknown): Promise<{ team_id: string; members: MemberView[] }>;
}

const lastOwner = (): AppError => new AppError('CONFLICT', 'the team would have no owner left: make another member owner first (transfer ownership)', { details: { reason: 'last_owner' } });

/** Builds the actions for one source (who acts, from where), as createAccountActions does. */
export function createTeamActions(deps: TeamActionsDeps): (source: AuditSource) => TeamActions {
  const { teamStore: teams } = deps;
  const parseAdd = createBodyParser<{ email: string; role: TeamRole }>(ADD_MEMBER_BODY);
  const parseRole = createBodyParser<{ role: TeamRole }>(SET_ROLE_BODY);
  const parseTransfer = createBodyParser<{ person: string }>(TRANSFER_BODY);

  const team = async (teamId: string): Promise<string> => {
    if (!isAccountId(teamId) || !(await deps.accountStore.getAccount(teamId))) throw new AppError('NOT_FOUND', `no account with id ${teamId}`);
    return teamId;
  };
  // A person id, or an address read as the portal reads one; anything else names nobody.
  const memberOf = async (teamId: string, member: string): Promise<Membership> => {
    let personId: string | undefined = /^per_[0-9a-f]{24}$/.test(member) ? member : undefined;
    if (personId === undefined) {
      const parsed = member.length <= MAX_EMAIL_LENGTH ? parseEmail(member) : undefined;
      personId = parsed?.ok ? (await teams.findPersonByEmail(parsed.email))?.id : undefined;
    }
    const found = personId === undefined ? undefined : await teams.getMembership(teamId, personId);
    if (!found) throw new AppError('NOT_FOUND', `no member ${member} in the team ${teamId}: list them with GET /admin/v1/accounts/${teamId}/members`);
    return found;
  };
  const refusals = (err: unknown): never => {
    if (err instanceof LastOwnerError) throw lastOwner();
    if (err instanceof TeamLimitError) throw new AppError('CONFLICT', `the team already has its most members (${err.max}): remove one first`, { details: { reason: 'members_limit', max: err.max } });
    throw err;
  };
  const list = async (teamId: string) => ({ team_id: teamId, members: await Promise.all((await teams.listMembers(teamId)).map((m) => memberView(teams, m))) });

  return (source) => {
    const record = (teamId: string, action: `team.${string}`, target: string, details: Record<string, unknown>): Promise<void> =>
      appendAudit(deps, { account_id: teamId, actor: source.actor, from: source.from, action, target, details });
    return {
      members: async (teamId) => list(await team(teamId)),
      async addMember(teamId, body) {
        await team(teamId);
        const input = parseAdd(body);
        const parsed = parseEmail(input.email);
        if (!parsed.ok) throw new AppError('BAD_REQUEST', `email must be a plain address such as ada@example.com: ${parsed.reason}`, { details: { parameter: 'email' } });
        let person = await teams.findPersonByEmail(parsed.email);
        if (!person) {
          person = await teams.createPerson({ email: parsed.email }).catch(async (err: unknown) => {
            // Made meanwhile (a sign-in at once): that one is the person.
            const made = err instanceof PersonEmailTakenError ? await teams.getPerson(err.personId) : undefined;
            if (!made) throw err;
            return made;
          });
        }
        const existing = await teams.getMembership(teamId, person.id);
        if (existing) throw new AppError('CONFLICT', `${parsed.email} is already a member of this team, as ${existing.role}: change their role instead`, { details: { reason: 'already_member', role: existing.role } });
        const added = (await teams.addMember(teamId, person.id, input.role, { invitedBy: null, maxMembers: deps.maxMembers }).catch(refusals))!;
        if (person.last_team_id === null) await teams.setLastTeam(person.id, teamId);
        await record(teamId, 'team.member_add', person.id, { email: person.email, role: added.role });
        return memberView(teams, added);
      },
      async setRole(teamId, member, body) {
        const { role: next } = parseRole(body);
        const before = await memberOf(await team(teamId), member);
        const after = await teams.setRole(teamId, before.person_id, next).catch(refusals);
        if (!after) throw new AppError('NOT_FOUND', `no member ${member} in the team ${teamId}`);
        if (after.role !== before.role) await record(teamId, 'team.role_change', after.person_id, { before: before.role, after: after.role });
        return memberView(teams, after);
      },
      async removeMember(teamId, member) {
        const found = await memberOf(await team(teamId), member);
        const removed = await teams.removeMember(teamId, found.person_id).catch(refusals);
        if (!removed) throw new AppError('NOT_FOUND', `no member ${member} in the team ${teamId}`);
        const ended = await endSessionsOnTeam(deps.sessionStore, teamId, removed.person_id);
        await record(teamId, 'team.member_remove', removed.person_id, { role: removed.role, sessions_ended: ended });
        return memberView(teams, removed);
      },
      async transferOwnership(teamId, body) {
        const { person } = parseTransfer(body);
        const heir = await memberOf(await team(teamId), person);
        // The heir is owner first, so the team never lacks one; the others owners then become admins.
        await teams.setRole(teamId, heir.person_id, 'owner').catch(refusals);
        const before = (await teams.listMembers(teamId)).filter((m) => m.role === 'owner' && m.person_id !== heir.person_id);
        for (const owner of before) await teams.setRole(teamId, owner.person_id, 'admin').catch(refusals);
        await record(teamId, 'team.owner_transfer', heir.person_id, { before: heir.role, previous_owners: before.map((m) => m.person_id), now: 'admin' });
        return list(teamId);
      },
    };
  };
}
