import request from 'supertest';
import { ADMIN_TOKEN } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';
import { STORE_KINDS, from, useAttackWorld } from './attack-target';

// Issue 35, item 6: the console's limit on wrong admin tokens still took the right token while it
// refused, so it did not slow guessing; /admin/v1 and /metrics had no limit on failed bearer tokens.

jest.setTimeout(120_000);

const world = useAttackWorld();
const GUESSER = '203.0.113.9';
const OPERATOR = '10.0.0.1';

describe.each(STORE_KINDS)('guessing the admin token with the %s store', (kind) => {
  let gw: GatewayFixture;
  beforeEach(async () => {
    gw = await world.gateway(kind);
  });

  // The three doors the admin token opens, each tried with `token` from `network`.
  const doors = {
    console: (token: string, network: string) => request(gw.app).post('/admin/console/v1/sign-in/token').set(from(network)).send({ token }),
    'admin API': (token: string, network: string) => request(gw.app).get('/admin/v1/accounts?limit=1').set(from(network)).set('authorization', `Bearer ${token}`),
    metrics: (token: string, network: string) => request(gw.app).get('/metrics').set(from(network)).set('authorization', `Bearer ${token}`),
  };
  const names = Object.keys(doors) as (keyof typeof doors)[];

  it.each(names)('when one network sends 20 wrong tokens to the %s, then from there even the right token is 429 with Retry-After until the hour ends; another network is let in meanwhile', async (door) => {
    const knock = doors[door];
    for (let i = 0; i < 20; i++) expect((await knock(`wrong-token-${i}-0123456789`, GUESSER)).status).toBe(401);
    const refused = [await knock('wrong-token-again-0123456789', GUESSER), await knock(ADMIN_TOKEN, GUESSER)];
    for (const res of refused) {
      expect([res.status, res.body.error?.details?.reason]).toEqual([429, 'token_guesses']);
      expect(Number(res.headers['retry-after'])).toBe(3600);
    }
    // The attack's network only: the operator's is let in at once.
    expect((await knock(ADMIN_TOKEN, OPERATOR)).status).toBe(200);
    gw.clock.advance(3_600_000);
    expect((await knock(ADMIN_TOKEN, GUESSER)).status).toBe(200);
  });

  it('when wrong tokens are spread over the console, the admin API and /metrics, then they count together; an IPv6 client is one network by its /64', async () => {
    const v6 = (i: number) => `2001:db8:7:7::${(i + 1).toString(16)}`;
    for (let i = 0; i < 20; i++) expect((await doors[names[i % 3]!](`wrong-token-${i}-0123456789`, v6(i))).status).toBe(401);
    for (const door of names) expect([door, (await doors[door](ADMIN_TOKEN, '2001:db8:7:7:ffff::1')).status]).toEqual([door, 429]);
    expect((await doors['admin API'](ADMIN_TOKEN, '2001:db8:7:8::1')).status).toBe(200);
  });

  it('when the right token is used again and again from one network, then it is never limited: only wrong ones count', async () => {
    for (let i = 0; i < 30; i++) expect((await doors['admin API'](ADMIN_TOKEN, OPERATOR)).status).toBe(200);
    for (let i = 0; i < 19; i++) expect((await doors.metrics(`wrong-token-${i}-0123456789`, OPERATOR)).status).toBe(401);
    expect((await doors.console(ADMIN_TOKEN, OPERATOR)).status).toBe(200);
  });
});
