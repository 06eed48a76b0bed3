import { scrollsSideways } from '../support/browser-gateway';
import { screenshot, seriousViolations, shows, signIn } from './support/portal-fixture';
import { startBillingPortal } from './support/billing-portal';
import type { BillingPortal } from './support/billing-portal';

jest.setTimeout(120_000);

// Its own gateway: STRIPE_AUTOMATIC_TAX is the server's setting, and portal-price-preview.test.ts checks the same pages without it.
let billing: BillingPortal;
beforeAll(async () => {
  billing = await startBillingPortal({ STRIPE_AUTOMATIC_TAX: 'true' });
});
afterAll(() => billing?.close());

/** Every "12.50 EUR" or "€12.50" in a text, in order, as the smallest unit (read from the digits, never through floats). */
const amounts = (text: string): number[] => [...text.matchAll(/(-?)([\d,]+)\.(\d{2})/g)].map(([, sign, whole, fraction]) => (sign === '-' ? -1 : 1) * (Number(whole!.replace(/,/g, '')) * 100 + Number(fraction)));

/** Germany's standard VAT (19%) on a taxable amount, rounded to the cent as Stripe Tax does. */
const vat = (taxable: number): number => Math.round((taxable * 19) / 100);

describe.each(['desktop', 'phone'] as const)('VAT in the portal (%s)', (width) => {
  test('when a person in Germany pays for a plan with automatic tax on, then Billing shows the invoice with its 19% VAT and the payment with it, and the upgrade’s preview shows the tax line it then charges', async () => {
    const { portal } = billing;
    const { page, problems } = await portal.open(width);
    const email = `vat-${width}@example.com`;
    await signIn(page, portal.mail, email);
    await page.getByRole('link', { name: 'Subscriptions' }).click();

    // Before Checkout the address is not known: the preview is before tax, and says so.
    await page.getByRole('button', { name: 'Subscribe to pro for token' }).click();
    const dialog = page.getByRole('dialog');
    await shows(dialog, 'with any tax for your address');
    expect(await dialog.locator('#tax-now').count()).toBe(0);
    const net = amounts(await dialog.locator('#due-now').innerText())[0]!;
    expect(net).toBeGreaterThan(0);
    await dialog.getByRole('button', { name: 'Continue to payment' }).click();
    await page.waitForURL(/\/checkout\/cs_test_/);
    await shows(page.locator('#tax'), 'Calculated from your billing address');
    expect(amounts(await page.locator('#total').innerText())).toEqual([net]);
    await page.locator('#cardNumber').fill('4242 4242 4242 4242');
    await page.locator('#cardExpiry').fill('12 / 34');
    await page.locator('#cardCvc').fill('123');
    await page.locator('#billingCountry').selectOption('DE');
    await page.locator('#billingCity').fill('Berlin');
    await page.locator('#submit').click();
    await page.waitForURL(/\/portal\/billing/);
    await shows(page.getByRole('status'), 'Payment received');
    await billing.local.settle();

    // Billing: the invoice's amount with its tax, and the payment of exactly that.
    await page.reload();
    const invoice = page.locator('#invoice-list tbody tr').first();
    await shows(invoice, 'tax');
    const [gross, tax] = amounts(await invoice.locator('td[data-label="Amount"]').innerText());
    expect(tax).toBe(vat(net));
    expect(gross).toBe(net + tax!);
    await shows(invoice.locator('td[data-label="Amount"]'), `${(gross! / 100).toFixed(2)} EUR incl. ${(tax! / 100).toFixed(2)} EUR tax`);
    expect(amounts(await page.locator('#payment-list tbody tr').first().locator('td[data-label="Amount"]').innerText())).toEqual([gross]);
    expect(await seriousViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, `billing-tax-${width}`);
    // The invoice it links to names the rate.
    await invoice.getByRole('link', { name: 'Invoice page' }).click();
    await shows(page.locator('table'), 'Tax (19%)');
    expect(amounts(await page.locator('td.tax').innerText())).toEqual([tax]);
    await page.goBack();

    // Upgrading: the address is known now, so the preview has its tax line, and confirming charges exactly it.
    await page.getByRole('link', { name: 'Subscriptions' }).click();
    await page.getByRole('button', { name: 'Upgrade token to scale' }).click();
    await shows(dialog.locator('#tax-now'), 'EUR');
    const taxNow = amounts(await dialog.locator('#tax-now').innerText())[0]!;
    const dueNow = amounts(await dialog.locator('#due-now').innerText())[0]!;
    expect(taxNow).toBeGreaterThan(0);
    expect(taxNow).toBe(vat(dueNow - taxNow));
    await shows(dialog.locator('#recurring'), `${((5950 + vat(5950)) / 100).toFixed(2)} EUR`);
    expect(await seriousViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, `price-preview-tax-${width}`);
    await dialog.getByRole('button', { name: `Pay ${(dueNow / 100).toFixed(2)} EUR and upgrade` }).click();
    await shows(page.locator('section[data-api="token"] [role="status"]'), 'Upgraded: your token plan is scale now');
    await billing.local.settle();
    await page.getByRole('link', { name: 'Billing', exact: true }).click();
    const upgrade = page.locator('#invoice-list tbody tr').first();
    await shows(page.locator('#invoice-list tbody tr').nth(1), 'tax');
    expect(amounts(await upgrade.locator('td[data-label="Amount"]').innerText())).toEqual([dueNow, taxNow]);
    expect(await seriousViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    expect(problems).toEqual([]);
  });
});
