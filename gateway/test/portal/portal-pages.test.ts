import type { BrowserContext } from 'playwright-core';
import { eventually } from '../support/eventually';
import type { BrowserGlobals } from '../support/browser-globals';
import { PAGE_CSP } from '../../src/http/page-headers';
import { PORTAL_PAGES } from '../../src/portal/portal-pages';
import { createKey, screenshot, seriousViolations, shows, signIn, usePortal, WIDTHS } from './support/portal-fixture';
import type { WidthName } from './support/portal-fixture';

jest.setTimeout(180_000);

const portal = usePortal();
let signedIn: Awaited<ReturnType<BrowserContext['storageState']>>;
let secret: string;

beforeAll(async () => {
  // One account with a key, a free plan and some calls, so every page has something to show.
  const { page, context } = await portal.open('desktop');
  await signIn(page, portal.mail, 'grace@example.com');
  secret = await createKey(page, 'production server');
  await page.getByRole('link', { name: 'Subscriptions' }).click();
  await page.getByRole('button', { name: 'Subscribe to free for burger' }).click();
  await shows(page.locator('section[data-api="burger"] .current'), 'Current plan: free');
  for (const path of ['/burger/v1/index', '/burger/v1/index?base=eur', '/burger/v1/countries/ch', '/token/v1/meta', '/logs/v1/logs']) {
    const res = await fetch(`${portal.url}${path}`, { headers: { 'x-tollgate-key': secret } });
    await res.arrayBuffer();
  }
  await eventually(async () => {
    const res = await page.evaluate(async () => (await (await fetch('/dashboard/v1/history')).json()) as { data: { days: unknown[] } });
    return res.data.days.length >= 3;
  }, 'the calls in the history');
  signedIn = await context.storageState();
  await context.close();
});

const signedOutPages = new Set(['sign-in']);

describe('every portal page', () => {
  test('when a page or asset is served, then it carries the CSP without unsafe-inline, no framing, no referrer and nosniff', async () => {
    for (const path of [...PORTAL_PAGES.map((p) => p.path), '/portal/nowhere', '/portal/assets/portal.css', '/portal/assets/js/app.js', '/portal/vendor/uplot/uPlot.iife.min.js']) {
      const res = await fetch(`${portal.url}${path}`);
      await res.arrayBuffer();
      expect([path, res.status]).toEqual([path, path === '/portal/nowhere' ? 404 : 200]);
      expect(res.headers.get('content-security-policy')).toBe(PAGE_CSP);
      expect(PAGE_CSP).not.toContain('unsafe');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
    const root = await fetch(`${portal.url}/`, { redirect: 'manual' });
    expect([root.status, root.headers.get('location')]).toEqual([302, '/portal/']);
  });

  for (const width of Object.keys(WIDTHS) as WidthName[]) {
    test(`when each page is opened at ${WIDTHS[width].width} px, then it renders from the gateway alone, axe finds nothing serious or critical, and a screenshot is kept`, async () => {
      const signedInContext = await portal.browser.newContext({ viewport: WIDTHS[width], deviceScaleFactor: 1, baseURL: portal.url, storageState: signedIn });
      const signedOutContext = await portal.browser.newContext({ viewport: WIDTHS[width], deviceScaleFactor: 1, baseURL: portal.url });
      const failures: string[] = [];
      for (const pageInfo of [...PORTAL_PAGES, { id: 'not-found', path: '/portal/nowhere' }]) {
        const context = signedOutPages.has(pageInfo.id) || pageInfo.id === 'not-found' ? signedOutContext : signedInContext;
        const page = await context.newPage();
        const problems: string[] = [];
        const foreign: string[] = [];
        // The browser logs every 4xx answer ("Failed to load resource"): a signed-out 401 from /session is expected, a missing asset is not.
        page.on('console', (msg) => msg.type() === 'error' && !msg.text().startsWith('Failed to load resource') && problems.push(msg.text()));
        page.on('response', (res) => res.status() >= 400 && /\/portal\/(assets|vendor)\//.test(res.url()) && problems.push(`${res.status()} ${res.url()}`));
        page.on('pageerror', (err) => problems.push(err.message));
        page.on('request', (req) => !req.url().startsWith(portal.url) && foreign.push(req.url()));
        await page.goto(pageInfo.path);
        await page.locator('#loading').waitFor({ state: 'detached' });
        if (pageInfo.id === 'usage') await page.locator('.chart canvas').first().waitFor();
        if (pageInfo.id === 'catalogue') await page.locator('section.card').first().waitFor();
        if (pageInfo.id === 'keys') await page.getByRole('heading', { name: 'Your keys' }).waitFor();
        if (pageInfo.id === 'subscriptions') await page.locator('section[data-api]').first().waitFor();
        if (pageInfo.id === 'try-it') {
          await page.getByLabel('API').selectOption('burger');
          await page.getByLabel('Endpoint').selectOption('/burger/v1/index');
          await page.getByLabel(/^base/).selectOption('eur');
          await page.getByLabel('Key secret').fill(secret);
          await page.getByRole('button', { name: 'Send' }).click();
          await shows(page.locator('#result-status'), /^200/);
        }
        const violations = await seriousViolations(page);
        if (violations.length) failures.push(`${pageInfo.id} at ${width}: ${violations.join('; ')}`);
        if (problems.length) failures.push(`${pageInfo.id} at ${width}: console errors ${problems.join('; ')}`);
        if (foreign.length) failures.push(`${pageInfo.id} at ${width}: requests outside the gateway ${foreign.join(', ')}`);
        // No horizontal scrolling of the page itself at either width.
        const overflow = await page.evaluate(() => {
          const root = (globalThis as unknown as BrowserGlobals).document.documentElement;
          return root.scrollWidth - root.clientWidth;
        });
        if (overflow > 0) failures.push(`${pageInfo.id} at ${width}: the page scrolls sideways by ${overflow} px`);
        await screenshot(page, `${pageInfo.id}-${width}`);
        await page.close();
      }
      await signedInContext.close();
      await signedOutContext.close();
      expect(failures).toEqual([]);
    });
  }

  test('when the roll and revoke dialogs are open, then axe finds nothing serious or critical and Escape closes them', async () => {
    const context = await portal.browser.newContext({ viewport: WIDTHS.phone, baseURL: portal.url, storageState: signedIn });
    const page = await context.newPage();
    await page.goto('/portal/keys');
    for (const name of ['Roll production server', 'Revoke production server']) {
      await page.getByRole('button', { name }).click();
      await page.getByRole('dialog').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
    }
    await shows(page.locator('tr', { hasText: 'production server' }), 'Active');
    await context.close();
  });
});
