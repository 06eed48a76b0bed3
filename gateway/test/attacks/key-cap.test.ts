import request from 'supertest';
import type { GatewayFixture } from '../support/gateway-fixture';
import { STORE_KINDS, operatorKey, signIn, useAttackWorld } from './attack-target';

// Issue 20, item 5: 30 creates at once ended with 21–22 live keys on Redis, past the cap of 20.

jest.setTimeout(120_000);

const world = useAttackWorld();

describe.each(STORE_KINDS)('the live-keys cap with the %s store', (kind) => {
  let gw: GatewayFixture;
  beforeEach(async () => {
    gw = await world.gateway(kind);
  });

  const liveKeys = async (headers: Record<string, string>): Promise<number> => {
    const listed = await request(gw.app).get('/dashboard/v1/keys?limit=100').set(headers);
    return (listed.body.data.items as { revoked_at: string | null }[]).filter((k) => k.revoked_at === null).length;
  };

  it('when 30 keys are asked for at once with a key, then exactly 20 are live and the rest are 409; after a revocation, exactly one more fits', async () => {
    const { key } = await operatorKey(gw, 'burst@example.com');
    const headers = { 'x-tollgate-key': key };
    const burst = () => Promise.all(Array.from({ length: 30 }, (_, i) => request(gw.app).post('/dashboard/v1/keys').set(headers).send({ name: `burst ${i}` })));
    const first = await burst();
    expect(first.filter((r) => r.status === 201)).toHaveLength(19);
    expect(first.filter((r) => r.status === 409).map((r) => r.body.error.details)).toEqual(Array(11).fill({ max_live_keys: 20 }));
    expect(await liveKeys(headers)).toBe(20);
    await request(gw.app).delete(`/dashboard/v1/keys/${first.find((r) => r.status === 201)!.body.data.id}`).set(headers).expect(200);
    const second = await burst();
    expect(second.filter((r) => r.status === 201)).toHaveLength(1);
  });

  it('when 30 keys are asked for at once from a portal session, then exactly 20 are live', async () => {
    const { cookie, csrf } = await signIn(gw, world.inbox, `portal-burst-${kind}@example.com`);
    const headers = { cookie: `tg_session=${cookie}`, 'x-csrf-token': csrf };
    const made = await Promise.all(Array.from({ length: 30 }, (_, i) => request(gw.app).post('/dashboard/v1/keys').set(headers).send({ name: `tab ${i}` })));
    expect(made.filter((r) => r.status === 201)).toHaveLength(20);
    expect(await liveKeys(headers)).toBe(20);
  });
});
