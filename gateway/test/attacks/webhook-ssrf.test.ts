import request from 'supertest';
import type { GatewayFixture } from '../support/gateway-fixture';
import { STORE_KINDS, signIn, useAttackWorld } from './attack-target';

// Issue 35, item 8: webhook endpoints were accepted at IPv6 addresses of non-public ranges the SSRF
// rules missed (local NAT64, 6to4, IPv4-compatible, site-local, the new documentation and SRv6
// blocks), some of them carrying a private IPv4 address. Each is now refused, naming its block.

jest.setTimeout(120_000);

const world = useAttackWorld();

// [address, the block the refusal names]
const MISSED: [string, string][] = [
  ['64:ff9b:1::a00:1', '64:ff9b:1::/48'],
  ['64:ff9b:1::808:808', '64:ff9b:1::/48'],
  ['2002:a9fe:a9fe::1', '2002::/16'],
  ['2002:7f00:1::', '2002::/16'],
  ['::7f00:1', '::/96'],
  ['::a9fe:a9fe', '::/96'],
  ['0:0:0:0:0:ffff:a9fe:a9fe', '169.254.0.0/16'],
  ['::ffff:0:0', '0.0.0.0/32'],
  ['fec0::1', 'fec0::/10'],
  ['3fff::1', '3fff::/20'],
  ['5f00::1', '5f00::/16'],
  ['100:0:0:1::1', '100:0:0:1::/64'],
  ['4000::1', '4000::/3'],
];

describe.each(STORE_KINDS)('webhook targets in non-public IPv6 ranges, with the %s store', (kind) => {
  let gw: GatewayFixture;
  let n = 0;
  beforeEach(async () => {
    gw = await world.gateway(kind, { WEBHOOKS_ALLOW_PRIVATE: 'false' });
    n += 1;
  });

  it('when a signed-in customer makes an endpoint at any of them, then each is 400 naming the address and its block, and nothing is kept', async () => {
    const s = await signIn(gw, world.inbox, `ssrf-make-${n}-${kind}@example.com`);
    const headers = { cookie: `tg_session=${s.cookie}`, 'x-csrf-token': s.csrf };
    for (const [address, block] of MISSED) {
      const res = await request(gw.app).post('/dashboard/v1/webhooks').set(headers).send({ url: `https://[${address}]/hook`, types: ['key.revoked'] });
      expect([address, res.status, res.body.success]).toEqual([address, 400, false]);
      expect(res.body.message).toMatch(new RegExp(`, ${block.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\), which webhooks may not reach`));
      expect(res.body.error.details).toEqual({ parameter: 'url' });
    }
    const listed = await request(gw.app).get('/dashboard/v1/webhooks').set(headers).expect(200);
    expect(listed.body.data).toEqual([]);
  });

  it('when a customer moves a public endpoint to any of them, then each is 400 and the endpoint keeps its address', async () => {
    const s = await signIn(gw, world.inbox, `ssrf-move-${n}-${kind}@example.com`);
    const headers = { cookie: `tg_session=${s.cookie}`, 'x-csrf-token': s.csrf };
    const made = await request(gw.app).post('/dashboard/v1/webhooks').set(headers).send({ url: 'https://[2606:4700:4700::1111]/hook', types: ['key.revoked'] }).expect(201);
    const id = made.body.data.id as string;
    const moves = await Promise.all(MISSED.map(([address]) => request(gw.app).put(`/dashboard/v1/webhooks/${id}`).set(headers).send({ url: `https://[${address}]/hook` })));
    expect(moves.map((r) => r.status)).toEqual(MISSED.map(() => 400));
    const listed = await request(gw.app).get('/dashboard/v1/webhooks').set(headers).expect(200);
    expect(listed.body.data.map((e: { url: string }) => e.url)).toEqual(['https://[2606:4700:4700::1111]/hook']);
  });
});
