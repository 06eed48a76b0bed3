import type { Page } from 'playwright-core';
import { openSqliteStores } from '../../src/data/sqlite/sqlite-stores';
import { focused, shows, tabTo, useBrowserGateway } from '../support/browser-gateway';
import { signInCode } from '../support/smtp-inbox';
import { seedAccounts } from './support/seed-accounts';
import type { SeededAccount } from './support/seed-accounts';

// The console with the keyboard alone, signed in by an operator's address and the mailed code.
jest.setTimeout(180_000);

const OPERATOR = 'ops@example.com';
let target: SeededAccount;
const app = useBrowserGateway({
  env: { OPERATOR_EMAILS: OPERATOR },
  prepare: async (file) => {
    const opened = openSqliteStores({ path: file, clock: Date.now });
    try {
      target = await seedAccounts(opened.stores.accountStore, 25, 9);
    } finally {
      opened.close();
    }
  },
});

/** Presses Enter on the focused button, confirms the dialog it opens with Enter, and waits for it to close. */
async function confirmWithKeyboard(page: Page): Promise<void> {
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  // The native dialog moves focus to its first control: the confirming button.
  expect(await focused(page)).toMatchObject({ tag: 'button' });
  await page.keyboard.press('Enter');
  await dialog.waitFor({ state: 'detached' });
}

describe('the console with the keyboard alone', () => {
  it('when an operator signs in with the mailed code, finds an account, suspends and reactivates it with only the keyboard, then every step works and the audit log names them', async () => {
    const { page, problems } = await app.open('desktop');
    await page.goto('/admin/');
    await page.waitForURL('**/admin/sign-in?next=%2Fadmin%2F');
    await page.locator('#email').waitFor();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'a', text: 'Skip to content' });
    await tabTo(page, 'the email field', (f) => f.id === 'email');
    await page.keyboard.type(OPERATOR);
    await page.keyboard.press('Enter');
    const { code } = signInCode(await app.mail.next(OPERATOR));
    await page.locator('#code').waitFor();
    expect(await focused(page)).toMatchObject({ id: 'code' });
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/admin/');
    await shows(page.locator('#who'), OPERATOR);

    await tabTo(page, 'the Accounts link', (f) => f.tag === 'a' && f.text === 'Accounts');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/admin/accounts');
    await page.locator('#accounts').waitFor();
    await tabTo(page, 'the search field', (f) => f.id === 'q');
    await page.keyboard.type(`${target.prefix}…${target.last4}`);
    await page.keyboard.press('Enter');
    await page.locator('#search-results').waitFor();
    await tabTo(page, 'the account found', (f) => f.tag === 'a' && f.text === target.email);
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/admin/accounts/${target.accountId}`);
    await page.locator('#keys').waitFor();

    await tabTo(page, 'Suspend', (f) => f.tag === 'button' && f.text === 'Suspend…');
    await confirmWithKeyboard(page);
    await shows(page.locator('#status'), 'suspended');
    await tabTo(page, 'Reactivate', (f) => f.tag === 'button' && f.text === 'Reactivate…');
    await confirmWithKeyboard(page);
    await shows(page.locator('#status'), 'active');

    const rows = page.locator('#account-audit tbody tr');
    await shows(rows.first(), 'account.reactivate');
    expect(await rows.first().textContent()).toContain(`operator ${OPERATOR} (console)`);
    await shows(page.locator('#account-audit tr[data-action="account.suspend"]'), `operator ${OPERATOR} (console)`);
    expect(problems).toEqual([]);
  });

  it('when an operator opens the link from the mail in another browser, then the page asks for one press of Sign in (the token leaves the address bar at once), and the console opens', async () => {
    const asker = await app.open('desktop');
    await asker.page.goto('/admin/sign-in');
    await asker.page.locator('#email').fill(OPERATOR);
    const before = app.mail.count(OPERATOR);
    await asker.page.getByRole('button', { name: 'Send me a code' }).click();
    await asker.page.locator('#code').waitFor();
    const { link } = signInCode(await app.mail.next(OPERATOR, before));
    expect(link).toMatch(/\/admin\/sign-in\?email=ops%40example\.com&token=[A-Za-z0-9_-]{43}$/);

    const { page, problems } = await app.open('phone');
    await page.goto(link!);
    const button = page.getByRole('button', { name: 'Sign in', exact: true });
    await button.waitFor();
    expect(page.url()).not.toContain('token=');
    expect(await focused(page)).toMatchObject({ tag: 'button', text: 'Sign in' });
    await page.keyboard.press('Enter');
    await page.waitForURL('**/admin/');
    await shows(page.locator('#who'), OPERATOR);
    expect([...asker.problems, ...problems]).toEqual([]);
  });
});
