import request from 'supertest';
import type { GatewayFixture } from '../support/gateway-fixture';
import { STORE_KINDS, from, lastCode, useAttackWorld } from './attack-target';

// Issue 20, item 1: a stranger could lock any address out of sign-in, and void its owner's code.

jest.setTimeout(120_000);

const OWNER = '10.0.0.1';
const STRANGER = '203.0.113.9';

const world = useAttackWorld();

describe.each(STORE_KINDS)('sign-in lockout with the %s store', (kind) => {
  let gw: GatewayFixture;
  let n = 0;
  let email: string;
  beforeEach(async () => {
    gw = await world.gateway(kind);
    email = `owner${++n}-${kind}@example.com`;
  });

  const ask = (address: string, network: string) => request(gw.app).post('/dashboard/v1/sign-in').set(from(network)).send({ email: address });
  const type = (address: string, code: string, network: string) => request(gw.app).post('/dashboard/v1/sign-in/verify').set(from(network)).send({ email: address, code });
  const follow = (address: string, token: string | undefined, network: string) => request(gw.app).post('/dashboard/v1/sign-in/link').set(from(network)).send({ email: address, token });
  const wrong = (code: string) => (code === '000000' ? '000001' : '000000');

  it('when one client tries 31 wrong codes at each of six addresses that asked for none (186 requests), then every owner still asks for a code and signs in with it', async () => {
    const victims = Array.from({ length: 6 }, (_, i) => `victim${i}-${email}`);
    for (const victim of victims) {
      for (let i = 0; i < 31; i++) {
        const res = await type(victim, String(i).padStart(6, '0'), STRANGER);
        expect([res.status, res.body.error.details.reason]).toEqual([401, 'code_expired']);
      }
    }
    for (const victim of victims) {
      expect((await ask(victim, OWNER)).status).toBe(202);
      const signedIn = await type(victim, lastCode(world.inbox, victim).code, OWNER);
      expect([signedIn.status, signedIn.body.data?.account.email]).toEqual([200, victim]);
    }
  });

  it('when a stranger asks for codes for the address from other networks while the owner’s is pending, then the owner’s code still signs in', async () => {
    expect((await ask(email, OWNER)).status).toBe(202);
    const owners = lastCode(world.inbox, email).code;
    const asked = [];
    for (const network of [STRANGER, STRANGER, STRANGER, '198.51.100.7', '192.0.2.44']) asked.push((await ask(email, network)).status);
    // Three an hour from one network; then the live codes are the owner's and two strangers'.
    expect(asked).toEqual([202, 202, 202, 202, 429]);
    expect((await type(email, owners, OWNER)).status).toBe(200);
  });

  it('when a stranger guesses from a network of their own, with or without a code of their own, then the owner’s pending code is neither voided nor locked', async () => {
    expect((await ask(email, OWNER)).status).toBe(202);
    const owners = lastCode(world.inbox, email).code;
    // With no code of their network waiting, guesses are answered and counted nowhere.
    for (let i = 0; i < 30; i++) expect((await type(email, wrong(owners), STRANGER)).body.error.details.reason).toBe('code_expired');
    // With codes of their own (mailed to the owner), ten guesses a day from their network, then 429.
    const answers = [];
    for (let round = 0; round < 3; round++) {
      await ask(email, STRANGER);
      for (let i = 0; i < 5; i++) answers.push((await type(email, wrong(owners), STRANGER)).status);
    }
    expect(answers).toEqual([...Array(10).fill(401), ...Array(5).fill(429)]);
    expect((await type(email, owners, OWNER)).status).toBe(200);
  });

  it('when strangers on many networks spend the address’s 20 checks of the day, then typed codes wait for the next UTC day, and the owner’s mailed link still signs in', async () => {
    expect((await ask(email, OWNER)).status).toBe(202);
    const owners = lastCode(world.inbox, email);
    let compared = 0;
    for (const network of ['203.0.113.1', '203.0.113.2', '2001:db8:1:2::7']) {
      for (let round = 0; round < 2; round++) {
        if ((await ask(email, network)).status !== 202) continue;
        for (let i = 0; i < 5; i++) if ((await type(email, wrong(owners.code), network)).status === 401) compared++;
      }
    }
    // Two networks spent them; the third found the three live places taken (the owner's among them).
    expect(compared).toBe(20);
    const typed = await type(email, owners.code, OWNER);
    expect([typed.status, typed.body.error.details.reason]).toEqual([429, 'checks_per_day']);
    expect(typed.body.message).toMatch(/open the link in the newest mail/);
    const linked = await follow(email, owners.token, '192.0.2.200');
    expect([linked.status, linked.body.data?.account.email]).toEqual([200, email]);
  });

  it('when the owner asks from one network and types the code from another, then it is refused there; the link works from anywhere, once', async () => {
    expect((await ask(email, OWNER)).status).toBe(202);
    const owners = lastCode(world.inbox, email);
    expect((await type(email, owners.code, '10.9.9.9')).body.error.details.reason).toBe('code_expired');
    expect((await follow(`other-${email}`, owners.token, OWNER)).status).toBe(401);
    expect((await follow(email, owners.token, '2001:db8:ffff::1')).status).toBe(200);
    expect((await follow(email, owners.token, OWNER)).status).toBe(401);
    // The link used the code: its digits do not work after it.
    expect((await type(email, owners.code, OWNER)).status).toBe(401);
  });
});
