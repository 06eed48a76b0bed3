import type { Router } from 'express';
import { AppError, sendOk } from '@tollgate/envelope/core';
import type { RouteDoc } from '@tollgate/envelope/core';
import { appendAudit } from '../data/audited-account-store';
import type { AuditDeps } from '../data/audited-account-store';
import { LastOwnerError } from '../data/team-store';
import type { Membership, Person, TeamStore } from '../data/team-store';
import { requestSource } from '../http/audit-source';
import { createBodyParser } from '../http/body';
import { ACCOUNT_SLOT } from '../http/mailed-codes';
import { cookieIsSecure } from '../http/session-cookie';
import { personDeletionCodeMail } from './account-settings-mail';
import { SETTINGS_ERRORS } from './account-sessions-routes';
import { CONFIRM_BODY, EMPTY_BODY, eraseTeam } from './account-deletion-routes';
import type { AccountDeletionDeps } from './account-deletion-routes';
import { clearSessionCookie } from './session-auth';
import type { SessionCaller } from './session-auth';
import { CODE_TTL_MS } from './sign-in-codes';
import { CODE_SENT_SCHEMA, sendAccepted } from './sign-in-routes';
import { endSessionsOnTeam } from '../data/end-sessions-on-team';

const ids = { type: 'array', items: { type: 'string' } };
const PERSON_DELETED = {
  type: 'object',
  additionalProperties: false,
  required: ['deleted', 'person_id', 'teams_left', 'teams_deleted'],
  properties: {
    deleted: { const: true },
    person_id: { type: 'string' },
    teams_left: { ...ids, description: 'Teams they were a member of with others: they left them, whose keys and data stay' },
    teams_deleted: { ...ids, description: 'Teams they were alone in: deleted with them, as an owner deleting a team does' },
  },
};

/** Deleting yourself, described once (merged into DASHBOARD_ROUTES). */
export const PERSON_DELETION_ROUTES = {
  deletePerson: {
    method: 'post',
    path: '/dashboard/v1/person/delete',
    summary: `Ask to delete yourself (session cookie only): mails a ${CODE_TTL_MS / 60_000}-minute code to your address; 409 while you are the last owner of a team with other members (hand it over first)`,
    body: EMPTY_BODY,
    data: CODE_SENT_SCHEMA,
    message: 'Code sent; check your mail',
    successStatus: 202,
    errors: ['CONFLICT', 'RATE_LIMITED', 'UPSTREAM_UNAVAILABLE', ...SETTINGS_ERRORS],
  },
  confirmDeletePerson: {
    method: 'post',
    path: '/dashboard/v1/person/delete/confirm',
    summary: 'Delete yourself with the mailed code: you leave every team (a team you are alone in is deleted, its paid plans canceled), your sessions end, and your person and address are erased',
    body: CONFIRM_BODY,
    data: PERSON_DELETED,
    message: 'You are deleted',
    errors: ['CONFLICT', 'RATE_LIMITED', 'UPSTREAM_UNAVAILABLE', ...SETTINGS_ERRORS],
  },
} satisfies Record<string, RouteDoc>;

/** The person's teams as deletion sorts them: alone in (deleted), with others (left), or holding them as last owner (refused). */
async function sortTeams(teams: TeamStore, person: Person): Promise<{ alone: Membership[]; left: Membership[]; blocking: Membership[] }> {
  const sorted = { alone: [] as Membership[], left: [] as Membership[], blocking: [] as Membership[] };
  for (const membership of await teams.listTeamsOf(person.id)) {
    const members = await teams.listMembers(membership.team_id);
    if (members.every((m) => m.person_id === person.id)) sorted.alone.push(membership);
    else if (membership.role === 'owner' && members.filter((m) => m.role === 'owner').length === 1) sorted.blocking.push(membership);
    else sorted.left.push(membership);
  }
  return sorted;
}

function handOverFirst(deps: Pick<AccountDeletionDeps, 'accountStore'>, blocking: Membership[]): Promise<AppError> {
  return Promise.all(blocking.map(async (m) => ({ id: m.team_id, name: (await deps.accountStore.getAccount(m.team_id))?.name ?? m.team_id }))).then(
    (teams) =>
      new AppError('CONFLICT', `you are the last owner of ${teams.map((t) => `“${t.name}”`).join(', ')}, which ${teams.length === 1 ? 'has' : 'have'} other members: make one of them owner (Team page, or PUT /dashboard/v1/team/members/{person} with role owner), then delete yourself`, {
        details: { reason: 'last_owner', teams },
      }),
  );
}

/** Adds `/person/delete` and its `/confirm` to the dashboard router. */
export function addPersonDeletionRoutes(router: Router, deps: AccountDeletionDeps & AuditDeps): void {
  const { codes, signedIn, teamStore: teams } = deps;
  const parseEmpty = createBodyParser<object>(EMPTY_BODY);
  const parseConfirm = createBodyParser<{ code: string }>(CONFIRM_BODY);
  const subjectOf = (person: Person): string => `delete-person:${person.id}`;

  router.post('/person/delete', async (req, res) => {
    const { person } = await signedIn(req);
    parseEmpty(req.body);
    // Told before any code is mailed: a code they could not use would only mislead.
    const { blocking } = await sortTeams(teams, person);
    if (blocking.length) throw await handOverFirst(deps, blocking);
    await codes.limit(req, person.email);
    const expiresAtMs = await codes.send(subjectOf(person), ACCOUNT_SLOT, (code) => personDeletionCodeMail(person.email, code));
    sendAccepted(res, { email: person.email, expires_at: new Date(expiresAtMs).toISOString() }, PERSON_DELETION_ROUTES.deletePerson.message);
  });

  router.post('/person/delete/confirm', async (req, res) => {
    const caller = await signedIn(req);
    const { person } = caller;
    const { code } = parseConfirm(req.body);
    // Checked again: an owner may have left since the code was mailed.
    const { alone, left, blocking } = await sortTeams(teams, person);
    if (blocking.length) throw await handOverFirst(deps, blocking);
    await codes.check(subjectOf(person), ACCOUNT_SLOT, code);
    for (const membership of alone) {
      const account = await deps.accountStore.getAccount(membership.team_id);
      if (account) await eraseTeam(deps, req, { ...caller, account, membership } satisfies SessionCaller);
    }
    try {
      // One atomic step per team in the store: refused, changing nothing, if they became a last owner meanwhile.
      await teams.deletePerson(person.id);
    } catch (err) {
      if (err instanceof LastOwnerError) throw await handOverFirst(deps, [{ team_id: err.teamId } as Membership]);
      throw err;
    }
    for (const membership of left) {
      const ended = await endSessionsOnTeam(deps.sessionStore, membership.team_id, person.id);
      const source = requestSource(req, { type: 'customer', id: person.id, via: 'portal' });
      await appendAudit(deps, { account_id: membership.team_id, ...source, action: 'team.member_leave', target: person.id, details: { role: membership.role, sessions_ended: ended, person_deleted: true } });
    }
    clearSessionCookie(res, cookieIsSecure(req, deps.publicUrl));
    sendOk(res, { deleted: true, person_id: person.id, teams_left: left.map((m) => m.team_id), teams_deleted: alone.map((m) => m.team_id) }, PERSON_DELETION_ROUTES.confirmDeletePerson.message);
  });
}
