import fc from 'fast-check';
import request from 'supertest';
import { validateResponse } from '@tollgate/envelope';
import { HOSTILE_TEXT } from '@tollgate/envelope/test/hostile-requests';
import { dashboardRouteOf } from '../support/dashboard-route';
import { signInWithKnownCode, useHostileDashboard } from '../support/hostile-dashboard';

jest.setTimeout(120_000);

const gw = useHostileDashboard();
type Method = 'get' | 'post' | 'put' | 'delete';

describe('the team routes under hostile ids and bodies (property-based)', () => {
  it('when any id and any JSON reach the team routes of a signed-in owner, then every answer is a 4xx or 2xx in its documented shape, and the owner stays the team’s owner', async () => {
    const owner = await signInWithKnownCode(gw, 'hostile-owner@teams.test');
    const call = (method: Method, path: string, body?: unknown) => {
      let c = request(gw.app)[method](`/dashboard/v1${path}`).set('cookie', `tg_session=${owner.cookie}`).set('x-csrf-token', owner.csrf);
      if (body !== undefined) c = c.set('content-type', 'application/json').send(JSON.stringify(body));
      return c;
    };
    const id = fc.oneof(fc.constantFrom(...HOSTILE_TEXT.filter((t) => t.length > 0 && !/[/?#\uD800-\uDFFF]/.test(t))), fc.stringMatching(/^(per|inv|acc)_[0-9a-f]{0,30}$/));
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record({ email: fc.oneof(fc.emailAddress(), fc.string()), role: fc.oneof(fc.constantFrom('owner', 'admin', 'billing', 'developer'), fc.string()) }, { requiredKeys: [] }),
      fc.record({ code: fc.oneof(fc.string(), fc.stringMatching(/^[A-Za-z0-9_-]{43}$/)) }, { requiredKeys: [] }),
      fc.record({ team: fc.string(), role: fc.string() }, { requiredKeys: [] }),
      fc.record({ code: fc.oneof(fc.string(), fc.stringMatching(/^\d{6}$/)) }, { requiredKeys: [] }),
    );
    const target = fc.oneof(
      fc.tuple(fc.constant<Method>('put'), id.map((v) => `/team/members/${encodeURIComponent(v)}`)),
      fc.tuple(fc.constant<Method>('delete'), id.map((v) => `/team/members/${encodeURIComponent(v)}`)),
      fc.tuple(fc.constant<Method>('delete'), id.map((v) => `/team/invitations/${encodeURIComponent(v)}`)),
      fc.constant<[Method, string]>(['post', '/team/invitations']),
      fc.constant<[Method, string]>(['post', '/team/invitations/accept']),
      fc.constant<[Method, string]>(['post', '/teams/switch']),
      fc.constant<[Method, string]>(['post', '/person/delete/confirm']),
    );
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(target, body, async ([method, path], raw) => {
        const res = await call(method, path, raw);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status).toBeLessThan(500);
        expect(validateResponse(dashboardRouteOf(method, `/dashboard/v1${path}`)!, res.status, res.body)).toEqual([]);
      }),
      { numRuns: 400, seed: 20260341 },
    );
    expect([...statuses.keys()].sort()).toEqual(expect.arrayContaining([400, 404]));
    const members = (await call('get', '/team/members')).body.data.members as { email: string; role: string }[];
    expect(members.find((m) => m.email === 'hostile-owner@teams.test')?.role).toBe('owner');
  });

  it('when an admin tries to make themselves owner, remove the owner or invite an owner, and a developer tries to invite, then each is refused and nothing changes', async () => {
    const owner = await signInWithKnownCode(gw, 'boss@teams.test');
    const ownerTeam = (await request(gw.app).get('/dashboard/v1/teams').set('cookie', `tg_session=${owner.cookie}`)).body.data;
    const teamId = ownerTeam.teams[0].id as string;
    const { teamStore } = gw.stores;
    const join = async (email: string, role: 'admin' | 'developer') => {
      const session = await signInWithKnownCode(gw, email);
      const person = (await teamStore.findPersonByEmail(email))!;
      await teamStore.addMember(teamId, person.id, role, { invitedBy: ownerTeam.person.id });
      const switched = await request(gw.app).post('/dashboard/v1/teams/switch').set('cookie', `tg_session=${session.cookie}`).set('x-csrf-token', session.csrf).send({ team: teamId });
      expect(switched.status).toBe(200);
      const cookie = ([] as string[]).concat(switched.headers['set-cookie'] ?? [])[0]!.split(';')[0]!.slice('tg_session='.length);
      return { cookie, csrf: switched.body.data.csrf_token as string, id: person.id };
    };
    const admin = await join('deputy@teams.test', 'admin');
    const dev = await join('coder@teams.test', 'developer');
    const as = (s: { cookie: string; csrf: string }, method: Method, path: string, body?: object) => {
      const c = request(gw.app)[method](`/dashboard/v1${path}`).set('cookie', `tg_session=${s.cookie}`).set('x-csrf-token', s.csrf);
      return body === undefined ? c : c.send(body);
    };
    const refusals = [
      await as(admin, 'put', `/team/members/${admin.id}`, { role: 'owner' }),
      await as(admin, 'delete', `/team/members/${ownerTeam.person.id}`),
      await as(admin, 'post', '/team/invitations', { email: 'new-owner@teams.test', role: 'owner' }),
      await as(dev, 'post', '/team/invitations', { email: 'friend@teams.test', role: 'developer' }),
      await as(dev, 'put', `/team/members/${dev.id}`, { role: 'admin' }),
      await as(dev, 'get', '/account/export'),
    ];
    expect(refusals.map((r) => [r.status, r.body.error.details.reason])).toEqual(Array(6).fill([403, 'role']));
    expect((await teamStore.listMembers(teamId)).map((m) => m.role)).toEqual(['owner', 'admin', 'developer']);
    expect(await teamStore.listInvitations(teamId)).toEqual([]);
  });
});
