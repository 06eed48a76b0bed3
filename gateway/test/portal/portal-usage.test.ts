import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import type { BrowserGlobals } from '../support/browser-globals';
import { parseCsv } from '../support/csv-reader';
import { eventually } from '../support/eventually';
import { createKey, screenshot, seriousViolations, shows, signIn, usePortal, WIDTHS } from './support/portal-fixture';

jest.setTimeout(180_000);

const portal = usePortal();

/** The figures of a breakdown table's rows: the row's id attribute → [calls, errors]. */
async function tableFigures(page: Page, attribute: string): Promise<Record<string, number[]>> {
  const rows = page.locator(`.usage-detail tr[${attribute}]`);
  const figures: Record<string, number[]> = {};
  for (let i = 0; i < (await rows.count()); i++) {
    const row = rows.nth(i);
    const number = async (cell: string) => Number(((await row.locator(cell).textContent()) ?? '').replaceAll(',', ''));
    figures[(await row.getAttribute(attribute))!] = [await number('td.calls'), await number('td.errors')];
  }
  return figures;
}

/** CSV rows of one dimension summed per id: id → [calls, errors]. */
function csvFigures(rows: string[][], dimension: string): Record<string, number[]> {
  const sums: Record<string, number[]> = {};
  for (const [, dim, id, , calls, errors] of rows) {
    if (dim !== dimension) continue;
    const sum = (sums[id!] ??= [0, 0]);
    sum[0]! += Number(calls);
    sum[1]! += Number(errors);
  }
  return sums;
}

describe('the Usage page in detail', () => {
  test('when two keys call two endpoints, then the page shows them per key and per endpoint with p50/p95 and the quota line, axe clean at both widths, and the downloaded CSV adds up to the same figures', async () => {
    // The services' documents, read first: every call then counts under its route template.
    expect((await fetch(`${portal.url}/docs/openapi.json`)).status).toBe(200);
    const { page, problems, context } = await portal.open('desktop');
    await signIn(page, portal.mail, 'detail@example.com');
    const alpha = await createKey(page, 'alpha');
    await page.reload();
    const beta = await createKey(page, 'beta, "the second"');
    await page.getByRole('link', { name: 'Subscriptions' }).click();
    await page.getByRole('button', { name: 'Subscribe to free for burger' }).click();
    await shows(page.locator('section[data-api="burger"] .current'), 'Current plan: free');
    const calls: [string, string][] = [
      [alpha, '/burger/v1/index'],
      [alpha, '/burger/v1/index?base=eur'],
      [alpha, '/burger/v1/countries/ch'],
      [beta, '/burger/v1/countries/de'],
      [beta, '/burger/v1/countries/fr'],
    ];
    for (const [key, path] of calls) {
      const res = await fetch(`${portal.url}${path}`, { headers: { 'x-tollgate-key': key } });
      await res.arrayBuffer();
      expect([path, res.status]).toEqual([path, 200]);
    }
    await eventually(async () => {
      const res = await page.evaluate(async () => (await (await fetch('/dashboard/v1/usage/breakdown')).json()) as { data: { days: { calls: number }[] } });
      return res.data.days.reduce((sum, d) => sum + d.calls, 0) === calls.length;
    }, 'the calls in the breakdown');

    await page.getByRole('link', { name: 'Usage' }).click();
    const detail = page.locator('section.usage-detail');
    await detail.locator('.chart canvas').waitFor();
    await page.locator('section[data-api="burger"] .quota-chart canvas').waitFor();
    expect(await page.locator('section[data-api="burger"] .quota-chart').getAttribute('data-quota')).toMatch(/^\d+$/);
    await shows(page.locator('section[data-api="burger"] .quota-chart'), /Monthly quota/);
    const keys = await tableFigures(page, 'data-key-id');
    const endpoints = await tableFigures(page, 'data-endpoint');
    expect(Object.values(keys).sort()).toEqual([
      [2, 0],
      [3, 0],
    ]);
    await shows(detail.locator('tr[data-key-id] th'), 'beta, "the second"');
    expect(endpoints).toEqual({ '/burger/v1/index': [2, 0], '/burger/v1/countries/{country}': [3, 0] });
    await shows(detail.locator('.summary'), /5 calls, 0 errors \(0\.0% error share\)/);
    const today = new Date().toISOString().slice(0, 10);
    const dayRow = detail.locator(`table.latency tr[data-day="${today}"]`);
    expect(await dayRow.locator('td.p50').textContent()).toMatch(/^≤ [\d,]+ ms$/);
    expect(await dayRow.locator('td.p95').textContent()).toMatch(/^≤ [\d,]+ ms$/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(detail, 'usage-detail-desktop');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^tollgate-usage-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const [header, ...rows] = parseCsv(await readFile((await download.path())!, 'utf8'));
    expect(header).toEqual(['day', 'dimension', 'id', 'name', 'calls', 'errors', 'p50_ms', 'p95_ms', 'key']);
    // Key rows name the key as the Keys list shows it (tg_…last4); other rows leave it empty.
    expect(rows.every((r) => (r[1] === 'key' ? /^tg_\S*…\S{4}$/.test(r[8]!) : r[8] === ''))).toBe(true);
    expect(csvFigures(rows, 'key')).toEqual(keys);
    expect(csvFigures(rows, 'endpoint')).toEqual(endpoints);
    expect(csvFigures(rows, 'total')).toEqual({ '': [5, 0] });
    expect(rows.find((r) => r[1] === 'key' && r[3] === 'beta, "the second"')).toBeDefined();
    expect(problems).toEqual([]);

    // The same page at phone width, keyboard first: the CSV link is reached with Tab.
    const phone = await portal.browser.newContext({ viewport: WIDTHS.phone, deviceScaleFactor: 1, baseURL: portal.url, storageState: await context.storageState() });
    const small = await phone.newPage();
    await small.goto('/portal/usage');
    await small.locator('section.usage-detail .chart canvas').waitFor();
    expect(await tableFigures(small, 'data-key-id')).toEqual(keys);
    expect(await seriousViolations(small)).toEqual([]);
    const overflow = await small.evaluate(() => {
      const root = (globalThis as unknown as BrowserGlobals).document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
    expect(overflow).toBe(0);
    let reached = false;
    for (let i = 0; i < 60 && !reached; i++) {
      await small.keyboard.press('Tab');
      reached = await small.evaluate(() => (globalThis as unknown as BrowserGlobals).document.activeElement?.textContent === 'Download CSV');
    }
    expect(reached).toBe(true);
    await screenshot(small.locator('section.usage-detail'), 'usage-detail-phone');
    await phone.close();
  });

  test('when an account has made no calls, then the detail says so, and signed out the page asks to sign in', async () => {
    const { page } = await portal.open('phone');
    await signIn(page, portal.mail, 'quiet@example.com');
    await page.getByRole('link', { name: 'Usage' }).click();
    await shows(page.locator('section.usage-detail .empty'), 'No calls in the last 30 days.');
    expect(await page.getByRole('link', { name: 'Download CSV' }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    const { page: signedOut } = await portal.open('desktop');
    await signedOut.goto('/portal/usage');
    await shows(signedOut.getByRole('main'), 'Sign in with your email address to see your usage.');
    expect(await signedOut.locator('section.usage-detail').count()).toBe(0);
  });
});
