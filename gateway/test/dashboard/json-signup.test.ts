import request from 'supertest';
import { validateResponse } from '@tollgate/envelope';
import { DASHBOARD_ROUTES } from '../../src/dashboard/dashboard-routes';
import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';
import { buildGateway } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';
import { signInCode, startSmtpInbox } from '../support/smtp-inbox';
import type { SmtpInbox } from '../support/smtp-inbox';

// JSON sign-up (issue 25): no account before the address is proven, so an address that has one
// leads into it, and the first answer is the same whether the address is known or not.

jest.setTimeout(60_000);

const START = Date.parse('2026-03-10T12:00:00.000Z');

let upstream: EchoUpstream;
let inbox: SmtpInbox;
let gw: GatewayFixture;
beforeAll(async () => {
  [upstream, inbox] = await Promise.all([startEchoUpstream(), startSmtpInbox()]);
});
beforeEach(async () => {
  gw = await buildGateway({ upstream: upstream.url, start: START, env: { SMTP_URL: inbox.url } });
});
afterEach(() => gw.close());
afterAll(async () => {
  await Promise.all([upstream.close(), inbox.close()]);
});

async function signUp(email: string): Promise<request.Response> {
  const before = inbox.count(email);
  const asked = await request(gw.app).post('/dashboard/v1/signup').send({ email });
  expect(validateResponse(DASHBOARD_ROUTES.signup, asked.status, asked.body)).toEqual([]);
  const { code } = signInCode(await inbox.next(email, before));
  const verified = await request(gw.app).post('/dashboard/v1/signup/verify').send({ email, code });
  expect(validateResponse(DASHBOARD_ROUTES.verifySignup, verified.status, verified.body)).toEqual([]);
  return verified;
}

describe('JSON sign-up', () => {
  it('when a new address signs up, then a code is mailed, and the code gives a proven account with a key that works at once', async () => {
    const verified = await signUp('New@Example.com');
    expect(verified.status).toBe(201);
    const { account, key } = verified.body.data;
    expect(account).toMatchObject({ email: 'new@example.com', email_verified: true, subscriptions: {} });
    const me = await request(gw.app).get('/dashboard/v1/account').set('x-tollgate-key', key.key);
    expect([me.status, me.body.data.account.id]).toEqual([200, account.id]);
    // Proven: a free plan is open to it without verify-email.
    expect((await request(gw.app).put('/dashboard/v1/subscriptions/burger').set('x-tollgate-key', key.key).send({ plan: 'free' })).status).toBe(200);
  });

  it('when an address that has an account signs up, then the answer is the same as for a new one, and its code leads into that account: no second, dead account', async () => {
    const owner = await gw.stores.accountStore.createAccount({ email: 'known@example.com', name: 'Known' });
    const known = await request(gw.app).post('/dashboard/v1/signup').send({ email: 'known@example.com' });
    const unknown = await request(gw.app).post('/dashboard/v1/signup').send({ email: 'unknown@example.com' });
    const shape = (res: request.Response) => ({ status: res.status, success: res.body.success, message: res.body.message, fields: Object.keys(res.body.data).sort() });
    expect(shape(known)).toEqual(shape(unknown));
    expect(known.status).toBe(202);
    const accounts = await gw.stores.accountStore.countAccounts();
    const { code } = signInCode(await inbox.next('known@example.com'));
    const verified = await request(gw.app).post('/dashboard/v1/signup/verify').send({ email: 'known@example.com', code });
    expect([verified.status, verified.body.data.account.id]).toEqual([201, owner.id]);
    expect(await gw.stores.accountStore.countAccounts()).toBe(accounts);
    const keys = await gw.stores.accountStore.listKeys(owner.id, { limit: 10 });
    expect(keys?.items.map((k) => k.id)).toEqual([verified.body.data.key.id]);
    // The key opens the owner's account; there is nothing left to prove.
    const proof = await request(gw.app).post('/dashboard/v1/account/verify-email').set('x-tollgate-key', verified.body.data.key.key).send({});
    expect([proof.status, proof.body.error.details.reason]).toEqual([409, 'already_verified']);
  });

  it('when the code is wrong, then 401 and nothing is made', async () => {
    await request(gw.app).post('/dashboard/v1/signup').send({ email: 'typo@example.com' }).expect(202);
    const { code } = signInCode(await inbox.next('typo@example.com'));
    const typo = `${code.slice(0, 5)}${(Number(code[5]) + 1) % 10}`;
    const wrong = await request(gw.app).post('/dashboard/v1/signup/verify').send({ email: 'typo@example.com', code: typo });
    expect(wrong.status).toBe(401);
    expect(await gw.stores.accountStore.findAccountByEmail('typo@example.com')).toBeUndefined();
  });
});
