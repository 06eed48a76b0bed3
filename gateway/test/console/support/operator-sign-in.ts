import type { BrowserContext, Page } from 'playwright-core';
import type { BrowserGateway } from '../../support/browser-gateway';

/** An operator signed in to the console with the admin token, on a desktop page, with the session's CSRF token. */
export async function signInWithToken(app: BrowserGateway): Promise<{ page: Page; context: BrowserContext; csrf: string }> {
  const { page, context } = await app.open('desktop');
  await page.goto('/admin/sign-in');
  await page.getByLabel('Admin token', { exact: true }).fill(app.adminToken());
  await page.getByRole('button', { name: 'Sign in with the token' }).click();
  await page.waitForURL('**/admin/');
  const csrf = await page.evaluate(async () => ((await (await fetch('/admin/console/v1/session')).json()) as { data: { csrf_token: string } }).data.csrf_token);
  return { page, context, csrf };
}
