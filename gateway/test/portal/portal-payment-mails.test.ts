import { seriousViolations, shows, signIn, usePortal } from './support/portal-fixture';

jest.setTimeout(120_000);

const portal = usePortal();

describe.each(['desktop', 'phone'] as const)('the mails a person gets, as the Webhooks page says them (%s)', (width) => {
  test('when the alerts are shown, then the payment mails are said to be always sent, offered as no switch, and the page passes axe', async () => {
    const { page, problems } = await portal.open(width);
    await signIn(page, portal.mail, `mails-${width}@example.com`);
    await page.goto('/portal/webhooks');
    const mailed = page.getByRole('group', { name: 'Mail me when' });
    await mailed.getByLabel('Key revoked').waitFor();
    expect(await mailed.getByLabel('Payment failed').count()).toBe(0);
    expect(await mailed.getByLabel('Payment received after a failure').count()).toBe(0);
    await shows(page.locator('#always-mailed'), 'Always mailed, whatever is chosen here: payment failed, and payment received after a failure.');
    // Saving the switches there are keeps working without the payment ones.
    await mailed.getByLabel('Quota reset (a new month)').check();
    await page.getByRole('button', { name: 'Save alert settings' }).click();
    await shows(page.getByRole('status').first(), 'Alert settings saved.');
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
