import request from 'supertest';
import { STORE_KINDS, signIn, useAttackWorld } from './attack-target';

// Issue 20, item 2: a second tg_session (planted on another path or a parent domain) shadowed the
// real one, since the first of the name in the Cookie header was read. Neither is believed now.

jest.setTimeout(120_000);

const world = useAttackWorld();

describe.each(STORE_KINDS)('a Cookie header carrying the session cookie twice, with the %s store', (kind) => {
  it('when a planted tg_session comes before or after the real one, then neither is believed: 401 ambiguous_session on the session and on a change, and the real one alone still works', async () => {
    const gw = await world.gateway(kind);
    const victim = await signIn(gw, world.inbox, `victim-${kind}@example.com`);
    const attacker = await signIn(gw, world.inbox, `attacker-${kind}@example.com`, '10.0.0.2');
    for (const cookie of [`tg_session=${attacker.cookie}; tg_session=${victim.cookie}`, `tg_session=${victim.cookie}; other=1; tg_session=${attacker.cookie}`]) {
      const read = await request(gw.app).get('/dashboard/v1/session').set('cookie', cookie);
      expect([read.status, read.body.error?.details]).toEqual([401, { reason: 'ambiguous_session' }]);
      expect(read.body.message).toMatch(/2 tg_session cookies.*clear this site's cookies/);
      const change = await request(gw.app).post('/dashboard/v1/keys').set('cookie', cookie).set('x-csrf-token', attacker.csrf).send({ name: 'planted' });
      expect([change.status, change.body.error?.details]).toEqual([401, { reason: 'ambiguous_session' }]);
    }
    const keys = await request(gw.app).get('/dashboard/v1/keys').set('cookie', `tg_session=${attacker.cookie}`).expect(200);
    expect(keys.body.data.items.map((k: { name: string }) => k.name)).not.toContain('planted');
    const own = await request(gw.app).get('/dashboard/v1/session').set('cookie', `tg_session=${victim.cookie}`);
    expect([own.status, own.body.data.account.id]).toEqual([200, victim.accountId]);
  });
});
