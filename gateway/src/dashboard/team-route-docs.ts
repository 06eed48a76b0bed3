import type { QuerySchema, RouteDoc } from '@tollgate/envelope/core';
import type { SchemaObject } from 'ajv';
import { TEAM_ACTIONS, TEAM_ROLES } from '../domain/team-roles';
import { ACCOUNT_SCHEMA, AUDIT_ENTRY_SCHEMA, MEMBER_SCHEMA } from '../http/account-schemas';
import { CALLER_ERRORS } from './dashboard-auth';
import { EMAIL_FIELD } from './sign-in-routes';

/** How big a team may grow and how long an invitation lives (config: TEAM_MAX_MEMBERS, TEAM_MAX_PENDING_INVITES). */
export interface TeamLimits {
  maxMembers: number;
  maxPendingInvitations: number;
  invitationTtlMs: number;
}

const time = { type: 'string', format: 'date-time' };
const role = { type: 'string', enum: [...TEAM_ROLES] };
const closed = (properties: Record<string, unknown>): SchemaObject => ({ type: 'object', additionalProperties: false, required: Object.keys(properties), properties });
const PERSON_ID = { type: 'string', pattern: '^per_[0-9a-f]{24}$' };

export const ROLE_BODY: QuerySchema = { type: 'object', additionalProperties: false, required: ['role'], properties: { role } };
export const INVITE_BODY: QuerySchema = { type: 'object', additionalProperties: false, required: ['email', 'role'], properties: { email: EMAIL_FIELD, role } };
export const ACCEPT_BODY: QuerySchema = { type: 'object', additionalProperties: false, required: ['code'], properties: { code: { type: 'string', minLength: 1, maxLength: 200, description: 'the code of the invitation mail' } } };
export const SWITCH_BODY: QuerySchema = { type: 'object', additionalProperties: false, required: ['team'], properties: { team: { type: 'string', minLength: 1, maxLength: 64, description: 'the id of one of your teams' } } };

/** A pending invitation, never its code. */
export const INVITATION_SCHEMA = closed({ id: { type: 'string', pattern: '^inv_[0-9a-f]{24}$' }, team_id: { type: 'string' }, email: { type: 'string' }, role, invited_by: PERSON_ID, created_at: time, expires_at: time });
const TEAM_LIST = closed({
  person: closed({ id: PERSON_ID, email: { type: 'string' }, name: { type: 'string' } }),
  teams: { type: 'array', items: closed({ id: { type: 'string' }, name: { type: 'string' }, role, current: { type: 'boolean' } }) },
  actions: { type: 'array', items: { type: 'string', enum: [...TEAM_ACTIONS] }, description: 'what your role in the current team may do (docs/teams.md#roles): the portal offers only these' },
});

/** The team routes, described once (merged into DASHBOARD_ROUTES); every one takes the session cookie only. */
export const TEAM_ROUTES = {
  teamAudit: {
    method: 'get',
    path: '/dashboard/v1/team/audit',
    summary: 'The team’s newest 50 audit entries (owner, admin): every change, who made it and from where; the people named, by address',
    data: closed({
      entries: { type: 'array', items: AUDIT_ENTRY_SCHEMA },
      people: { type: 'object', additionalProperties: { type: ['string', 'null'] }, description: 'each person id in the entries (actor or target) and their address now; null: the person is gone' },
    }),
    message: 'Audit entries listed',
    errors: [...CALLER_ERRORS],
  },
  listTeams: { method: 'get', path: '/dashboard/v1/teams', summary: 'The teams you belong to, with your role in each and which one this session is on', data: TEAM_LIST, message: 'Teams listed', errors: [...CALLER_ERRORS] },
  switchTeam: {
    method: 'post',
    path: '/dashboard/v1/teams/switch',
    summary: 'Move to another of your teams: a new session (and CSRF token) on it; the next sign-in opens it too',
    body: SWITCH_BODY,
    data: closed({ account: ACCOUNT_SCHEMA, role, csrf_token: { type: 'string' }, expires_at: time }),
    message: 'Team switched',
    errors: ['NOT_FOUND', ...CALLER_ERRORS],
  },
  listMembers: { method: 'get', path: '/dashboard/v1/team/members', summary: 'The members of this team and their roles', data: closed({ members: { type: 'array', items: MEMBER_SCHEMA } }), message: 'Members listed', errors: [...CALLER_ERRORS] },
  changeRole: { method: 'put', path: '/dashboard/v1/team/members/{person}', summary: 'Change a member’s role (owner, admin; making or unmaking an owner: owner only; the last owner stays owner)', body: ROLE_BODY, data: MEMBER_SCHEMA, message: 'Role changed', errors: ['NOT_FOUND', 'CONFLICT', ...CALLER_ERRORS] },
  removeMember: { method: 'delete', path: '/dashboard/v1/team/members/{person}', summary: 'Remove a member (owner, admin; an owner only by an owner): their sessions on this team end at once, the keys they made stay the team’s', data: MEMBER_SCHEMA, message: 'Member removed', errors: ['NOT_FOUND', 'CONFLICT', ...CALLER_ERRORS] },
  leaveTeam: { method: 'post', path: '/dashboard/v1/team/leave', summary: 'Leave this team (the last owner cannot: make another member owner first); this session ends', data: closed({ team_id: { type: 'string' }, left: { type: 'boolean' } }), message: 'You left the team', errors: ['CONFLICT', ...CALLER_ERRORS] },
  listInvitations: { method: 'get', path: '/dashboard/v1/team/invitations', summary: 'This team’s pending invitations (and lapsed ones, for a day)', data: closed({ invitations: { type: 'array', items: INVITATION_SCHEMA } }), message: 'Invitations listed', errors: [...CALLER_ERRORS] },
  invite: {
    method: 'post',
    path: '/dashboard/v1/team/invitations',
    summary: 'Invite an address with a role (owner, admin; an owner only by an owner): a mail with a one-time code, the same whether or not the address has an account; a second invitation to the address replaces the first',
    body: INVITE_BODY,
    data: INVITATION_SCHEMA,
    message: 'Invitation sent',
    successStatus: 201,
    errors: ['CONFLICT', 'UPSTREAM_UNAVAILABLE', ...CALLER_ERRORS],
  },
  revokeInvitation: { method: 'delete', path: '/dashboard/v1/team/invitations/{id}', summary: 'Revoke a pending invitation: its code no longer works', data: INVITATION_SCHEMA, message: 'Invitation revoked', errors: ['NOT_FOUND', ...CALLER_ERRORS] },
  acceptInvitation: {
    method: 'post',
    path: '/dashboard/v1/team/invitations/accept',
    summary: 'Accept an invitation, signed in as the address it was sent to: the code works once, until it expires',
    body: ACCEPT_BODY,
    data: closed({ team: closed({ id: { type: 'string' }, name: { type: 'string' } }), role }),
    message: 'Invitation accepted; switch to the team with POST /dashboard/v1/teams/switch',
    errors: ['NOT_FOUND', 'CONFLICT', ...CALLER_ERRORS],
  },
} satisfies Record<string, RouteDoc>;
