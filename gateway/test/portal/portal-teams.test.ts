import type { Page } from 'playwright-core';
import { createKey, screenshot, seriousViolations, shows, signIn } from './support/portal-fixture';
import { scrollsSideways } from '../support/browser-gateway';
import { signInCode } from '../support/smtp-inbox';
import { startBillingPortal } from './support/billing-portal';
import type { BillingPortal } from './support/billing-portal';

jest.setTimeout(180_000);

const OWNER = 'owner@acme.test';
const DEV = 'dev@acme.test';
const PAYER = 'pay@acme.test';
let billing: BillingPortal;

beforeAll(async () => {
  billing = await startBillingPortal();
});
afterAll(() => billing?.close());

/** A call straight to the API with the key: its status and monthly limit header. */
async function call(secret: string): Promise<{ status: number; limit: string | null }> {
  const res = await fetch(`${billing.portal.url}/token/v1/meta`, { headers: { 'x-tollgate-key': secret } });
  await res.arrayBuffer();
  return { status: res.status, limit: res.headers.get('x-ratelimit-requests-limit') };
}

/** Invites an address with a role on the Team page; returns the link of the mail it gets. */
async function invite(page: Page, email: string, role: string): Promise<{ link: string; subject: string }> {
  const { mail } = billing.portal;
  const before = mail.count(email);
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Role', { exact: true }).selectOption(role);
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await shows(page.getByRole('status'), `Invitation sent to ${email} as ${role}.`);
  const sent = await mail.next(email, before);
  const link = /^(http\S+\/portal\/invitation#code=[A-Za-z0-9_-]{43})$/m.exec(sent.text)?.[1];
  if (!link) throw new Error(`no invitation link in the mail: ${sent.text}`);
  return { link, subject: sent.subject };
}

/** From the invitation link, signed out: sign in as the address on the page that asks, then accept. */
async function accept(page: Page, link: string, email: string, role: string): Promise<void> {
  const { mail } = billing.portal;
  await page.goto(link);
  // The code leaves the address bar at once.
  await page.waitForURL((url) => url.pathname === '/portal/invitation' && url.hash === '');
  await page.getByRole('link', { name: 'Sign in to accept' }).click();
  const before = mail.count(email);
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await page.getByLabel('Code from the mail').fill(signInCode(await mail.next(email, before)).code);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL('**/portal/invitation');
  await page.getByRole('button', { name: 'Accept the invitation' }).click();
  await shows(page.getByRole('status'), `You joined ${OWNER} as ${role}.`);
  // The header names the team now open, switchable (the person has their own team too).
  expect(await page.locator('#team-switch option:checked').textContent()).toBe(`${OWNER} (${role})`);
}

/** The person's id and current team, as the gateway has them. */
const whoAmI = (page: Page): Promise<{ person: { id: string }; teams: { id: string; current: boolean }[] }> =>
  page.evaluate(async () => ((await (await fetch('/dashboard/v1/teams')).json()) as { data: { person: { id: string }; teams: { id: string; current: boolean }[] } }).data);

describe('teams in the portal, end to end in Chromium', () => {
  test('when an owner invites a developer and a billing member, then each gets what the role allows, a removed developer is signed out and their key keeps working, and the audit log names each person', async () => {
    const { portal } = billing;
    const owner = await portal.open('desktop');
    await signIn(owner.page, portal.mail, OWNER);
    const ownerIds = await whoAmI(owner.page);
    const team = ownerIds.teams.find((t) => t.current)?.id;
    await owner.page.getByRole('link', { name: 'Team', exact: true }).click();
    await shows(owner.page.locator('#your-role'), 'Your role: owner');
    const devInvite = await invite(owner.page, DEV, 'developer');
    expect(devInvite.subject).toBe(`${OWNER} invited you to the team ${OWNER} on Tollgate`);
    const payInvite = await invite(owner.page, PAYER, 'billing');
    await shows(owner.page.locator('#invitations-title'), 'Pending invitations (2)');
    await screenshot(owner.page, 'team-desktop');
    expect(await seriousViolations(owner.page)).toEqual([]);

    // The developer: a key and a call; no Billing, no inviting, and Billing reached anyway says why.
    const dev = await portal.open('desktop');
    await accept(dev.page, devInvite.link, DEV, 'developer');
    await dev.page.getByRole('link', { name: 'Go to the team’s keys' }).click();
    const secret = await createKey(dev.page, 'dev laptop');
    expect((await call(secret)).status).toBe(200);
    await shows(dev.page.locator('tr:has-text("dev laptop") td.creator'), DEV);
    expect(await dev.page.getByRole('link', { name: 'Billing', exact: true }).count()).toBe(0);
    await dev.page.getByRole('link', { name: 'Team', exact: true }).click();
    await shows(dev.page.locator('#role-note'), 'Your role in this team (developer) cannot invite or remove members');
    // The members table (drawn with its heading) comes after the note: counting its buttons before it is there proves nothing.
    await shows(dev.page.locator('#members-title'), 'Members');
    expect(await dev.page.getByRole('button', { name: 'Send invitation' }).count()).toBe(0);
    expect(await dev.page.getByRole('button', { name: /^Remove / }).count()).toBe(0);
    expect(await dev.page.locator('#audit-title').count()).toBe(0);
    await dev.page.goto('/portal/billing');
    await shows(dev.page.getByRole('alert'), 'Your role in this team (developer) cannot do this; it takes the role owner or billing');
    await dev.page.getByRole('link', { name: 'Subscriptions' }).click();
    await shows(dev.page.locator('#role-note'), 'Your role in this team (developer) cannot change plans');
    expect(await dev.page.getByRole('button', { name: /^Subscribe to / }).count()).toBe(0);

    // Billing: pays for token pro with the Stripe stand-in; makes no keys. The team's key gets the plan.
    const payer = await portal.open('desktop');
    await accept(payer.page, payInvite.link, PAYER, 'billing');
    await payer.page.getByRole('link', { name: 'Go to the team’s keys' }).click();
    await shows(payer.page.locator('#role-note'), 'Your role in this team (billing) cannot create or change keys');
    expect(await payer.page.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    await shows(payer.page.locator('tr:has-text("dev laptop") td.creator'), DEV);
    expect(await payer.page.getByRole('button', { name: /^Revoke / }).count()).toBe(0);
    await payer.page.getByRole('link', { name: 'Subscriptions' }).click();
    await payer.page.getByRole('button', { name: 'Subscribe to pro for token' }).click();
    await payer.page.getByRole('dialog').getByRole('button', { name: 'Continue to payment' }).click();
    await payer.page.waitForURL(/\/checkout\/cs_test_/);
    await payer.page.locator('#cardNumber').fill('4242 4242 4242 4242');
    await payer.page.locator('#cardExpiry').fill('12 / 34');
    await payer.page.locator('#cardCvc').fill('123');
    await payer.page.locator('#submit').click();
    await payer.page.waitForURL(/\/portal\/billing/);
    await shows(payer.page.getByRole('status'), 'Payment received: your token pro plan is active');
    await billing.local.settle();
    expect(await call(secret)).toEqual({ status: 200, limit: '650000' });

    // The owner removes the developer: their session ends at its next request; their key stays the team's.
    const devId = (await whoAmI(dev.page)).person.id;
    await owner.page.reload();
    await owner.page.getByRole('button', { name: `Remove ${DEV}` }).click();
    await owner.page.getByRole('dialog').getByRole('button', { name: 'Remove member' }).click();
    await shows(owner.page.getByRole('status'), `${DEV} is no longer a member of the team.`);
    await shows(owner.page.locator('#members-title'), 'Members (2)');
    await dev.page.getByRole('link', { name: 'Keys' }).click();
    await shows(dev.page.getByRole('alert'), 'Your session has ended. Sign in again to continue.');
    await shows(dev.page.locator('#who'), 'Sign in');
    expect(await call(secret)).toEqual({ status: 200, limit: '650000' });

    // A role changed: billing becomes admin.
    await owner.page.getByLabel(`Role of ${PAYER}`, { exact: true }).selectOption('admin');
    await owner.page.getByRole('button', { name: `Change role of ${PAYER}` }).click();
    await shows(owner.page.getByRole('status'), `${PAYER} is admin now.`);
    await shows(owner.page.locator(`tr:has-text("${PAYER}") td.member-role`), 'admin');

    // The owner's Team page shows the log too, each change by the address of who made it.
    const row = (who: string, what: string) => owner.page.locator('#team-audit tr', { has: owner.page.locator('th', { hasText: who }) }).filter({ hasText: what });
    for (const [who, what] of [
      [OWNER, `invited ${DEV}`],
      [OWNER, `invited ${PAYER}`],
      [DEV, 'joined the team'],
      [DEV, 'created a key'],
      [PAYER, 'started paying for token (pro)'],
      [OWNER, `removed ${DEV}`],
      [OWNER, `changed the role of ${PAYER}`],
    ] as const) await row(who, what).first().waitFor();
    expect(await seriousViolations(owner.page)).toEqual([]);

    // The audit log: each step with the person who took it.
    const res = await fetch(`${portal.url}/admin/v1/audit?account_id=${team ?? 'none'}&limit=100`, { headers: { authorization: `Bearer ${portal.adminToken()}` } });
    const entries = ((await res.json()) as { data: { items: { action: string; actor: { id: string }; target: string | null; details: Record<string, unknown> }[] } }).data.items;
    const payerId = (await whoAmI(payer.page)).person.id;
    expect(entries.map((e) => [e.action, e.actor.id]).reverse()).toEqual(expect.arrayContaining([
      ['team.invite', ownerIds.person.id],
      ['team.invite_accept', devId],
      ['key.create', devId],
      ['billing.checkout', payerId],
      ['team.invite_accept', payerId],
      ['team.member_remove', ownerIds.person.id],
      ['team.role_change', ownerIds.person.id],
    ]));
    expect(entries.filter((e) => e.action === 'team.invite').map((e) => e.details.email).sort()).toEqual([DEV, PAYER]);
    expect(entries.find((e) => e.action === 'team.member_remove')?.target).toBe(devId);
    // The plan itself is set when Stripe confirms the payment: billing's own entry (docs/teams.md#audit).
    expect(entries.find((e) => e.action === 'subscription.set')).toMatchObject({ actor: { type: 'system', id: 'billing' }, target: 'token' });
    for (const p of [owner, dev, payer]) expect(p.problems).toEqual([]);
  });

  test('when a person in two teams opens the portal at 390 px, then the header switches teams and the Team page invites and revokes without sideways scrolling, another address’s invitation is refused, the choice opens the next sign-in, and the last owner cannot leave', async () => {
    const { portal } = billing;
    const { page, problems } = await portal.open('phone');
    await signIn(page, portal.mail, PAYER);
    // The last team used (the one joined by invitation) opens.
    expect(await page.locator('#team-switch option:checked').textContent()).toBe(`${OWNER} (admin)`);
    await page.getByRole('link', { name: 'Team', exact: true }).click();
    await shows(page.locator('#members-title'), 'Members (2)');
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'team-phone');
    // Account as an admin: their own sessions; the team's address, export and deletion are an owner's.
    await page.getByRole('link', { name: PAYER }).click();
    await shows(page.locator('#role-note'), 'Your role in this team (admin) cannot change the team’s address, export its data or delete it');
    await page.getByRole('heading', { name: 'Signed-in sessions' }).waitFor();
    expect(await page.getByRole('button', { name: 'Delete account…' }).count()).toBe(0);
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Team', exact: true }).click();

    await page.getByLabel('Team', { exact: true }).selectOption({ label: `${PAYER} (owner)` });
    await page.getByRole('button', { name: 'Switch team' }).click();
    await shows(page.locator('#members-title'), 'Members (1)');
    await shows(page.locator('#your-role'), 'Your role: owner');
    expect(await page.getByRole('link', { name: 'Billing', exact: true }).isVisible()).toBe(true);
    const guest = await invite(page, 'guest@acme.test', 'developer');
    await shows(page.locator('#invitations-title'), 'Pending invitations (1)');
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    // The guest's link opened while signed in as another address: refused in the server's words, naming no address.
    await page.goto(guest.link);
    await page.getByRole('button', { name: 'Accept the invitation' }).click();
    await shows(page.getByRole('alert'), 'This invitation is for another address: sign in as the address it was sent to, then open the link again.');
    expect(await page.locator('main').innerText()).not.toContain('guest@acme.test');
    expect(await scrollsSideways(page)).toBe(false);
    await page.getByRole('link', { name: 'Team', exact: true }).click();
    await page.getByRole('button', { name: 'Revoke the invitation of guest@acme.test' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke invitation' }).click();
    await shows(page.getByRole('status'), 'The invitation of guest@acme.test is revoked.');
    await shows(page.locator('#invitations-title'), 'Pending invitations (0)');

    await page.getByRole('button', { name: 'Leave team…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Leave team' }).click();
    await shows(page.getByRole('alert'), 'The team would have no owner left: make another member owner first.');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, portal.mail, PAYER);
    expect(await page.locator('#team-switch option:checked').textContent()).toBe(`${PAYER} (owner)`);
    expect(problems).toEqual([]);
  });
});
