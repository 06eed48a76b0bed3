import request from 'supertest';
import type { GatewayFixture } from '../support/gateway-fixture';
import { signInCode } from '../support/smtp-inbox';
import { STORE_KINDS, from, lastCode, useAttackWorld } from './attack-target';

// Issue 35, item 5: a stranger locked an operator out of the console's mail sign-in (20 wrong guesses
// from two networks spent the day; codes asked from three networks made the operator's own request a
// 429), and the operator's mail had no link to get past either; a wrong code told operators'
// addresses apart (code_wrong) from others (code_expired).

jest.setTimeout(120_000);

const OPERATOR_NETWORK = '10.0.0.1';

const world = useAttackWorld();

describe.each(STORE_KINDS)('the console’s mail sign-in under attack with the %s store', (kind) => {
  let gw: GatewayFixture;
  let n = 0;
  // An address of its own per test: a mail sent after its answer may still arrive during the next test.
  let OPERATOR: string;
  beforeEach(async () => {
    OPERATOR = `ops${++n}-${kind}@example.com`;
    gw = await world.gateway(kind, { OPERATOR_EMAILS: `${OPERATOR}, second@example.com`, PUBLIC_URL: 'https://gateway.example.com' });
  });

  const ask = (email: string, network: string) => request(gw.app).post('/admin/console/v1/sign-in/code').set(from(network)).send({ email });
  const type = (email: string, code: string, network: string) => request(gw.app).post('/admin/console/v1/sign-in/code/verify').set(from(network)).send({ email, code });
  const follow = (email: string, token: string | undefined, network: string) => request(gw.app).post('/admin/console/v1/sign-in/link').set(from(network)).send({ email, token });
  const wrong = (code: string) => (code === '000000' ? '000001' : '000000');
  const mails = () => world.inbox.count(OPERATOR);

  it('when strangers on two networks spend the operator’s 20 typed checks of the day, then the typed code waits for the next UTC day, and the link in the operator’s mail signs in from anywhere, once', async () => {
    const before = mails();
    expect((await ask(OPERATOR, OPERATOR_NETWORK)).status).toBe(202);
    await world.inbox.next(OPERATOR, before);
    const owners = lastCode(world.inbox, OPERATOR);
    expect(owners.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    let compared = 0;
    for (const network of ['203.0.113.1', '203.0.113.2']) {
      for (let round = 0; round < 2; round++) {
        expect((await ask(OPERATOR, network)).status).toBe(202);
        for (let i = 0; i < 5; i++) if ((await type(OPERATOR, wrong(owners.code), network)).status === 401) compared++;
      }
    }
    expect(compared).toBe(20);
    const typed = await type(OPERATOR, owners.code, OPERATOR_NETWORK);
    expect([typed.status, typed.body.error.details.reason]).toEqual([429, 'checks_per_day']);
    expect(typed.body.message).toMatch(/open the link in the newest mail/);
    const linked = await follow(OPERATOR, owners.token, '192.0.2.200');
    expect([linked.status, linked.body.data?.operator]).toEqual([200, { by: 'email', name: OPERATOR }]);
    const cookie = String(linked.headers['set-cookie']).split(';')[0]!;
    expect((await request(gw.app).get('/admin/console/v1/overview').set('cookie', cookie)).status).toBe(200);
    expect((await follow(OPERATOR, owners.token, OPERATOR_NETWORK)).status).toBe(401);
  });

  it('when strangers on three networks hold the three live codes, then the operator’s own request is 429 codes_pending, and the link in any of the mails they caused signs the operator in', async () => {
    const before = mails();
    for (const network of ['203.0.113.1', '203.0.113.2', '2001:db8:1:2::7']) expect((await ask(OPERATOR, network)).status).toBe(202);
    const refused = await ask(OPERATOR, OPERATOR_NETWORK);
    expect([refused.status, refused.body.error.details.reason]).toEqual([429, 'codes_pending']);
    expect(refused.body.message).toMatch(/or the link in its mail/);
    await world.inbox.next(OPERATOR, before + 2);
    const links = world.inbox.to(OPERATOR).slice(before).map((mail) => /^https:\/\/gateway\.example\.com\/admin\/sign-in\?(\S+)$/m.exec(mail.text)?.[1]);
    expect(links).toEqual([expect.any(String), expect.any(String), expect.any(String)]);
    const token = new URLSearchParams(links[1]).get('token') ?? undefined;
    expect(new URLSearchParams(links[1]).get('email')).toBe(OPERATOR);
    const linked = await follow(OPERATOR, token, OPERATOR_NETWORK);
    expect([linked.status, linked.body.data?.operator.name]).toEqual([200, OPERATOR]);
  });

  it('when a stranger types wrong codes for an operator’s address and for another one, then every answer is the same, whether codes were asked for or not', async () => {
    const guessAt = async (email: string, network: string, guesses: string[]) => {
      const seen = [];
      for (const guess of guesses) {
        const res = await type(email, guess, network);
        seen.push([res.status, res.body.error.details, res.body.message]);
      }
      return seen;
    };
    const before = world.inbox.count('second@example.com');
    const unasked = [await guessAt('second@example.com', '203.0.113.5', ['123456']), await guessAt('nobody@example.com', '203.0.113.6', ['123456'])];
    expect(unasked[1]).toEqual(unasked[0]);
    await ask('second@example.com', '203.0.113.5').expect(202);
    await ask('nobody@example.com', '203.0.113.6').expect(202);
    const mailed = signInCode(await world.inbox.next('second@example.com', before)).code;
    // Six guesses, none of them the operator's code: five tries, then the code is void.
    const guesses = ['100000', '100001', '100002', '100003', '100004', '100005', '100006'].filter((guess) => guess !== mailed).slice(0, 6);
    const operator = await guessAt('second@example.com', '203.0.113.5', guesses);
    const stranger = await guessAt('nobody@example.com', '203.0.113.6', guesses);
    expect(stranger).toEqual(operator);
    expect(operator.map(([status]) => status)).toEqual([401, 401, 401, 401, 401, 401]);
    expect([world.inbox.count('nobody@example.com'), world.inbox.count('second@example.com')]).toEqual([0, before + 1]);
  });

  it('when a link is followed for an address that is not an operator’s, or with a token of another address, then it is the same 401 and no session', async () => {
    const before = mails();
    expect((await ask(OPERATOR, OPERATOR_NETWORK)).status).toBe(202);
    await world.inbox.next(OPERATOR, before);
    const { token } = lastCode(world.inbox, OPERATOR);
    const other = await follow('nobody@example.com', token, OPERATOR_NETWORK);
    const forged = await follow(OPERATOR, 'A'.repeat(43), OPERATOR_NETWORK);
    expect([other.status, other.headers['set-cookie'], forged.status]).toEqual([401, undefined, 401]);
    expect(other.body.error.details).toEqual(forged.body.error.details);
    // The portal does not take a console link.
    expect((await request(gw.app).post('/dashboard/v1/sign-in/link').send({ email: OPERATOR, token })).status).toBe(401);
    expect((await follow(OPERATOR, token, '198.51.100.1')).status).toBe(200);
  });
});
