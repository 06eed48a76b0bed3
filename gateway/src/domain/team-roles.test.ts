import { TEAM_ACTIONS, actionOfRoute, mayDo, rolesFor } from './team-roles';
import type { TeamAction, TeamRole } from './team-roles';

// The roles table of docs/teams.md, written out: a change to the code must change this too.
const TABLE: Record<TeamAction, TeamRole[]> = {
  'team.read': ['owner', 'admin', 'billing', 'developer'],
  'keys.write': ['owner', 'admin', 'developer'],
  'events.manage': ['owner', 'admin', 'developer'],
  'plans.free': ['owner', 'admin', 'billing'],
  billing: ['owner', 'billing'],
  'members.manage': ['owner', 'admin'],
  'owners.manage': ['owner'],
  'audit.read': ['owner', 'admin'],
  'team.admin': ['owner'],
  self: ['owner', 'admin', 'billing', 'developer'],
};

describe('team roles', () => {
  it.each(TEAM_ACTIONS.flatMap((action) => (['owner', 'admin', 'billing', 'developer'] as const).map((role) => [role, action] as const)))('%s may %s only as the table says', (role, action) => {
    expect(mayDo(role, action)).toBe(TABLE[action].includes(role));
  });

  it('when asked who may do an action, then the roles come most powers first', () => {
    expect(rolesFor('billing')).toEqual(['owner', 'billing']);
    expect(rolesFor('members.manage')).toEqual(['owner', 'admin']);
  });

  it.each([
    ['GET', '/dashboard/v1/keys', 'team.read'],
    ['POST', '/dashboard/v1/keys', 'keys.write'],
    ['DELETE', '/dashboard/v1/keys/:id', 'keys.write'],
    ['post', '/dashboard/v1/billing/subscriptions/:api/keep', 'billing'],
    ['POST', '/dashboard/v1/webhooks/:id/deliveries/:delivery/redeliver', 'events.manage'],
    ['PUT', '/dashboard/v1/team/members/:person', 'members.manage'],
    // Unlisted: the owner's alone.
    ['POST', '/dashboard/v1/something-new', 'team.admin'],
    ['GET', '/dashboard/v1/keys/:id', 'team.admin'],
  ] as const)('%s %s is %s', (method, path, action) => {
    expect(actionOfRoute(method, path)).toBe(action);
  });
});
