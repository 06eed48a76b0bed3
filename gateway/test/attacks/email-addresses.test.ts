import fc from 'fast-check';
import request from 'supertest';
import { CliUsageError, runCliCommand } from '../../src/admin/cli-commands';
import { BILLING_OFF, storeClient } from '../../src/admin/operator-client';
import { parseEmail } from '../../src/domain/email';
import { ADMIN_TOKEN } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';
import { parseMail } from '../support/smtp-inbox';
import { STORE_KINDS, from, lastCode, useAttackWorld } from './attack-target';

// Issue 20, item 4: an address was read one way by the check and another by the mailer.

jest.setTimeout(120_000);

const world = useAttackWorld();
// What an account command never reaches: it would fail the test loudly.
const unused = (): never => {
  throw new Error('not used by account create');
};

/** Addresses that are not one plain address, each as it was tried. */
const NOT_PLAIN = [
  'ceo(x)@corp.example',
  '"ceo"@corp.example',
  'a;ceo@corp.example',
  'a,b@evil.example',
  'Ceo <ceo@corp.example>',
  'ceo@corp.example, b@evil.example',
  'c\u200beo@corp.example',
  'ceo\u200d@corp.example',
  'ceo@corp\u202e.example',
  '\u2066ceo@corp.example\u2069',
  'ce\u043e@corp.example',
  'ceo@c\u043erp.example',
  'ceo@xn--crp-sed.example',
];

describe.each(STORE_KINDS)('email addresses with the %s store', (kind) => {
  let gw: GatewayFixture;
  let network = 0;
  beforeEach(async () => {
    gw = await world.gateway(kind, { SIGNINS_PER_HOUR: '100000', SIGNUPS_PER_HOUR: '100000' });
  });
  // Each request from a network of its own: no per-network limit is reached.
  const next = () => from(`10.${(network >> 16) & 255}.${(network >> 8) & 255}.${network++ & 255}`);
  const admin = (method: 'get' | 'post', path: string) => request(gw.app)[method](`/admin/v1${path}`).set('authorization', `Bearer ${ADMIN_TOKEN}`);

  it.each(NOT_PLAIN)('when %j is given on every path, then it is refused with 400 and nothing is mailed or made', async (address) => {
    const mails = world.inbox.messages.length;
    const refusals = [
      await request(gw.app).post('/dashboard/v1/sign-in').set(next()).send({ email: address }),
      await request(gw.app).post('/dashboard/v1/sign-in/verify').set(next()).send({ email: address, code: '123456' }),
      await request(gw.app).post('/dashboard/v1/signup').set(next()).send({ email: address }),
      await admin('post', '/accounts').send({ email: address }),
      await admin('get', `/accounts?email=${encodeURIComponent(address)}`),
    ];
    expect(refusals.map((r) => [r.status, r.body.error?.details?.parameter])).toEqual(Array(5).fill([400, 'email']));
    expect(refusals[0]!.body.message).toMatch(/^email must be a plain address such as ada@example\.com: /);
    // The CLI's commands run the admin API's actions: a bad address is a usage error there.
    const client = storeClient({ stores: gw.stores, plans: gw.config.catalogue.apis, maxMembers: gw.config.teamMaxMembers, clock: gw.clock.now, source: { actor: { type: 'operator', id: 'cli:test', via: 'cli' }, from: null }, onAuditFailure: (_entry, err) => { throw err; }, billing: BILLING_OFF });
    const cli = { connect: async () => client, rotateAdminToken: unused, billingSync: unused, plans: gw.config.catalogue.apis, writeLine: unused };
    await expect(runCliCommand(['account', 'create', '--email', address], cli)).rejects.toThrow(CliUsageError);
    expect((await gw.stores.accountStore.listAccounts({ limit: 10 })).items).toEqual([]);
    expect(world.inbox.messages.length).toBe(mails);
  });

  it('when generated addresses sign in, then the address stored, answered and compared is exactly the one the mail was sent to, alone', async () => {
    const variant = fc.tuple(fc.emailAddress(), fc.constantFrom('as is', 'upper', 'unicode domain')).map(([address, how]) => {
      if (how === 'upper') return address.toUpperCase();
      return how === 'unicode domain' ? address.replace(/@[^.]+/, (label) => `${label}\u00e9`) : address;
    });
    await fc.assert(
      fc.asyncProperty(variant, async (address) => {
        const parsed = parseEmail(address);
        fc.pre(parsed.ok);
        const stored = parsed.ok ? parsed.email : '';
        const network = next();
        const asked = await request(gw.app).post('/dashboard/v1/sign-in').set(network).send({ email: address });
        expect([asked.status, asked.body.data?.email]).toEqual([202, stored]);
        const mail = world.inbox.messages.at(-1)!;
        expect(mail.rcptTo).toEqual([stored]);
        expect(parseMail(mail.raw).headers.to).toBe(stored);
        const signedIn = await request(gw.app).post('/dashboard/v1/sign-in/verify').set(network).send({ email: address, code: lastCode(world.inbox, stored).code });
        expect([signedIn.status, signedIn.body.data?.account.email]).toEqual([200, stored]);
        expect((await gw.stores.accountStore.findAccountByEmail(stored))?.id).toBe(signedIn.body.data.account.id);
      }),
      { numRuns: 25, seed: 20260320 },
    );
  });

  it('when an address is written with another case or a +tag, then the case is one account and the +tag another (tags are kept)', async () => {
    const ids = [];
    for (const address of ['Ada@Example.COM', 'ada@example.com', 'ada+ci@example.com']) {
      const network = next();
      await request(gw.app).post('/dashboard/v1/sign-in').set(network).send({ email: address }).expect(202);
      const stored = address.toLowerCase();
      const res = await request(gw.app).post('/dashboard/v1/sign-in/verify').set(network).send({ email: address, code: lastCode(world.inbox, stored).code });
      ids.push(res.body.data.account.id as string);
    }
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).not.toBe(ids[0]);
  });

  it('when an operator makes a key for an owner that is not a plain address, then its account has no email, and signing in with the address the owner names reaches another account', async () => {
    const made = await admin('post', '/keys').send({ owner: 'a,b@evil.example' });
    expect(made.status).toBe(201);
    expect((await admin('get', `/accounts/${made.body.data.account_id}`)).body.data).toMatchObject({ email: null, name: 'a,b@evil.example' });
    const network = next();
    await request(gw.app).post('/dashboard/v1/sign-in').set(network).send({ email: 'b@evil.example' }).expect(202);
    const res = await request(gw.app).post('/dashboard/v1/sign-in/verify').set(network).send({ email: 'b@evil.example', code: lastCode(world.inbox, 'b@evil.example').code });
    expect(res.body.data.account.id).not.toBe(made.body.data.account_id);
  });
});
