import { Router } from 'express';
import type { Request } from 'express';
import { sendOk } from '@tollgate/envelope/core';
import type { RouteDoc } from '@tollgate/envelope/core';
import type { SchemaObject } from 'ajv';
import type { AuditSource } from '../data/audited-account-store';
import { MEMBER_SCHEMA } from '../http/account-schemas';
import { adminApiSource } from '../http/audit-source';
import { sendCreated } from '../http/send-created';
import { ADD_MEMBER_BODY, SET_ROLE_BODY, TRANSFER_BODY } from '../http/team-actions';
import type { TeamActions } from '../http/team-actions';

const admin = ['BAD_REQUEST', 'UNAUTHORIZED', 'NOT_FOUND', 'STORE_UNAVAILABLE'] as const;
const path = '/admin/v1/accounts/{id}/members';
const MEMBERS: SchemaObject = { type: 'object', additionalProperties: false, required: ['team_id', 'members'], properties: { team_id: { type: 'string' }, members: { type: 'array', items: MEMBER_SCHEMA } } };
const member = 'A member is named by person id (`per_…`) or address.';

/** The admin API's team routes, described once (OpenAPI, contract tests). Each change is an audit entry of the team's, the operator's. */
export const ADMIN_TEAM_ROUTES = {
  listMembers: { method: 'get', path, summary: 'A team’s members and their roles, in the order they joined', data: MEMBERS, message: 'Members listed', errors: [...admin] },
  addMember: {
    method: 'post',
    path,
    summary: 'Add a person to a team with a role, by address (a person is made for an address that has none; they sign in with it)',
    description: 'No invitation is mailed: the operator vouches for the address. 409 when the address is already a member (`already_member`) or the team is at TEAM_MAX_MEMBERS (`members_limit`).',
    body: ADD_MEMBER_BODY,
    data: MEMBER_SCHEMA,
    message: 'Member added',
    successStatus: 201,
    errors: ['CONFLICT', ...admin],
  },
  setRole: { method: 'put', path: `${path}/{member}`, summary: 'Change a member’s role', description: `${member} 409 \`last_owner\` for the last owner’s demotion.`, body: SET_ROLE_BODY, data: MEMBER_SCHEMA, message: 'Role changed', errors: ['CONFLICT', ...admin] },
  removeMember: { method: 'delete', path: `${path}/{member}`, summary: 'Remove a member: their sessions on the team end at once; the keys they made stay the team’s', description: `${member} 409 \`last_owner\` for the last owner.`, data: MEMBER_SCHEMA, message: 'Member removed', errors: ['CONFLICT', ...admin] },
  transferOwnership: {
    method: 'post',
    path: '/admin/v1/accounts/{id}/owner',
    summary: 'Make a member the team’s only owner; every other owner becomes an admin',
    description: member,
    body: TRANSFER_BODY,
    data: MEMBERS,
    message: 'Ownership transferred',
    errors: ['CONFLICT', ...admin],
  },
} satisfies Record<string, RouteDoc>;

/** `/admin/v1/accounts/:id/members…` and `/owner` (mounted by createAdminRoutes, behind its token and JSON body parser). */
export function createAdminTeamRoutes(actionsFor: (source: AuditSource) => TeamActions): Router {
  const router = Router();
  const actions = (req: Request): TeamActions => actionsFor(adminApiSource(req));
  const DOCS = ADMIN_TEAM_ROUTES;
  router.get('/accounts/:id/members', async (req, res) => sendOk(res, await actions(req).members(req.params.id), DOCS.listMembers.message));
  router.post('/accounts/:id/members', async (req, res) => sendCreated(res, await actions(req).addMember(req.params.id, req.body), DOCS.addMember.message));
  router.put('/accounts/:id/members/:member', async (req, res) => sendOk(res, await actions(req).setRole(req.params.id, req.params.member, req.body), DOCS.setRole.message));
  router.delete('/accounts/:id/members/:member', async (req, res) => sendOk(res, await actions(req).removeMember(req.params.id, req.params.member), DOCS.removeMember.message));
  router.post('/accounts/:id/owner', async (req, res) => sendOk(res, await actions(req).transferOwnership(req.params.id, req.body), DOCS.transferOwnership.message));
  return router;
}
