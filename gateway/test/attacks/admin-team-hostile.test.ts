import fc from 'fast-check';
import request from 'supertest';
import { validateResponse } from '@tollgate/envelope';
import type { RouteDoc } from '@tollgate/envelope';
import { HOSTILE_TEXT } from '@tollgate/envelope/test/hostile-requests';
import { ADMIN_TEAM_ROUTES as ROUTES } from '../../src/admin/admin-team-routes';
import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';
import { ADMIN_TOKEN, buildGateway } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';

jest.setTimeout(120_000);

let upstream: EchoUpstream;
let gw: GatewayFixture;
beforeAll(async () => {
  upstream = await startEchoUpstream();
  gw = await buildGateway({ upstream: upstream.url, env: { TEAM_MAX_MEMBERS: '4' } });
});
afterAll(async () => {
  await gw.close();
  await upstream.close();
});

describe('the admin API’s team routes under hostile ids and bodies (property-based)', () => {
  it('when any account id, member and JSON reach the team routes, then every answer is a 4xx or 2xx in its documented shape, and the team always keeps an owner', async () => {
    const team = await gw.stores.accountStore.createAccount({ email: 'owner@hostile.example' });
    const call = (route: RouteDoc, path: string, body?: unknown) => {
      let c = request(gw.app)[route.method](path).set('authorization', `Bearer ${ADMIN_TOKEN}`);
      if (body !== undefined) c = c.set('content-type', 'application/json').send(JSON.stringify(body));
      return c;
    };
    expect((await call(ROUTES.addMember, `/admin/v1/accounts/${team.id}/members`, { email: 'owner@hostile.example', role: 'owner' })).status).toBe(201);
    expect((await call(ROUTES.addMember, `/admin/v1/accounts/${team.id}/members`, { email: 'dev@hostile.example', role: 'developer' })).status).toBe(201);

    const text = fc.constantFrom(...HOSTILE_TEXT.filter((t) => t.length > 0 && !/[/?#\uD800-\uDFFF]/.test(t)));
    const member = fc.oneof(text, fc.stringMatching(/^per_[0-9a-f]{0,30}$/), fc.constantFrom('owner@hostile.example', 'dev@hostile.example', 'DEV@Hostile.Example'), fc.emailAddress());
    const account = fc.oneof({ weight: 3, arbitrary: fc.constant(team.id) }, text, fc.stringMatching(/^acc_[0-9a-f]{0,30}$/));
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record({ email: fc.oneof(fc.emailAddress(), fc.string(), text), role: fc.oneof(fc.constantFrom('owner', 'admin', 'billing', 'developer'), fc.string()) }, { requiredKeys: [] }),
      fc.record({ role: fc.oneof(fc.constantFrom('owner', 'admin', 'billing', 'developer'), fc.string()) }, { requiredKeys: [] }),
      fc.record({ person: member }, { requiredKeys: [] }),
    );
    const target = fc.oneof(
      account.map((id): [RouteDoc, string] => [ROUTES.listMembers, `/admin/v1/accounts/${encodeURIComponent(id)}/members`]),
      account.map((id): [RouteDoc, string] => [ROUTES.addMember, `/admin/v1/accounts/${encodeURIComponent(id)}/members`]),
      fc.tuple(account, member).map(([id, m]): [RouteDoc, string] => [ROUTES.setRole, `/admin/v1/accounts/${encodeURIComponent(id)}/members/${encodeURIComponent(m)}`]),
      fc.tuple(account, member).map(([id, m]): [RouteDoc, string] => [ROUTES.removeMember, `/admin/v1/accounts/${encodeURIComponent(id)}/members/${encodeURIComponent(m)}`]),
      account.map((id): [RouteDoc, string] => [ROUTES.transferOwnership, `/admin/v1/accounts/${encodeURIComponent(id)}/owner`]),
    );
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(target, body, async ([route, path], raw) => {
        const res = await call(route, path, route.method === 'get' || route.method === 'delete' ? undefined : raw);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status).toBeLessThan(500);
        expect(validateResponse(route, res.status, res.body)).toEqual([]);
        expect((await gw.stores.teamStore.listMembers(team.id)).some((m) => m.role === 'owner')).toBe(true);
      }),
      { numRuns: 400, seed: 20261128 },
    );
    expect([...statuses.keys()].sort()).toEqual(expect.arrayContaining([200, 400, 404, 409]));
  });
});
