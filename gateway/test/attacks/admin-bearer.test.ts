import request from 'supertest';
import { ADMIN_TOKEN } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';
import { STORE_KINDS, useAttackWorld } from './attack-target';

// Issue 20, item 8: `Authorization: bearer …` (lower case) was refused; the scheme is case-insensitive (RFC 9110 §11.1).

jest.setTimeout(60_000);

const world = useAttackWorld();

describe.each(STORE_KINDS)('the admin API’s bearer scheme with the %s store', (kind) => {
  let gw: GatewayFixture;
  beforeAll(async () => {
    gw = await world.gateway(kind);
  });
  const call = (authorization: string) => request(gw.app).get('/admin/v1/accounts?limit=1').set('authorization', authorization);

  it.each(['Bearer', 'bearer', 'BEARER', 'bEaReR'])('when the scheme is written %s, then the token opens the admin API', async (scheme) => {
    expect((await call(`${scheme} ${ADMIN_TOKEN}`)).status).toBe(200);
    expect((await call(`${scheme}   ${ADMIN_TOKEN}`)).status).toBe(200);
  });

  it.each([
    ['another scheme', `Basic ${Buffer.from(`admin:${ADMIN_TOKEN}`).toString('base64')}`],
    ['no space after the scheme', `Bearer${ADMIN_TOKEN}`],
    ['the scheme alone', 'Bearer'],
    ['a wrong token', 'bearer wrong-token-wrong-token'],
    ['the token with a character more', `bearer ${ADMIN_TOKEN}x`],
    ['the token alone', ADMIN_TOKEN],
  ])('when the header holds %s, then 401 with WWW-Authenticate', async (_what, authorization) => {
    const res = await call(authorization);
    expect([res.status, res.headers['www-authenticate']]).toEqual([401, 'Bearer realm="tollgate-admin"']);
  });
});
