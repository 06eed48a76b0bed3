import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { signInCode } from '../support/smtp-inbox';
import { createKey, seriousViolations, shows, signIn, usePortal } from './support/portal-fixture';

jest.setTimeout(180_000);

const portal = usePortal();

/** The status of a call to an API with a secret, made outside the browser. */
async function apiStatus(secret: string): Promise<number> {
  const res = await fetch(`${portal.url}/token/v1/meta`, { headers: { 'x-tollgate-key': secret } });
  await res.arrayBuffer();
  return res.status;
}

/** Whether the page's browser is still signed in, as the gateway says. */
const signedIn = async (page: Page): Promise<boolean> => (await page.request.get(`${portal.url}/dashboard/v1/session`)).status() === 200;

describe('account settings in Chromium', () => {
  test('when an account is signed in from two browsers, then the Account page lists both with their devices, and signing the other out ends it there', async () => {
    const email = 'sessions@example.com';
    const laptop = await portal.open('desktop');
    const phone = await portal.open('phone');
    await signIn(laptop.page, portal.mail, email);
    await signIn(phone.page, portal.mail, email);

    await laptop.page.getByRole('link', { name: email }).click();
    await laptop.page.waitForURL('**/portal/account');
    const rows = laptop.page.locator('table.sessions tbody tr');
    await shows(rows.first(), 'this browser');
    expect(await rows.count()).toBe(2);
    await shows(rows.nth(1), /Chrome on Linux/);
    expect(await seriousViolations(laptop.page)).toEqual([]);

    // The list is fetched again after the sign-out, slowly here: the status must not be said before
    // the table shows it (a screen reader would hear "signed out" beside a row that is still there).
    await laptop.page.route('**/dashboard/v1/account/sessions', async (route) => {
      if (route.request().method() === 'GET') await new Promise((resolve) => setTimeout(resolve, 500));
      await route.continue();
    });
    await rows.nth(1).getByRole('button', { name: /^Sign out Chrome on Linux/ }).click();
    await shows(laptop.page.getByRole('status'), 'is signed out');
    expect(await rows.count()).toBe(1);
    await shows(rows.first(), 'this browser');
    expect(await signedIn(phone.page)).toBe(false);
    await phone.page.goto('/portal/keys');
    await phone.page.getByText('Sign in with your email address to create and manage your API keys.').waitFor();
    expect(await signedIn(laptop.page)).toBe(true);

    await phone.page.goto('/portal/account');
    expect(await seriousViolations(phone.page)).toEqual([]);
    expect([...laptop.problems, ...phone.problems]).toEqual([]);
  });

  test('when the address is changed, then the code goes to the new address, the old one is told, the other browser is signed out, and the header shows the new address', async () => {
    const email = 'before@example.com';
    const next = 'after@example.com';
    const here = await portal.open('desktop');
    const other = await portal.open('desktop');
    await signIn(here.page, portal.mail, email);
    await signIn(other.page, portal.mail, email);
    const toldBefore = portal.mail.count(email);

    await here.page.goto('/portal/account');
    await here.page.getByLabel('New email address').fill(next);
    await here.page.getByRole('button', { name: 'Send a code to the new address' }).click();
    const mail = await portal.mail.next(next);
    expect(mail.subject).toBe('Confirm your new Tollgate email address');
    await here.page.getByLabel('Code from the mail').fill(signInCode(mail).code);
    await here.page.getByRole('button', { name: 'Change address' }).click();
    await shows(here.page.getByRole('status'), `Your address is now ${next}. 1 other session was signed out.`);
    await shows(here.page.locator('#who'), next);
    await shows(here.page.locator('.current-email'), next);

    const told = await portal.mail.next(email, toldBefore);
    expect(told.subject).toBe('Your Tollgate email address was changed');
    expect(told.text).toContain(next);
    expect(await signedIn(other.page)).toBe(false);
    expect(await signedIn(here.page)).toBe(true);
    expect([...here.problems, ...other.problems]).toEqual([]);
  });

  test('when an account is exported and deleted, then the export holds its keys and subscriptions, its key answers 401, and signing in again with the address makes a fresh account', async () => {
    const email = 'leaving@example.com';
    const { page, problems } = await portal.open('desktop');
    await signIn(page, portal.mail, email);
    const secret = await createKey(page, 'server');
    await page.getByRole('link', { name: 'Subscriptions' }).click();
    await page.getByRole('button', { name: 'Subscribe to free for token' }).click();
    await shows(page.locator('section[data-api="token"] .current'), 'Current plan: free');
    expect(await apiStatus(secret)).toBe(200);

    await page.goto('/portal/account');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download your data (JSON)' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^tollgate-account-acc_[0-9a-z]+\.json$/);
    const exported = JSON.parse(await readFile((await download.path())!, 'utf8'));
    expect(exported.account.email).toBe(email);
    expect(exported.keys.map((k: { name: string }) => k.name)).toEqual(['server']);
    expect(JSON.stringify(exported)).not.toContain(secret);
    expect(exported.subscriptions).toEqual({ token: { plan: 'free', status: 'active' } });
    expect(exported.audit.map((e: { action: string }) => e.action)).toEqual(expect.arrayContaining(['key.create', 'subscription.set']));

    const before = portal.mail.count(email);
    await page.getByRole('button', { name: 'Delete account…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Mail me a code' }).click();
    const mail = await portal.mail.next(email, before);
    expect(mail.subject).toBe('Confirm deleting your Tollgate account');
    await page.getByLabel('Code from the mail').fill(signInCode(mail).code);
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByRole('heading', { name: 'Account deleted' }).waitFor();
    await shows(page.locator('#who'), 'Sign in');
    expect(await apiStatus(secret)).toBe(401);
    expect(await signedIn(page)).toBe(false);

    await signIn(page, portal.mail, email);
    await page.getByText('No keys yet: create one above.').waitFor();
    await page.getByRole('link', { name: 'Subscriptions' }).click();
    await page.getByRole('button', { name: 'Subscribe to free for token' }).waitFor();
    expect(problems).toEqual([]);
  });
});
