import type { Page } from 'playwright-core';
import { screenshot, seriousViolations, shows, signIn } from './support/portal-fixture';
import { startBillingPortal } from './support/billing-portal';
import type { BillingPortal } from './support/billing-portal';

jest.setTimeout(120_000);

let billing: BillingPortal;
beforeAll(async () => {
  billing = await startBillingPortal();
});
afterAll(() => billing?.close());

/** "12.50 EUR" or "€12.50" as the smallest unit: 1250. */
// Read as whole cents from the digits: Number('2.53') * 100 is 252.99999999999997, which no Stripe amount is.
const cents = (text: string): number => {
  const [, sign, whole, fraction] = /(-?)([\d,]+)\.(\d{2})/.exec(text)!;
  const value = Number(whole!.replace(/,/g, '')) * 100 + Number(fraction);
  return sign === '-' ? -value : value;
};

async function typeCard(page: Page, number: string, submit: string): Promise<void> {
  await page.locator('#cardNumber').fill(number);
  await page.locator('#cardExpiry').fill('12 / 34');
  await page.locator('#cardCvc').fill('123');
  await page.locator(submit).click();
}

describe.each(['desktop', 'phone'] as const)('the price before money moves (%s)', (width) => {
  test('when a person subscribes and then upgrades, then each button first shows what is due today and each month after, exactly that is charged, and Billing lists each payment with its receipt', async () => {
    const { portal } = billing;
    const { page, problems } = await portal.open(width);
    await signIn(page, portal.mail, `price-${width}@example.com`);
    await page.getByRole('link', { name: 'Subscriptions' }).click();

    await page.getByRole('button', { name: 'Subscribe to pro for token' }).click();
    const dialog = page.getByRole('dialog');
    await shows(dialog, 'Due today');
    await shows(dialog.locator('#recurring'), '25.00 EUR');
    const firstDue = cents(await dialog.locator('#due-now').innerText());
    expect(firstDue).toBeGreaterThan(0);
    expect(firstDue).toBeLessThanOrEqual(2500);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `price-preview-subscribe-${width}`);
    await dialog.getByRole('button', { name: 'Continue to payment' }).click();
    await page.waitForURL(/\/checkout\/cs_test_/);
    // Stripe's page (stripe-local's) says the same: due today, then the monthly price.
    expect(cents(await page.locator('#total').innerText())).toBe(firstDue);
    await shows(page.locator('#then'), 'Then €25.00 per month starting 1 ');
    await typeCard(page, '4242 4242 4242 4242', '#submit');
    await page.waitForURL(/\/portal\/billing/);
    await shows(page.getByRole('status'), 'Payment received');
    await billing.local.settle();

    await page.getByRole('link', { name: 'Subscriptions' }).click();
    await page.getByRole('button', { name: 'Upgrade token to scale' }).click();
    await shows(dialog.locator('#recurring'), '59.50 EUR');
    const upgradeDue = cents(await dialog.locator('#due-now').innerText());
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `price-preview-upgrade-${width}`);
    // Cancel changes nothing; confirming charges what was shown.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await shows(page.locator('section[data-api="token"] .current'), 'pro');
    await page.getByRole('button', { name: 'Upgrade token to scale' }).click();
    await dialog.getByRole('button', { name: `Pay ${(upgradeDue / 100).toFixed(2)} EUR and upgrade` }).click();
    await shows(page.locator('section[data-api="token"] [role="status"]'), 'Upgraded: your token plan is scale now');
    await billing.local.settle();
    const invoices = await billing.stripe.invoices.list({ customer: (await billing.stripe.customers.list({ email: `price-${width}@example.com` })).data[0]!.id });
    expect(invoices.data.map((i) => [i.billing_reason, i.amount_paid])).toEqual([['subscription_update', upgradeDue], ['subscription_create', firstDue]]);

    // Billing lists each payment received with its card and Stripe's receipt.
    await page.getByRole('link', { name: 'Billing', exact: true }).click();
    const rows = page.locator('#payment-list tbody tr');
    await shows(rows.first(), 'VISA •••• 4242');
    expect(await rows.count()).toBe(2);
    expect(cents(await rows.nth(0).locator('td').first().innerText())).toBe(upgradeDue);
    expect(cents(await rows.nth(1).locator('td').first().innerText())).toBe(firstDue);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `billing-payments-${width}`);
    await rows.nth(1).getByRole('link', { name: 'Receipt' }).click();
    await shows(page.locator('h1'), 'Receipt from Tollgate');
    expect(cents(await page.locator('#amount').innerText())).toBe(firstDue);
    await page.goBack();

    // Stripe's customer portal shows the card just paid with, and its way back names the business.
    await page.getByRole('button', { name: 'Manage card and invoices' }).click();
    await page.waitForURL(/\/portal\/bps_/);
    await shows(page.locator('#payment-method'), 'VISA •••• 4242');
    await shows(page.locator('#return'), '← Return to Tollgate');
    await page.locator('#return').click();
    await page.waitForURL('**/portal/billing');
    expect(problems).toEqual([]);
  });
});
