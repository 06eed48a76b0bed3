import request from 'supertest';
import { gatewayRouteDocs, operatorRouteDocs } from '../../src/gateway-route-docs';
import { ADMIN_TOKEN } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';
import { STORE_KINDS, operatorKey, signIn, useAttackWorld } from './attack-target';

// Issue 20, item 9: answers carrying account data could be kept by a browser or a shared cache.

jest.setTimeout(60_000);

const world = useAttackWorld();

type Method = 'get' | 'post' | 'put' | 'delete';

describe.each(STORE_KINDS)('Cache-Control on account data with the %s store', (kind) => {
  let gw: GatewayFixture;
  beforeAll(async () => {
    gw = await world.gateway(kind);
  });

  it('when the session, the account and a new key are read, then each answer says no-store', async () => {
    const { cookie, csrf } = await signIn(gw, world.inbox, `cache-${kind}@example.com`);
    const session = { cookie: `tg_session=${cookie}`, 'x-csrf-token': csrf };
    const answers = [
      await request(gw.app).get('/dashboard/v1/session').set(session),
      await request(gw.app).get('/dashboard/v1/account').set(session),
      await request(gw.app).post('/dashboard/v1/keys').set(session).send({ name: 'cached?' }),
      await request(gw.app).post('/admin/v1/keys').set('authorization', `Bearer ${ADMIN_TOKEN}`).send({ owner: `cache-admin-${kind}@example.com` }),
    ];
    expect(answers.map((r) => [r.status, r.headers['cache-control']])).toEqual([200, 200, 201, 201].map((status) => [status, 'no-store']));
  });

  it('when every dashboard and admin route is called, with or without credentials, then every answer, refusals too, says no-store', async () => {
    const { key, id, accountId } = await operatorKey(gw, `routes-${kind}@example.com`);
    const fill = (path: string) => path.replace('{id}', path.startsWith('/admin/v1/accounts') ? accountId : id).replace('{api}', 'token');
    const { dashboard } = gatewayRouteDocs();
    const admin = operatorRouteDocs();
    const seen = new Set<number>();
    for (const route of [...dashboard, ...admin]) {
      for (const credentials of [{}, { 'x-tollgate-key': key, authorization: `Bearer ${ADMIN_TOKEN}` }]) {
        const res = await request(gw.app)[route.method as Method](fill(route.path)).set(credentials).send({});
        seen.add(res.status);
        // …and never a 5xx: a route that throws (a store method lost by a wrapper) is found here too.
        expect([route.method, route.path, res.headers['cache-control'], res.status < 500]).toEqual([route.method, route.path, 'no-store', true]);
      }
    }
    expect([...seen].sort()).toEqual(expect.arrayContaining([200, 400, 401]));
  });
});
