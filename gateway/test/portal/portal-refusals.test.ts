import type { Page } from 'playwright-core';
import { createKey, shows, signIn, usePortal } from './support/portal-fixture';
import { signInCode } from '../support/smtp-inbox';

jest.setTimeout(120_000);

const portal = usePortal();

/** A dashboard call from inside the page (its cookie), with or without the session's CSRF token. */
function call(page: Page, method: string, path: string, options: { csrf: boolean; body?: unknown }) {
  return page.evaluate(
    async ({ method, path, csrf, body }) => {
      const session = (await (await fetch('/dashboard/v1/session')).json()) as { data: { csrf_token: string } };
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (csrf) headers['x-csrf-token'] = session.data.csrf_token;
      const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const json = (await res.json()) as { error?: { code: string; details?: { reason?: string } } };
      return { status: res.status, code: json.error?.code, reason: json.error?.details?.reason };
    },
    { method, path, csrf: options.csrf, body: options.body },
  );
}

describe('what the portal refuses, and how it says so', () => {
  test('when a key has no subscription, then Try it counts the playground down, and an API without one shows the 402 in place', async () => {
    const { page } = await portal.open('phone');
    await signIn(page, portal.mail, 'play@example.com');
    await createKey(page, 'playground');
    await page.getByRole('link', { name: 'Try it with this key' }).click();
    await page.getByLabel('API').selectOption('token');
    await page.getByLabel('Endpoint').selectOption('/token/v1/meta');
    await shows(page.locator('#allowance'), 'Playground: 10 of 10 calls left today');
    await page.getByLabel(/The key created in this tab/).check();
    for (const left of [9, 8, 7]) {
      await page.getByRole('button', { name: 'Send' }).click();
      await shows(page.locator('#allowance'), `Playground: ${left} of 10 calls left today`);
      await shows(page.locator('#result-headers'), '"day";q=10;w=86400');
    }
    await page.getByLabel('API').selectOption('burger');
    await shows(page.locator('#allowance'), 'No plan for burger');
    await page.getByRole('button', { name: 'Send' }).click();
    await shows(page.locator('#result-status'), /^402/);
    await shows(page.locator('#result-body'), 'SUBSCRIPTION_REQUIRED');
  });

  test('when card payments are not set up, then paid plans show their prices, say so in plain words with no command, and offer nothing to press', async () => {
    const { page } = await portal.open('desktop');
    await signIn(page, portal.mail, 'paid@example.com');
    await page.getByRole('link', { name: 'Subscriptions' }).click();
    await shows(page.locator('main .note'), 'Card payments are not set up on this server, so paid plans cannot be taken here yet.');
    const section = page.locator('section[data-api="token"]');
    await shows(section.locator('tr', { hasText: 'pro' }), '25.00 EUR');
    await shows(section.locator('tr', { hasText: 'pro' }), 'Not available here');
    expect(await section.getByRole('button', { name: 'Subscribe to pro for token' }).count()).toBe(0);
    expect(await page.locator('main').textContent()).not.toMatch(/pnpm|\bcli\b/);
    await shows(section.locator('.current'), 'No plan: the playground gives 10 test calls a day');
    await page.getByRole('link', { name: 'Billing', exact: true }).click();
    await shows(page.locator('main'), 'Card payments are not set up on this server');
  });

  test('when the code is wrong, then the envelope’s message is shown in place and the right code still signs in', async () => {
    const { page } = await portal.open('desktop');
    const email = 'typo@example.com';
    await page.goto('/portal/sign-in');
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    const { code } = signInCode(await portal.mail.next(email));
    const wrong = code === '000000' ? '111111' : '000000';
    await page.getByLabel('Code from the mail').fill(wrong);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/\S/);
    expect(page.url()).toContain('/portal/sign-in');
    await page.getByLabel('Code from the mail').fill(code);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('**/portal/keys');
  });

  test('when the session ends under an open page, then the next action says so in place and offers to sign in again', async () => {
    const { page } = await portal.open('desktop');
    await signIn(page, portal.mail, 'ended@example.com');
    // The session is deleted at the gateway (as its expiry would), not in the page.
    expect((await call(page, 'DELETE', '/dashboard/v1/session', { csrf: true })).status).toBe(200);
    await page.getByLabel('Name', { exact: true }).fill('too late');
    await page.getByRole('button', { name: 'Create key' }).click();
    await shows(page.getByRole('alert'), 'Your session has ended. Sign in again');
    await shows(page.locator('#who'), 'Sign in');
    await page.getByRole('link', { name: 'Sign in', exact: true }).last().click();
    await page.waitForURL(/\/portal\/sign-in\?next=%2Fportal%2Fkeys/);
  });

  test('when a state change comes without the CSRF header, then it is refused with 403, and with it is accepted', async () => {
    const { page } = await portal.open('desktop');
    await signIn(page, portal.mail, 'csrf@example.com');
    expect(await call(page, 'POST', '/dashboard/v1/keys', { csrf: false, body: { name: 'forged' } })).toEqual({ status: 403, code: 'FORBIDDEN', reason: 'csrf' });
    expect(await call(page, 'PUT', '/dashboard/v1/subscriptions/token', { csrf: false, body: { plan: 'free' } })).toMatchObject({ status: 403, reason: 'csrf' });
    expect((await call(page, 'POST', '/dashboard/v1/keys', { csrf: true, body: { name: 'real' } })).status).toBe(201);
  });

  test('when another account’s key id is put in a URL, then it is 404 as an unknown id, and that key is untouched', async () => {
    const other = await portal.open('desktop');
    await signIn(other.page, portal.mail, 'owner@example.com');
    const secret = await createKey(other.page, 'theirs');
    const theirId = await other.page.locator('tr', { hasText: 'theirs' }).getAttribute('data-key-id');
    expect(theirId).toMatch(/^key_/);

    const { page } = await portal.open('desktop');
    await signIn(page, portal.mail, 'intruder@example.com');
    for (const [method, path, body] of [['DELETE', `/dashboard/v1/keys/${theirId}`], ['POST', `/dashboard/v1/keys/${theirId}/roll`, { grace_seconds: 0 }], ['POST', `/dashboard/v1/keys/${theirId}/end-grace`]] as const) {
      expect([path, await call(page, method, path, { csrf: true, body })]).toEqual([path, expect.objectContaining({ status: 404, code: 'NOT_FOUND' })]);
    }
    const res = await fetch(`${portal.url}/token/v1/meta`, { headers: { 'x-tollgate-key': secret } });
    expect(res.status).toBe(200);
  });
});
