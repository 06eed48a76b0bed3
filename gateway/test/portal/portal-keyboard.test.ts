import type { Page } from 'playwright-core';
import { shows, usePortal } from './support/portal-fixture';
import { focused, tabTo } from '../support/browser-gateway';
import type { BrowserGlobals } from '../support/browser-globals';
import { signInCode } from '../support/smtp-inbox';

jest.setTimeout(120_000);

const portal = usePortal();

/** Waits until the new view has moved focus to its heading (views render after the URL changes). */
async function headingFocused(page: Page, text: string): Promise<void> {
  await page.waitForFunction((t) => {
    const el = (globalThis as unknown as BrowserGlobals).document.activeElement;
    return el?.tagName === 'H1' && el.textContent === t;
  }, text);
}

describe('the portal with the keyboard alone', () => {
  test('when a developer signs in, makes a key, tries it and revokes it with only the keyboard, then every step works and focus follows', async () => {
    const { page } = await portal.open('desktop');
    const email = 'keys-only@example.com';
    await page.goto('/portal/');
    await page.locator('section.card').first().waitFor();

    // The skip link comes first and moves to the content.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'a', text: 'Skip to content' });
    await tabTo(page, 'the sign-in link', (f) => f.tag === 'a' && f.text === 'Sign in');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/portal/sign-in');
    await headingFocused(page, 'Sign in');

    await tabTo(page, 'the email field', (f) => f.id === 'email');
    await page.keyboard.type(email);
    await page.keyboard.press('Enter');
    const { code } = signInCode(await portal.mail.next(email));
    await page.locator('#code').waitFor();
    expect(await focused(page)).toMatchObject({ id: 'code' });
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/portal/keys');
    await headingFocused(page, 'Keys');

    await tabTo(page, 'the key name', (f) => f.id === 'key-name');
    await page.keyboard.type('keyboard');
    await page.keyboard.press('Enter');
    await page.locator('#new-secret').waitFor();
    expect(await focused(page)).toMatchObject({ tag: 'h2', text: 'keyboard created: copy the secret now' });
    await tabTo(page, 'Try it with this key', (f) => f.text === 'Try it with this key');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/portal/try?key=latest');
    await headingFocused(page, 'Try it');

    // Choose the API with the arrow keys, then send.
    await tabTo(page, 'the API list', (f) => f.id === 'try-api');
    for (let i = 0; i < 3 && (await page.locator('#try-api').inputValue()) !== 'token'; i++) await page.keyboard.press('ArrowDown');
    expect(await page.locator('#try-api').inputValue()).toBe('token');
    await tabTo(page, 'Send', (f) => f.tag === 'button' && f.text === 'Send');
    await page.keyboard.press('Enter');
    // The endpoint needs a token: the refusal is shown and focus goes to the empty field.
    await shows(page.getByRole('alert'), 'Fill in token');
    expect(await focused(page)).toMatchObject({ tag: 'input' });
    await page.keyboard.type('ethereum:0xdac17f958d2ee523a2206206994597c13d831ec7');
    await page.keyboard.press('Enter');
    await shows(page.locator('#result-status'), /^200/);
    expect(await focused(page)).toMatchObject({ tag: 'h2', text: 'Response' });

    // Back to the keys by the navigation, revoke through the dialog.
    await page.keyboard.press('Shift+Tab');
    await tabTo(page, 'the Keys link', (f) => f.tag === 'a' && f.text === 'Keys');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/portal/keys');
    await headingFocused(page, 'Keys');
    await tabTo(page, 'Revoke', (f) => f.text === 'Revoke keyboard');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    expect(await focused(page)).toMatchObject({ tag: 'button', text: 'Revoke key' });
    await page.keyboard.press('Enter');
    await shows(page.locator('tr', { hasText: 'keyboard' }), 'Revoked');
  });
});
