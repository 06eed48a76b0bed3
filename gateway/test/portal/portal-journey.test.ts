import { eventually } from '../support/eventually';
import { keyHints } from '../../src/domain/api-key';
import { createKey, shows, usePortal } from './support/portal-fixture';
import type { BrowserGlobals } from '../support/browser-globals';
import { signInCode } from '../support/smtp-inbox';

jest.setTimeout(120_000);

const portal = usePortal();

/**
 * Calls an API directly (not through the page) with a secret; the status. The plan allows 3 calls a
 * second, and a quick browser makes the journey's calls within one: a 429 is asked again (eventually).
 */
async function statusWith(secret: string): Promise<number> {
  let status = 0;
  await eventually(async () => {
    const res = await fetch(`${portal.url}/token/v1/meta`, { headers: { 'x-tollgate-key': secret } });
    await res.arrayBuffer();
    status = res.status;
    return status !== 429;
  }, 'an answer other than 429');
  return status;
}

describe('the developer portal, end to end in Chromium', () => {
  test('when a developer signs up, proves the address, makes a key, subscribes, calls, rolls, revokes and signs out, then every step shows and holds', async () => {
    const { page, context, problems } = await portal.open('desktop');
    const email = 'ada@example.com';

    // Sign up: the mailed link signs in with a press (from any device); that proves the address.
    await page.goto('/');
    await page.waitForURL('**/portal/');
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByText(`We sent a 6-digit code to ${email}`).waitFor();
    const mail = await portal.mail.next(email);
    expect(mail.subject).toMatch(/sign-in code/i);
    // The page was reached at the gateway's own address, so the mail links back to it.
    const { link } = signInCode(mail);
    expect(link?.startsWith(`${portal.url}/portal/sign-in?`)).toBe(true);
    await page.goto(link!);
    await page.getByText(`The link from the mail signs you in as ${email}`).waitFor();
    expect(page.url()).not.toContain('token=');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('**/portal/keys');
    await shows(page.locator('#who'), email);
    // The session cookie goes to the JSON routes only, never with calls to the APIs (forwarded to the services).
    expect((await context.cookies(`${portal.url}/dashboard/v1/session`)).map((c) => c.name)).toContain('tg_session');
    expect((await context.cookies([`${portal.url}/token/v1/meta`, `${portal.url}/portal/keys`])).map((c) => c.name)).not.toContain('tg_session');

    // A key: the secret is shown once, kept only in memory.
    const secret = await createKey(page, 'laptop');
    expect(secret).toMatch(/^tg_/);
    const row = page.locator('tr', { hasText: 'laptop' });
    await shows(row, `${keyHints(secret).prefix}…${secret.slice(-4)}`);
    const stored = await page.evaluate(() => {
      const w = globalThis as unknown as BrowserGlobals;
      return JSON.stringify({ local: { ...w.localStorage }, session: { ...w.sessionStorage }, cookie: w.document.cookie });
    });
    expect(stored).not.toContain(secret);
    expect((await context.cookies()).map((c) => c.value).join(' ')).not.toContain(secret);

    // Subscribe to token's free plan.
    await page.getByRole('link', { name: 'Subscriptions' }).click();
    await page.getByRole('button', { name: 'Subscribe to free for token' }).click();
    await shows(page.locator('section[data-api="token"] .current'), 'Current plan: free');

    // Try it with the key created in this tab: 200 with quota headers.
    await page.getByRole('link', { name: 'Try it' }).click();
    await page.getByLabel('API').selectOption('token');
    await page.getByLabel('Endpoint').selectOption('/token/v1/meta');
    await page.getByLabel(/The key created in this tab/).check();
    await page.getByRole('button', { name: 'Send' }).click();
    await shows(page.locator('#result-status'), /^200/);
    await shows(page.locator('#result-headers'), 'x-ratelimit-requests-remaining');
    await shows(page.locator('#result-headers'), '11499');
    await shows(page.locator('#snippet'), 'curl -i -H "x-tollgate-key: $TOLLGATE_KEY"');
    expect(await page.locator('#snippet').textContent()).not.toContain(secret);

    // The call on the usage page (history is written within about a second).
    await eventually(async () => {
      await page.getByRole('link', { name: 'Usage' }).click();
      await page.locator('section[data-api="token"] .figure').waitFor();
      const served = await page.locator(`section[data-api="token"] table.history tr[data-day="${new Date().toISOString().slice(0, 10)}"] td`).first().textContent({ timeout: 200 }).catch(() => null);
      return served === '1';
    }, 'the call on the usage chart');
    await shows(page.locator('section[data-api="token"] .figure'), '1 of 11,500 calls this month');
    await page.locator('section[data-api="token"] .chart canvas').first().waitFor();

    // Roll with a grace: old and new both work; end the grace: only the new one.
    await page.getByRole('link', { name: 'Keys' }).click();
    await page.getByRole('button', { name: 'Roll laptop' }).click();
    await page.getByLabel('Grace period for the old secret').selectOption('3600');
    await page.getByRole('button', { name: 'Roll key' }).click();
    await page.locator('#new-secret').waitFor();
    const rolled = (await page.locator('#new-secret').textContent()) ?? '';
    expect(rolled).not.toBe(secret);
    await shows(page.locator('tr', { hasText: 'laptop' }), 'the old secret works until');
    expect(await statusWith(secret)).toBe(200);
    expect(await statusWith(rolled)).toBe(200);
    await page.getByRole('button', { name: 'End the grace period of laptop' }).click();
    await shows(page.getByRole('status'), 'no longer works');
    expect(await statusWith(secret)).toBe(401);
    expect(await statusWith(rolled)).toBe(200);

    // Revoke, confirmed in a dialog: 401.
    await page.getByRole('button', { name: 'Revoke laptop' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await shows(page.locator('tr', { hasText: 'laptop' }), 'Revoked');
    expect(await statusWith(rolled)).toBe(401);

    // Sign out: the session is gone at the gateway too.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/portal/sign-in');
    const session = await page.evaluate(async () => (await fetch('/dashboard/v1/session')).status);
    expect(session).toBe(401);
    expect(problems).toEqual([]);
  });
});
