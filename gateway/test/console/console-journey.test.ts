import type { Page } from 'playwright-core';
import { openSqliteStores } from '../../src/data/sqlite/sqlite-stores';
import { eventually } from '../support/eventually';
import { shows, useBrowserGateway } from '../support/browser-gateway';
import { seedAccounts } from './support/seed-accounts';
import type { SeededAccount } from './support/seed-accounts';

// The console in Chromium against the real gateway process, on a store of 10,000 accounts.
jest.setTimeout(240_000);

const ACCOUNTS = 10_000;
let target: SeededAccount;
const app = useBrowserGateway({
  prepare: async (file) => {
    const opened = openSqliteStores({ path: file, clock: Date.now });
    try {
      target = await seedAccounts(opened.stores.accountStore, ACCOUNTS, 7_321);
    } finally {
      opened.close();
    }
  },
});

/** A call to the burger API with the target's key, as its customer makes it. */
async function call(): Promise<number> {
  const res = await fetch(`${app.url}/burger/v1/index`, { headers: { 'x-tollgate-key': target.secret } });
  await res.arrayBuffer();
  return res.status;
}

/** Confirms the open dialog with its confirming button. */
async function confirm(page: Page, button: string): Promise<void> {
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('the console in the browser', () => {
  it('when an operator signs in with the token, finds an account by its key prefix among 10,000, grants a plan and suspends it, then the next calls get 200 and 403, and the audit log has both', async () => {
    const { page, problems } = await app.open('desktop');
    // Signed out: the sign-in page, and nothing of the accounts.
    await page.goto('/admin/');
    await page.waitForURL('**/admin/sign-in?next=%2Fadmin%2F');
    await page.getByRole('heading', { name: 'With the admin token' }).waitFor();
    expect(await page.content()).not.toContain(target.email);
    expect(await page.evaluate(async () => (await fetch('/admin/console/v1/overview')).status)).toBe(401);

    await page.getByLabel('Admin token', { exact: true }).fill('not-the-admin-token');
    await page.getByRole('button', { name: 'Sign in with the token' }).click();
    await shows(page.getByRole('alert'), 'wrong admin token');
    await page.getByLabel('Admin token', { exact: true }).fill(app.adminToken());
    await page.getByRole('button', { name: 'Sign in with the token' }).click();
    await page.waitForURL('**/admin/');
    await shows(page.locator('#accounts'), '10,000');
    await shows(page.locator('#revenue'), 'No paid plans on this server.');

    // No plan on burger (no playground there): 402.
    expect(await call()).toBe(402);

    await page.getByRole('link', { name: 'Accounts', exact: true }).click();
    await page.waitForURL('**/admin/accounts');
    await page.getByLabel('Find an account').fill(`${target.prefix}…${target.last4}`);
    await page.getByRole('button', { name: 'Find' }).click();
    await shows(page.locator('#results'), '1 found');
    await page.locator('#search-results').getByRole('link', { name: target.email }).click();
    await page.waitForURL(`**/admin/accounts/${target.accountId}`);
    await page.getByRole('heading', { name: target.email, level: 1 }).waitFor();

    await page.getByLabel('API', { exact: true }).selectOption('burger');
    await page.getByLabel('Plan', { exact: true }).selectOption('starter');
    await page.getByRole('button', { name: 'Grant plan…' }).click();
    await confirm(page, 'Grant plan');
    await shows(page.getByRole('status'), `${target.email} has the starter plan of Burger (comp).`);
    await shows(page.locator('#subscriptions tr[data-api="burger"]'), 'starter (comp)');
    expect(await call()).toBe(200);

    await page.getByRole('button', { name: 'Suspend…' }).click();
    await confirm(page, 'Suspend account');
    await shows(page.locator('#status'), 'suspended');
    expect(await call()).toBe(403);

    // The audit log, on the account's page and on its own, and as JSON lines.
    const audit = page.locator('#account-audit');
    await shows(audit.locator('tr[data-action="account.suspend"]'), 'operator admin token (console)');
    await shows(audit.locator('tr[data-action="subscription.set"]'), 'none → starter (comp)');
    await page.getByRole('link', { name: 'Audit log', exact: true }).click();
    await page.waitForURL('**/admin/audit');
    await shows(page.locator('#audit tr[data-action="account.suspend"]'), target.accountId);
    const href = await page.locator('#export').getAttribute('href');
    const exported = await page.request.get(href!);
    expect(exported.headers()['content-type']).toMatch(/^application\/x-ndjson/);
    const lines = (await exported.text()).trim().split('\n').map((line) => JSON.parse(line) as { action: string; account_id: string; actor: { via: string } });
    expect(lines.filter((e) => e.account_id === target.accountId).map((e) => [e.action, e.actor.via])).toEqual([
      ['subscription.set', 'console'],
      ['account.suspend', 'console'],
    ]);

    // The calls made are on the overview within a few seconds (the gateway writes its counts once a second).
    await page.getByRole('link', { name: 'Overview' }).click();
    await eventually(async () => {
      await page.reload();
      const row = page.locator('#calls-today tr[data-api="burger"]');
      await row.waitFor();
      // Served, 429, client errors (the 402 and the 403), server errors, refunded, total.
      return (await row.locator('td').allTextContents()).slice(0, 6).join(' ') === '1 0 2 0 0 3';
    }, 'the served call and the two refusals on the overview');
    await shows(page.locator('#top-accounts'), target.email);
    expect(problems).toEqual([]);
  });
});
