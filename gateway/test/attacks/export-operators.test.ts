import request from 'supertest';
import { ADMIN_TOKEN } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';
import { signInCode } from '../support/smtp-inbox';
import { STORE_KINDS, from, signIn, useAttackWorld } from './attack-target';

// Issue 35, item 12: a customer's account export showed the operators' email addresses and client
// addresses, from the audit entries of what they did to the account.

jest.setTimeout(120_000);

const world = useAttackWorld();
const OPERATOR = 'ops-private@example.com';
const OPERATOR_NETWORK = '198.51.100.77';
const ADMIN_NETWORK = '192.0.2.55';

describe.each(STORE_KINDS)('a customer’s export and the operators with the %s store', (kind) => {
  let gw: GatewayFixture;
  beforeEach(async () => {
    gw = await world.gateway(kind, { OPERATOR_EMAILS: OPERATOR, PUBLIC_URL: 'https://gateway.example.com' });
  });

  /** A console session of the operator, signed in by mail from their network. */
  async function operatorSession(): Promise<{ cookie: string; csrf: string }> {
    const before = world.inbox.count(OPERATOR);
    await request(gw.app).post('/admin/console/v1/sign-in/code').set(from(OPERATOR_NETWORK)).send({ email: OPERATOR }).expect(202);
    const { code } = signInCode(await world.inbox.next(OPERATOR, before));
    const res = await request(gw.app).post('/admin/console/v1/sign-in/code/verify').set(from(OPERATOR_NETWORK)).send({ email: OPERATOR, code }).expect(200);
    return { cookie: String(res.headers['set-cookie']).split(';')[0]!, csrf: res.body.data.csrf_token };
  }

  it('when operators change the account from the console and the admin API, then the customer’s export names each of them “an operator”, with neither their address nor where they came from', async () => {
    const customer = await signIn(gw, world.inbox, `customer-${kind}@example.com`, '10.1.1.1');
    const operator = await operatorSession();
    const consoleChange = (path: string, body?: object) => request(gw.app).post(`/admin/console/v1/accounts/${customer.accountId}${path}`).set(from(OPERATOR_NETWORK)).set({ cookie: operator.cookie, 'x-csrf-token': operator.csrf }).send(body);
    await consoleChange('/suspend').expect(200);
    await consoleChange('/reactivate').expect(200);
    await request(gw.app).put(`/admin/v1/accounts/${customer.accountId}/subscriptions/token`).set(from(ADMIN_NETWORK)).set('authorization', `Bearer ${ADMIN_TOKEN}`).send({ plan: 'pro', status: 'active' }).expect(200);

    const exported = await request(gw.app).get('/dashboard/v1/account/export').set('cookie', `tg_session=${customer.cookie}`).expect(200);
    const text = JSON.stringify(exported.body);
    for (const secret of [OPERATOR, OPERATOR_NETWORK, ADMIN_NETWORK, 'admin token']) expect([secret, text.includes(secret)]).toEqual([secret, false]);
    const byOperators = (exported.body.data.audit as { action: string; actor: { type: string; id: string; via: string }; from: string | null }[]).filter((e) => e.actor.type === 'operator');
    expect(byOperators.map((e) => [e.action, e.actor, e.from])).toEqual([
      ['account.suspend', { type: 'operator', id: 'an operator', via: 'console' }, null],
      ['account.reactivate', { type: 'operator', id: 'an operator', via: 'console' }, null],
      ['subscription.set', { type: 'operator', id: 'an operator', via: 'admin-api' }, null],
    ]);
    // The customer's own entries keep where they came from.
    expect((exported.body.data.audit as { action: string; from: string | null }[]).find((e) => e.action === 'account.sign_in')?.from).toBe('10.1.1.1');

    // The operators' own view keeps who and where.
    const audit = await request(gw.app).get(`/admin/v1/audit?account_id=${customer.accountId}`).set('authorization', `Bearer ${ADMIN_TOKEN}`).expect(200);
    expect(audit.body.data.items.map((e: { actor: { id: string }; from: string }) => [e.actor.id, e.from])).toEqual(expect.arrayContaining([[OPERATOR, OPERATOR_NETWORK], ['admin token', ADMIN_NETWORK]]));
  });
});
