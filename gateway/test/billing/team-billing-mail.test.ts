import type { TeamRole } from '../../src/domain/team-roles';
import { adoptAccount } from '../../src/data/team-adoption';
import { eventually } from '../support/eventually';
import { MID_MARCH, useBillingGateway } from './support/billing-gateway';
import type { BillingGateway } from './support/billing-gateway';

jest.setTimeout(90_000);

const card = (number: string) => ({ cardNumber: number, cardExpiry: '12 / 34', cardCvc: '123' });
async function postForm(url: string, fields: Record<string, string>): Promise<number> {
  return (await fetch(url, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' })).status;
}

/** A team whose contact address is its owner's, with an admin, a billing member and a developer. */
async function team(gw: BillingGateway, name: string) {
  const account = await gw.account(`${name}-owner@teams.example`);
  const row = (await gw.stores.accountStore.getAccount(account.id))!;
  await adoptAccount(gw.stores.teamStore, row);
  const people: Partial<Record<TeamRole, string>> = { owner: row.email! };
  for (const role of ['admin', 'billing', 'developer'] as const) {
    const person = await gw.stores.teamStore.createPerson({ email: `${name}-${role}@teams.example` });
    await gw.stores.teamStore.addMember(account.id, person.id, role, { invitedBy: null });
    people[role] = person.email;
  }
  return { ...account, people: people as Record<TeamRole, string> };
}

describe('mail about a team’s money', () => {
  const gw = useBillingGateway({ start: MID_MARCH });
  const counts = (people: Record<TeamRole, string>) => Object.fromEntries(Object.entries(people).map(([role, email]) => [role, gw.mail.count(email)]));

  it('when a renewal fails and is then paid, then the payment mails go to every owner and billing member, and none to admins or developers', async () => {
    const t = await team(gw, 'pay');
    await gw.pay((await gw.json('POST', '/dashboard/v1/billing/checkout', t.session, { api: 'token', plan: 'pro' })).body.data.url);
    const portal = await gw.json('POST', '/dashboard/v1/billing/portal', t.session, {});
    expect(await postForm(`${portal.body.data.url}/payment-method`, card('4000 0000 0000 0341'))).toBe(303);
    await gw.advanceDays(await gw.clockOf(t.id, 'EUR'), 16.5);

    const payments = (email: string) => gw.mail.to(email).map((m) => m.subject).filter((subject) => subject.startsWith('Payment'));
    await eventually(async () => payments(t.people.owner).length === 1 && payments(t.people.billing).length === 1, 'the payment failed mails');
    const again = (await gw.json('POST', '/dashboard/v1/billing/portal', t.session, { currency: 'EUR' })).body.data.url as string;
    expect(await postForm(`${again}/payment-method`, card('4242 4242 4242 4242'))).toBe(303);
    await gw.local.settle();
    await eventually(async () => payments(t.people.owner).length === 2 && payments(t.people.billing).length === 2, 'the payment received mails');
    const failedThenPaid = ['Payment failed for your Tollgate token pro plan', 'Payment received: your Tollgate token pro plan is active'];
    expect([payments(t.people.owner), payments(t.people.billing)]).toEqual([failedThenPaid, failedThenPaid]);
    expect([gw.mail.count(t.people.admin), gw.mail.count(t.people.developer)]).toEqual([0, 0]);
  });

  it('when the team’s plan changes, then the plan mail goes to every owner and billing member, and none to admins or developers', async () => {
    const t = await team(gw, 'plan');
    expect((await gw.json('PUT', '/dashboard/v1/subscriptions/burger', t.session, { plan: 'free' })).status).toBe(200);
    await gw.events.worker.runOnce();
    await eventually(async () => gw.mail.count(t.people.owner) === 1 && gw.mail.count(t.people.billing) === 1, 'the plan mail to the owner and the billing member');
    expect(gw.mail.to(t.people.billing)[0]!.subject).toBe(gw.mail.to(t.people.owner)[0]!.subject);
    expect(gw.mail.to(t.people.owner)[0]!.subject).toMatch(/burger/);
    expect(counts(t.people)).toEqual({ owner: 1, admin: 0, billing: 1, developer: 0 });
  });

  it('when the team pays for a plan, then every billing member but the contact address (Stripe mails that one) gets one copy of the receipt, and admins and developers none', async () => {
    const t = await team(gw, 'receipt');
    await gw.pay((await gw.json('POST', '/dashboard/v1/billing/checkout', t.session, { api: 'token', plan: 'pro' })).body.data.url);
    const copy = await gw.mail.next(t.people.billing);
    expect(copy.subject).toBe('Receipt: 12.50 EUR paid for receipt-owner on Tollgate');
    expect(copy.text).toMatch(/^https?:\/\/\S+\/receipts\/\S+$/m);
    // Webhooks delivered again (Stripe retries, other events of the same payment) copy nothing more.
    await gw.billing.reconcile();
    await gw.local.settle();
    expect(counts(t.people)).toEqual({ owner: 0, admin: 0, billing: 1, developer: 0 });
  });
});

