import type { Request, Router } from 'express';
import { AppError, sendOk } from '@tollgate/envelope/core';
import { TEAM_ACTIONS, mayDo } from '../domain/team-roles';
import type { TeamRole } from '../domain/team-roles';
import type { AccountStore } from '../data/account-store';
import { appendAudit } from '../data/audited-account-store';
import type { AuditDeps } from '../data/audited-account-store';
import type { NewAuditEntry } from '../data/audit-log';
import { sha256 } from '../data/session-store';
import type { SessionStore } from '../data/session-store';
import { LastOwnerError, TeamLimitError } from '../data/team-store';
import type { Membership, TeamStore } from '../data/team-store';
import { createBodyParser } from '../http/body';
import { requestSource } from '../http/audit-source';
import { cookieIsSecure, newToken } from '../http/session-cookie';
import { sendCreated } from '../http/send-created';
import { linkOrigin } from '../http/link-origin';
import type { Mailer } from '../mail/mailer';
import { clearSessionCookie } from './session-auth';
import type { SessionCaller } from './session-auth';
import { emailOf, beginSession } from './sign-in-routes';
import type { SignInDeps } from './sign-in-routes';
import { mailOrRefuse } from './sign-in-codes';
import { endSessionsOnTeam } from '../data/end-sessions-on-team';
import { memberView as memberViewOf } from '../data/member-view';
import { invitationMail } from './team-mail';
import { ACCEPT_BODY, INVITE_BODY, ROLE_BODY, SWITCH_BODY, TEAM_ROUTES } from './team-route-docs';
import type { TeamLimits } from './team-route-docs';

/** What the team routes need. */
export interface TeamRouteDeps extends AuditDeps, Pick<SignInDeps, 'sessionTtlHours' | 'publicUrl'> {
  accountStore: AccountStore;
  sessionStore: SessionStore;
  teamStore: TeamStore;
  mailer: Mailer;
  clock: () => number;
  limits: TeamLimits;
  /** The signed-in caller, with the role check of session-auth.ts. */
  signedIn: (req: Request) => Promise<SessionCaller>;
}

/** One-time codes are 32 random bytes in base64url: anything else is no code of ours. */
const INVITATION_CODE = /^[A-Za-z0-9_-]{43}$/;

const lastOwner = (): AppError => new AppError('CONFLICT', 'the team would have no owner left: make another member owner first', { details: { reason: 'last_owner' } });
const limited = (err: TeamLimitError): AppError =>
  new AppError('CONFLICT', err.kind === 'members' ? `the team already has its most members (${err.max}): remove one first` : `the team already has its most pending invitations (${err.max}): revoke one or wait for one to be accepted`, { details: { reason: `${err.kind}_limit`, max: err.max } });
const ownersOnly = (): AppError => new AppError('FORBIDDEN', 'only an owner makes, unmakes or removes an owner', { details: { reason: 'role', allowed: ['owner'] } });

