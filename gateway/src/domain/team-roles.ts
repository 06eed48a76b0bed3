/** A member's role in a team, most powers first. */
export type TeamRole = 'owner' | 'admin' | 'billing' | 'developer';
export const TEAM_ROLES: readonly TeamRole[] = ['owner', 'admin', 'billing', 'developer'];

/**
 * What a member of a team may do, by role (docs/teams.md#roles): the one table every route and
 * page is checked against, through {@link mayDo}.
 */
export type TeamAction =
  /** See the team, its plans, usage, keys and members. */
  | 'team.read'
  /** Create, roll, end the grace of and revoke keys. */
  | 'keys.write'
  /** Webhooks and event settings. */
  | 'events.manage'
  /** Subscribe to and cancel free plans. */
  | 'plans.free'
  /** See and change paid plans and the card. */
  | 'billing'
  /** Invite, revoke invitations, remove members and change roles other than owner. */
  | 'members.manage'
  /** Make or unmake an owner, transfer ownership. */
  | 'owners.manage'
  /** Read the team's audit log. */
  | 'audit.read'
  /** The team's contact address, export and deletion. */
  | 'team.admin'
  /** What is the person's own: their session and sessions, leaving, switching, accepting. */
  | 'self';

export const TEAM_ACTIONS: readonly TeamAction[] = ['team.read', 'keys.write', 'events.manage', 'plans.free', 'billing', 'members.manage', 'owners.manage', 'audit.read', 'team.admin', 'self'];

const ROLE_ACTIONS: Record<TeamRole, ReadonlySet<TeamAction>> = {
  owner: new Set(TEAM_ACTIONS),
  admin: new Set<TeamAction>(['team.read', 'keys.write', 'events.manage', 'plans.free', 'members.manage', 'audit.read', 'self']),
  billing: new Set<TeamAction>(['team.read', 'plans.free', 'billing', 'self']),
  developer: new Set<TeamAction>(['team.read', 'keys.write', 'events.manage', 'self']),
};

/** Whether a member with `role` may do `action`. */
export const mayDo = (role: TeamRole, action: TeamAction): boolean => ROLE_ACTIONS[role].has(action);

/** The roles that may do `action`, most powers first (for refusals that say who may). */
export const rolesFor = (action: TeamAction): TeamRole[] => (Object.keys(ROLE_ACTIONS) as TeamRole[]).filter((role) => mayDo(role, action));

/**
 * Every dashboard route a session reaches, `METHOD /path` as documented (`{param}`), and the action
 * it is. A route not listed is the owner's alone (so a route added without a line here is safe, and
 * the route-table test names it).
 */
export const ROUTE_ACTIONS: Readonly<Record<string, TeamAction>> = {
  'GET /dashboard/v1/session': 'self',
  'GET /dashboard/v1/session/state': 'self',
  'DELETE /dashboard/v1/session': 'self',
  'GET /dashboard/v1/account': 'team.read',
  'GET /dashboard/v1/usage': 'team.read',
  'GET /dashboard/v1/history': 'team.read',
  'GET /dashboard/v1/usage/breakdown': 'team.read',
  'GET /dashboard/v1/usage/breakdown.csv': 'team.read',
  'GET /dashboard/v1/plans': 'team.read',
  'POST /dashboard/v1/account/verify-email': 'team.admin',
  'POST /dashboard/v1/account/verify-email/confirm': 'team.admin',
  'GET /dashboard/v1/keys': 'team.read',
  'POST /dashboard/v1/keys': 'keys.write',
  'POST /dashboard/v1/keys/{id}/roll': 'keys.write',
  'POST /dashboard/v1/keys/{id}/end-grace': 'keys.write',
  'DELETE /dashboard/v1/keys/{id}': 'keys.write',
  'GET /dashboard/v1/account/sessions': 'self',
  'DELETE /dashboard/v1/account/sessions/{id}': 'self',
  'DELETE /dashboard/v1/account/sessions': 'self',
  'POST /dashboard/v1/account/email': 'team.admin',
  'POST /dashboard/v1/account/email/confirm': 'team.admin',
  'GET /dashboard/v1/account/export': 'team.admin',
  'POST /dashboard/v1/account/delete': 'team.admin',
  'POST /dashboard/v1/account/delete/confirm': 'team.admin',
  'POST /dashboard/v1/person/delete': 'self',
  'POST /dashboard/v1/person/delete/confirm': 'self',
  'PUT /dashboard/v1/subscriptions/{api}': 'plans.free',
  'DELETE /dashboard/v1/subscriptions/{api}': 'plans.free',
  'GET /dashboard/v1/billing/status': 'team.read',
  'GET /dashboard/v1/billing': 'billing',
  'POST /dashboard/v1/billing/checkout': 'billing',
  'GET /dashboard/v1/billing/checkout/{session}': 'billing',
  'GET /dashboard/v1/billing/subscriptions/{api}/preview': 'billing',
  'PUT /dashboard/v1/billing/subscriptions/{api}': 'billing',
  'DELETE /dashboard/v1/billing/subscriptions/{api}': 'billing',
  'POST /dashboard/v1/billing/subscriptions/{api}/keep': 'billing',
  'POST /dashboard/v1/billing/portal': 'billing',
  'GET /dashboard/v1/events/settings': 'events.manage',
  'PUT /dashboard/v1/events/settings': 'events.manage',
  'GET /dashboard/v1/webhooks': 'events.manage',
  'POST /dashboard/v1/webhooks': 'events.manage',
  'PUT /dashboard/v1/webhooks/{id}': 'events.manage',
  'DELETE /dashboard/v1/webhooks/{id}': 'events.manage',
  'POST /dashboard/v1/webhooks/{id}/rotate-secret': 'events.manage',
  'POST /dashboard/v1/webhooks/{id}/test': 'events.manage',
  'GET /dashboard/v1/webhooks/{id}/deliveries': 'events.manage',
  'POST /dashboard/v1/webhooks/{id}/deliveries/{delivery}/redeliver': 'events.manage',
  'GET /dashboard/v1/teams': 'self',
  'POST /dashboard/v1/teams/switch': 'self',
  'GET /dashboard/v1/team/members': 'team.read',
  'PUT /dashboard/v1/team/members/{person}': 'members.manage',
  'DELETE /dashboard/v1/team/members/{person}': 'members.manage',
  'POST /dashboard/v1/team/leave': 'self',
  'GET /dashboard/v1/team/invitations': 'team.read',
  'POST /dashboard/v1/team/invitations': 'members.manage',
  'DELETE /dashboard/v1/team/invitations/{id}': 'members.manage',
  'POST /dashboard/v1/team/invitations/accept': 'self',
  'GET /dashboard/v1/team/audit': 'audit.read',
};

/** The action of a route as Express names it (`/keys/:id` under `/dashboard/v1`); the owner's alone when unlisted. */
export function actionOfRoute(method: string, path: string): TeamAction {
  const documented = path.replace(/:([A-Za-z_]\w*)/g, '{$1}');
  return ROUTE_ACTIONS[`${method.toUpperCase()} ${documented}`] ?? 'team.admin';
}
