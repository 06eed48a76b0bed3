import request from 'supertest';
import { validateResponse } from '@tollgate/envelope';
import type { RouteDoc } from '@tollgate/envelope';
import { sha256 } from '../../src/data/session-store';
import { ADMIN_TEAM_ROUTES as ROUTES } from '../../src/admin/admin-team-routes';
import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';
import { ADMIN_TOKEN, buildGateway } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';
import { startRedisServer } from '../support/redis-server';
import type { RedisServer } from '../support/redis-server';

jest.setTimeout(60_000);

let upstream: EchoUpstream;
let redisServer: RedisServer;
beforeAll(async () => {
  [upstream, redisServer] = await Promise.all([startEchoUpstream(), startRedisServer()]);
});
afterAll(() => Promise.all([upstream.close(), redisServer.stop()]));

const auth = { Authorization: `Bearer ${ADMIN_TOKEN}` };
const START = Date.parse('2026-03-15T12:00:00.000Z');

describe.each(['memory', 'redis'] as const)('operators manage a team through the admin API (%s store)', (kind) => {
  let gw: GatewayFixture;
  beforeEach(async () => {
    gw = await buildGateway({ upstream: upstream.url, redisUrl: kind === 'redis' ? redisServer.url : undefined, start: START, env: { TEAM_MAX_MEMBERS: '3' } });
  });
  afterEach(() => gw.close());

  async function send(route: RouteDoc, path: string, body?: unknown): Promise<request.Response> {
    const req = request(gw.app)[route.method](path).set(auth);
    const res = await (body === undefined ? req : req.send(body as object));
    expect(validateResponse(route, res.status, res.body)).toEqual([]);
    return res;
  }
  /** A team whose owner is the person of its address (as the adoption makes it). */
  async function team(email: string): Promise<string> {
    const made = await request(gw.app).post('/admin/v1/accounts').set(auth).send({ email });
    expect(made.status).toBe(201);
    const members = await send(ROUTES.listMembers, `/admin/v1/accounts/${made.body.data.id}/members`);
    // An operator's account has no members until one is added: its address becomes the owner.
    expect(members.body.data.members).toEqual([]);
    expect((await send(ROUTES.addMember, `/admin/v1/accounts/${made.body.data.id}/members`, { email, role: 'owner' })).status).toBe(201);
    return made.body.data.id as string;
  }
  const roles = async (id: string) => (await send(ROUTES.listMembers, `/admin/v1/accounts/${id}/members`)).body.data.members.map((m: { email: string; role: string }) => [m.email, m.role]);

  it('when an operator adds, changes, transfers and removes members, then each step answers the member, ends a removed member’s sessions, and is in the team’s audit log as the operator’s', async () => {
    const id = await team('boss@ops.example');
    const added = await send(ROUTES.addMember, `/admin/v1/accounts/${id}/members`, { email: 'Dev@Ops.Example', role: 'developer' });
    expect([added.status, added.body.data.email, added.body.data.role, added.body.data.invited_by]).toEqual([201, 'dev@ops.example', 'developer', null]);
    const devId = added.body.data.person_id as string;
    const again = await send(ROUTES.addMember, `/admin/v1/accounts/${id}/members`, { email: 'dev@ops.example', role: 'admin' });
    expect([again.status, again.body.error.details]).toEqual([409, { reason: 'already_member', role: 'developer' }]);

    expect((await send(ROUTES.setRole, `/admin/v1/accounts/${id}/members/dev@ops.example`, { role: 'billing' })).body.data.role).toBe('billing');
    const demote = await send(ROUTES.setRole, `/admin/v1/accounts/${id}/members/boss@ops.example`, { role: 'admin' });
    expect([demote.status, demote.body.error.details]).toEqual([409, { reason: 'last_owner' }]);
    const lastGo = await send(ROUTES.removeMember, `/admin/v1/accounts/${id}/members/boss@ops.example`);
    expect([lastGo.status, lastGo.body.error.details]).toEqual([409, { reason: 'last_owner' }]);

    const transferred = await send(ROUTES.transferOwnership, `/admin/v1/accounts/${id}/owner`, { person: devId });
    expect(transferred.status).toBe(200);
    // Joined in the same millisecond: most powers first.
    expect(await roles(id)).toEqual([
      ['dev@ops.example', 'owner'],
      ['boss@ops.example', 'admin'],
    ]);

    const bossId = (await gw.stores.teamStore.findPersonByEmail('boss@ops.example'))!.id;
    await gw.stores.sessionStore.putSession(sha256('s'.repeat(43)), { account_id: id, person_id: bossId, csrf_token: 'c'.repeat(43), created_at: new Date(START).toISOString(), expires_at: new Date(START + 86_400_000).toISOString() });
    const removed = await send(ROUTES.removeMember, `/admin/v1/accounts/${id}/members/${bossId}`);
    expect([removed.status, removed.body.data.role]).toEqual([200, 'admin']);
    expect(await gw.stores.sessionStore.getSession(sha256('s'.repeat(43)))).toBeUndefined();
    expect(await roles(id)).toEqual([['dev@ops.example', 'owner']]);

    const audit = await gw.stores.auditLog.list({ accountId: id, limit: 50, oldestFirst: true });
    expect(audit.items.filter((e) => e.action.startsWith('team.')).map((e) => [e.action, e.actor.type, e.actor.via])).toEqual([
      ['team.member_add', 'operator', 'admin-api'],
      ['team.member_add', 'operator', 'admin-api'],
      ['team.role_change', 'operator', 'admin-api'],
      ['team.owner_transfer', 'operator', 'admin-api'],
      ['team.member_remove', 'operator', 'admin-api'],
    ]);
  });

  it('when the team is full, or an account, member or body is unknown or malformed, then each is a clear 4xx in the envelope', async () => {
    const id = await team('full@ops.example');
    for (const n of [1, 2]) expect((await send(ROUTES.addMember, `/admin/v1/accounts/${id}/members`, { email: `m${n}@ops.example`, role: 'developer' })).status).toBe(201);
    const full = await send(ROUTES.addMember, `/admin/v1/accounts/${id}/members`, { email: 'm3@ops.example', role: 'developer' });
    expect([full.status, full.body.error.details]).toEqual([409, { reason: 'members_limit', max: 3 }]);
    expect((await send(ROUTES.listMembers, '/admin/v1/accounts/acc_000000000000000000000000/members')).status).toBe(404);
    expect((await send(ROUTES.setRole, `/admin/v1/accounts/${id}/members/nobody@ops.example`, { role: 'admin' })).status).toBe(404);
    expect((await send(ROUTES.removeMember, `/admin/v1/accounts/${id}/members/per_000000000000000000000000`)).status).toBe(404);
    expect((await send(ROUTES.addMember, `/admin/v1/accounts/${id}/members`, { email: 'not an address', role: 'developer' })).status).toBe(400);
    expect((await send(ROUTES.addMember, `/admin/v1/accounts/${id}/members`, { email: 'x@ops.example', role: 'god' })).status).toBe(400);
    expect((await send(ROUTES.transferOwnership, `/admin/v1/accounts/${id}/owner`, {})).status).toBe(400);
    expect((await request(gw.app).get(`/admin/v1/accounts/${id}/members`)).status).toBe(401);
  });
});
