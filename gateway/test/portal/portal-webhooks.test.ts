import { Webhook } from 'standardwebhooks';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eventually } from '../support/eventually';
import { startWebhookReceiver } from '../support/webhook-receiver';
import type { WebhookReceiver } from '../support/webhook-receiver';
import { createKey, screenshot, seriousViolations, shows, signIn, usePortal } from './support/portal-fixture';

jest.setTimeout(180_000);

// Five calls a month on the free plans, so a few calls reach 80%.
const dir = mkdtempSync(path.join(tmpdir(), 'tollgate-portal-webhooks-'));
const plansFile = path.join(dir, 'plans.json');
const free = { monthly_quota: 5, rate_per_second: 10, price: 0, currency: 'EUR' };
writeFileSync(plansFile, JSON.stringify({ burger: { playground_per_day: 0, plans: { free: { ...free, currency: 'USD' } } }, token: { playground_per_day: 10, plans: { free } }, logs: { playground_per_day: 10, plans: { free } } }));

const portal = usePortal({ WEBHOOKS_ALLOW_PRIVATE: 'true', PLANS_FILE: plansFile });
let hooks: WebhookReceiver;
beforeAll(async () => {
  hooks = await startWebhookReceiver();
});
afterAll(() => hooks.close());

describe('the Webhooks page and the usage banner', () => {
  test('when an endpoint is added, a test event sent and the secret rotated, then the delivery is listed with its status and the receiver verifies both secrets; the page passes axe at both widths', async () => {
    const { page, problems } = await portal.open('desktop');
    await signIn(page, portal.mail, 'hooks@example.com');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('Endpoint URL').fill(hooks.url);
    await page.getByLabel('Description (optional)').fill('staging receiver');
    // In its group: the mail settings below, filled in when their answer comes, have a box of the same name.
    await page.getByRole('group', { name: 'Events to send' }).getByLabel('Quota threshold reached').check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secretBox = page.locator('#webhook-secret');
    await secretBox.waitFor();
    const secret = (await secretBox.textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'I have saved it' }).click();
    expect(await secretBox.count()).toBe(0);

    await page.getByRole('button', { name: `Send test event to ${hooks.url}` }).click();
    await eventually(async () => hooks.received.length === 1, 'the test event at the receiver');
    expect(hooks.verified(secret)).toEqual([expect.objectContaining({ type: 'webhook.test' })]);
    await eventually(async () => {
      await page.getByRole('button', { name: 'Refresh deliveries' }).click();
      return (await page.locator('table.deliveries tbody tr .state').first().textContent({ timeout: 2_000 }).catch(() => ''))?.startsWith('Delivered') ?? false;
    }, 'the delivery listed as delivered');
    const row = page.locator('table.deliveries tbody tr').first();
    await shows(row, 'webhook.test');
    expect(await row.locator('td[data-label="Status code"]').textContent()).toBe('204');
    expect(await row.locator('td[data-label="Attempts"]').textContent()).toBe('1');
    expect(await row.locator('td[data-label="Latency"]').textContent()).toMatch(/^\d+ ms$/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'webhooks-deliveries-desktop');

    await page.getByRole('button', { name: `Rotate secret of ${hooks.url}` }).click();
    await page.getByRole('dialog').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Rotate secret', exact: true }).click();
    await secretBox.waitFor();
    const rotated = (await secretBox.textContent()) ?? '';
    expect(rotated).not.toBe(secret);
    await shows(page.locator('.facts dd'), /also signs until/);
    await page.getByRole('button', { name: `Send test event to ${hooks.url}` }).click();
    await eventually(async () => hooks.received.length === 2, 'the second test event');
    expect(hooks.verified(secret)).toHaveLength(2);
    // The first was sent before the rotation, signed by the old secret alone; the second by both.
    const second = hooks.received[1]!;
    expect(new Webhook(rotated).verify(second.body, second.headers as Record<string, string>)).toMatchObject({ type: 'webhook.test' });
    expect(problems).toEqual([]);

    const { page: phone } = await portal.open('phone');
    await signIn(phone, portal.mail, 'hooks@example.com');
    await phone.goto('/portal/webhooks');
    await phone.locator('table.deliveries').waitFor();
    expect(await seriousViolations(phone)).toEqual([]);
    await screenshot(phone, 'webhooks-deliveries-phone');
  });

  test('when the month reaches 80% of the quota, then the usage page warns with the reset time and says which alerts are on, linking to Webhooks', async () => {
    const { page } = await portal.open('desktop');
    await signIn(page, portal.mail, 'banner@example.com');
    const key = await createKey(page, 'banner');
    await page.getByRole('link', { name: 'Subscriptions' }).click();
    await page.getByRole('button', { name: 'Subscribe to free for token' }).click();
    await shows(page.locator('section[data-api="token"] .current'), 'Current plan: free');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('Endpoint URL').fill(hooks.url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.locator('#webhook-secret').waitFor();
    for (let i = 0; i < 4; i++) expect((await fetch(`${portal.url}/token/v1/meta`, { headers: { 'x-tollgate-key': key } })).status).toBe(200);
    await page.getByRole('link', { name: 'Usage' }).click();
    const banner = page.locator('#quota-banner');
    await shows(banner, /Token: 80% of this month’s quota used \(4 of 5 calls\); it resets 1 \w+ \d{4}, 00:00 UTC/);
    await shows(page.locator('section[data-api="token"] dd.alerts'), 'at 80% and 100%, by mail and to 1 webhook endpoint');
    expect(await banner.getByRole('link', { name: 'Alerts and webhooks' }).getAttribute('href')).toBe('/portal/webhooks');
    expect(await seriousViolations(page)).toEqual([]);
    await fetch(`${portal.url}/token/v1/meta`, { headers: { 'x-tollgate-key': key } });
    await page.reload();
    await shows(page.locator('#quota-banner'), /Token: this month’s quota is used up\. Calls get 429 until it resets/);
    await eventually(async () => portal.mail.to('banner@example.com').some((m) => m.subject === 'Your Tollgate token quota is 100% used'), 'the 100% mail');
  });
});
