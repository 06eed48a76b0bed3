import type { Page } from 'playwright-core';
import { startBrowserGateway, useBrowserGateway } from '../../support/browser-gateway';
import type { BrowserGateway } from '../../support/browser-gateway';
import { signInCode } from '../../support/smtp-inbox';
import type { SmtpInbox } from '../../support/smtp-inbox';

export { SCREENSHOTS, WIDTHS, screenshot, seriousViolations, shows } from '../../support/browser-gateway';
export type { WidthName } from '../../support/browser-gateway';

/** A real gateway process (SQLite store in a temp dir), real SMTP, three echo services, one Chromium. */
export type Portal = BrowserGateway;

/** Starts everything a portal test needs; `env` adds to (or overrides) the gateway's environment. */
export const startPortal = (env: Record<string, string> = {}): Promise<Portal> => startBrowserGateway({ env });

/** One portal for a test file (see useBrowserGateway). */
export const usePortal = (env: Record<string, string> = {}): Portal => useBrowserGateway({ env });

/** Signs in through the page (email, the mailed code) and waits for the Keys page. */
export async function signIn(page: Page, mail: SmtpInbox, email: string): Promise<void> {
  const before = mail.count(email);
  await page.goto('/portal/sign-in');
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  const { code } = signInCode(await mail.next(email, before));
  await page.getByLabel('Code from the mail').fill(code);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL('**/portal/keys');
  await page.getByRole('heading', { name: 'Your keys' }).waitFor();
}

/** Creates a key on the Keys page; returns its secret as shown once. */
export async function createKey(page: Page, name: string): Promise<string> {
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Create key' }).click();
  const secret = page.locator('#new-secret');
  await secret.waitFor();
  return (await secret.textContent()) ?? '';
}