/** Adds `/teams`, `/teams/switch` and `/team/*` (members, invitations, leaving) to the dashboard router. */
export function addTeamRoutes(router: Router, deps: TeamRouteDeps): void {
  const { teamStore: teams, signedIn, limits } = deps;
  const parseRole = createBodyParser<{ role: TeamRole }>(ROLE_BODY);
  const parseInvite = createBodyParser<{ email: string; role: TeamRole }>(INVITE_BODY);
  const parseAccept = createBodyParser<{ code: string }>(ACCEPT_BODY);
  const parseSwitch = createBodyParser<{ team: string }>(SWITCH_BODY);
  const record = (req: Request, caller: SessionCaller, entry: Omit<NewAuditEntry, 'actor' | 'from' | 'account_id'> & { account_id?: string }): Promise<void> =>
    appendAudit(deps, { account_id: caller.account.id, ...requestSource(req, { type: 'customer', id: caller.person.id, via: 'portal' }), ...entry });
  const memberView = (m: Membership) => memberViewOf(teams, m);
  const refusals = (err: unknown): never => {
    if (err instanceof LastOwnerError) throw lastOwner();
    if (err instanceof TeamLimitError) throw limited(err);
    throw err;
  };

  router.get('/teams', async (req, res) => {
    const caller = await signedIn(req);
    const memberships = await teams.listTeamsOf(caller.person.id);
    const accounts = await Promise.all(memberships.map((m) => deps.accountStore.getAccount(m.team_id)));
    const list = memberships.flatMap((m, i) => (accounts[i] ? [{ id: m.team_id, name: accounts[i].name, role: m.role, current: m.team_id === caller.account.id }] : []));
    // The role table applied to the current team, so the portal offers what the role may do and no more.
    const actions = TEAM_ACTIONS.filter((action) => mayDo(caller.membership.role, action));
    sendOk(res, { person: { id: caller.person.id, email: caller.person.email, name: caller.person.name }, teams: list, actions }, TEAM_ROUTES.listTeams.message);
  });

  router.post('/teams/switch', async (req, res) => {
    const caller = await signedIn(req);
    const { team } = parseSwitch(req.body);
    const membership = await teams.getMembership(team, caller.person.id);
    const account = membership && (await deps.accountStore.getAccount(team));
    if (!membership || !account) throw new AppError('NOT_FOUND', 'you are not a member of a team with this id: list yours with GET /dashboard/v1/teams');
    const session = await beginSession(req, res, deps, account.id, caller.person.id);
    await teams.setLastTeam(caller.person.id, account.id);
    sendOk(res, { account, role: membership.role, csrf_token: session.csrf_token, expires_at: session.expires_at }, TEAM_ROUTES.switchTeam.message);
  });

  router.get('/team/members', async (req, res) => {
    const caller = await signedIn(req);
    sendOk(res, { members: await Promise.all((await teams.listMembers(caller.account.id)).map(memberView)) }, TEAM_ROUTES.listMembers.message);
  });

  // Another team's member, or no member, answers the same: a person id tells nothing of other teams.
  const memberOf = async (caller: SessionCaller, personId: string): Promise<Membership> => {
    const found = await teams.getMembership(caller.account.id, personId);
    if (!found) throw new AppError('NOT_FOUND', 'no member of your team has this id: list them with GET /dashboard/v1/team/members');
    return found;
  };

  router.put('/team/members/:person', async (req, res) => {
    const caller = await signedIn(req);
    const { role } = parseRole(req.body);
    const before = await memberOf(caller, req.params.person);
    if ((role === 'owner' || before.role === 'owner') && caller.membership.role !== 'owner') throw ownersOnly();
    const after = await teams.setRole(caller.account.id, before.person_id, role).catch(refusals);
    if (!after) throw new AppError('NOT_FOUND', 'no member of your team has this id: list them with GET /dashboard/v1/team/members');
    if (after.role !== before.role) await record(req, caller, { action: 'team.role_change', target: after.person_id, details: { before: before.role, after: after.role } });
    sendOk(res, await memberView(after), TEAM_ROUTES.changeRole.message);
  });

  /** Removes a member and ends their sessions on this team at once. */
  const remove = async (req: Request, caller: SessionCaller, member: Membership, action: 'team.member_remove' | 'team.member_leave'): Promise<Membership> => {
    const removed = await teams.removeMember(caller.account.id, member.person_id).catch(refusals);
    if (!removed) throw new AppError('NOT_FOUND', 'no member of your team has this id: list them with GET /dashboard/v1/team/members');
    const ended = await endSessionsOnTeam(deps.sessionStore, caller.account.id, removed.person_id);
    await record(req, caller, { action, target: removed.person_id, details: { role: removed.role, sessions_ended: ended } });
    return removed;
  };

  router.delete('/team/members/:person', async (req, res) => {
    const caller = await signedIn(req);
    const member = await memberOf(caller, req.params.person);
    if (member.person_id === caller.person.id) throw new AppError('BAD_REQUEST', 'to leave the team yourself, use POST /dashboard/v1/team/leave', { details: { reason: 'self' } });
    if (member.role === 'owner' && caller.membership.role !== 'owner') throw ownersOnly();
    sendOk(res, await memberView(await remove(req, caller, member, 'team.member_remove')), TEAM_ROUTES.removeMember.message);
  });

  router.post('/team/leave', async (req, res) => {
    const caller = await signedIn(req);
    const left = await remove(req, caller, caller.membership, 'team.member_leave');
    clearSessionCookie(res, cookieIsSecure(req, deps.publicUrl));
    sendOk(res, { team_id: left.team_id, left: true }, TEAM_ROUTES.leaveTeam.message);
  });

  router.get('/team/invitations', async (req, res) => {
    const caller = await signedIn(req);
    sendOk(res, { invitations: await teams.listInvitations(caller.account.id) }, TEAM_ROUTES.listInvitations.message);
  });

  router.post('/team/invitations', async (req, res) => {
    const caller = await signedIn(req);
    const body = parseInvite(req.body);
    const email = emailOf(body.email);
    if (body.role === 'owner' && caller.membership.role !== 'owner') throw ownersOnly();
    const code = newToken();
    const expiresAtMs = deps.clock() + limits.invitationTtlMs;
    const invitation = await teams
      .createInvitation({ teamId: caller.account.id, email, role: body.role, invitedBy: caller.person.id, codeHash: sha256(code), expiresAtMs, maxPending: limits.maxPendingInvitations, maxMembers: limits.maxMembers })
      .catch(refusals);
    // The same mail and answer whether or not the address has an account: nothing here tells which.
    const origin = linkOrigin(req, deps.publicUrl);
    try {
      await mailOrRefuse(deps.mailer, invitationMail({ to: email, team: caller.account.name, from: caller.person, role: body.role, code, link: origin && `${origin}/portal/invitation#code=${code}`, expiresAt: invitation.expires_at }));
    } catch (err) {
      // An invitation whose mail was not taken would be one nobody can accept: it goes, and the inviter retries.
      await teams.revokeInvitation(caller.account.id, invitation.id);
      throw err;
    }
    await record(req, caller, { action: 'team.invite', target: invitation.id, details: { email, role: body.role, expires_at: invitation.expires_at } });
    sendCreated(res, invitation, TEAM_ROUTES.invite.message);
  });

  router.delete('/team/invitations/:id', async (req, res) => {
    const caller = await signedIn(req);
    const revoked = await teams.revokeInvitation(caller.account.id, req.params.id);
    if (!revoked) throw new AppError('NOT_FOUND', 'no pending invitation of your team has this id: list them with GET /dashboard/v1/team/invitations');
    await record(req, caller, { action: 'team.invite_revoke', target: revoked.id, details: { email: revoked.email, role: revoked.role } });
    sendOk(res, revoked, TEAM_ROUTES.revokeInvitation.message);
  });

  router.post('/team/invitations/accept', async (req, res) => {
    const caller = await signedIn(req);
    const { code } = parseAccept(req.body);
    const accepted = INVITATION_CODE.test(code) ? await teams.acceptInvitation(sha256(code), caller.person, deps.clock(), limits.maxMembers) : { outcome: 'none' as const };
    switch (accepted.outcome) {
      case 'none':
        throw new AppError('NOT_FOUND', 'this invitation code is unknown or already used, or the invitation was revoked: ask the team for a new one', { details: { reason: 'unknown_code' } });
      case 'expired':
        throw new AppError('NOT_FOUND', 'this invitation has expired: ask the team for a new one', { details: { reason: 'expired' } });
      case 'other_address':
        throw new AppError('FORBIDDEN', 'this invitation is for another address: sign in as the address it was sent to, then open the link again', { details: { reason: 'other_address' } });
      case 'members_limit':
        throw limited(new TeamLimitError('members', accepted.max));
    }
    const team = await deps.accountStore.getAccount(accepted.membership.team_id);
    await record(req, caller, { account_id: accepted.membership.team_id, action: 'team.invite_accept', target: accepted.invitation.id, details: { email: caller.person.email, role: accepted.membership.role, invited_by: accepted.invitation.invited_by } });
    sendOk(res, { team: { id: accepted.membership.team_id, name: team?.name ?? '' }, role: accepted.membership.role }, TEAM_ROUTES.acceptInvitation.message);
  });
}
