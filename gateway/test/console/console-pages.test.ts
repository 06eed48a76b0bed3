import type { BrowserContext, Page } from 'playwright-core';
import { PAGE_CSP } from '../../src/http/page-headers';
import { openSqliteStores } from '../../src/data/sqlite/sqlite-stores';
import { WIDTHS, screenshot, scrollsSideways, seriousViolations, shows, useBrowserGateway } from '../support/browser-gateway';
import type { WidthName } from '../support/browser-gateway';
import { eventually } from '../support/eventually';
import { signInWithToken } from './support/operator-sign-in';
import { seedAccounts } from './support/seed-accounts';
import type { SeededAccount } from './support/seed-accounts';

// Every console page in Chromium at desktop and phone widths: axe, the CSP, nothing from outside
// the gateway, no sideways scrolling, and a screenshot for the docs.
jest.setTimeout(300_000);

let target: SeededAccount;
const app = useBrowserGateway({
  env: { OPERATOR_EMAILS: 'ops@example.com' },
  prepare: async (file) => {
    const opened = openSqliteStores({ path: file, clock: Date.now });
    try {
      target = await seedAccounts(opened.stores.accountStore, 40, 12);
      await opened.stores.accountStore.createKey(target.accountId, { name: 'staging', expiresAtMs: Date.now() + 30 * 86_400_000 });
    } finally {
      opened.close();
    }
  },
});

let signedIn: Awaited<ReturnType<BrowserContext['storageState']>>;
beforeAll(async () => {
  // An operator who granted a plan (so the account has a comp, calls and audit entries to show).
  const { page, context, csrf } = await signInWithToken(app);
  await page.evaluate(
    async ([id, token]) => fetch(`/admin/console/v1/accounts/${id}/subscriptions/burger`, { method: 'PUT', headers: { 'content-type': 'application/json', 'x-csrf-token': token! }, body: JSON.stringify({ plan: 'starter' }) }),
    [target.accountId, csrf],
  );
  for (const path of ['/burger/v1/index', '/burger/v1/index?base=eur', '/burger/v1/countries/ch', '/token/v1/meta']) await (await fetch(`${app.url}${path}`, { headers: { 'x-tollgate-key': target.secret } })).arrayBuffer();
  await eventually(async () => (await page.evaluate(async (id) => (await (await fetch(`/admin/console/v1/accounts/${id}`)).json()) as { data: { history: { days: { counts: Record<string, number> }[] } } }, target.accountId)).data.history.days.some((d) => (d.counts['2xx'] ?? 0) > 0), 'the calls in the account’s history');
  signedIn = await context.storageState();
  await context.close();
});

/** What a callback reads of focus in the page (the repository's TypeScript has no DOM library). */
interface FocusGlobals {
  document: { activeElement: { closest(selector: string): unknown } | null };
}

/** Every page, where it is, and what shows once its view has rendered. */
const PAGES: { id: string; path: () => string; ready: string; signedOut?: true }[] = [
  { id: 'overview', path: () => '/admin/', ready: '#top-accounts' },
  { id: 'accounts', path: () => '/admin/accounts', ready: '#accounts' },
  { id: 'search', path: () => `/admin/accounts?q=${encodeURIComponent(`${target.prefix}…${target.last4}`)}`, ready: '#search-results' },
  { id: 'account', path: () => `/admin/accounts/${target.accountId}`, ready: '#account-audit' },
  { id: 'audit', path: () => '/admin/audit', ready: '#audit' },
  { id: 'docs', path: () => '/admin/docs', ready: '.operation' },
  { id: 'sign-in', path: () => '/admin/sign-in', ready: '#email', signedOut: true },
  { id: 'not-found', path: () => '/admin/nowhere', ready: 'main p' },
];

/** Opens a page in a context and waits for its view; every request it makes must go to the gateway. */
async function openPage(context: BrowserContext, path: string, ready: string): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy|Refused to/i.test(msg.text())) problems.push(msg.text());
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('request', (req) => {
    if (!req.url().startsWith(app.url) && !req.url().startsWith('data:')) problems.push(`request outside the gateway: ${req.url()}`);
  });
  const res = await page.goto(path);
  expect(res?.headers()['content-security-policy']).toBe(PAGE_CSP);
  await page.locator(ready).first().waitFor();
  return { page, problems };
}

describe('every console page', () => {
  for (const [width, colorScheme] of [...(Object.keys(WIDTHS) as WidthName[]).map((w) => [w, 'light'] as const), ['phone', 'dark'] as const, ['desktop', 'dark'] as const]) {
    it(`when each page is opened at ${WIDTHS[width].width} px in the ${colorScheme} theme, then it renders from the gateway alone, axe finds nothing serious or critical, it does not scroll sideways, and a screenshot is kept`, async () => {
      const operator = await app.browser.newContext({ viewport: WIDTHS[width], deviceScaleFactor: 1, baseURL: app.url, storageState: signedIn, colorScheme });
      const visitor = await app.browser.newContext({ viewport: WIDTHS[width], deviceScaleFactor: 1, baseURL: app.url, colorScheme });
      const failures: string[] = [];
      try {
        for (const info of PAGES) {
          const { page, problems } = await openPage(info.signedOut ? visitor : operator, info.path(), info.ready);
          if (info.id === 'account') await page.locator('.chart canvas').first().waitFor();
          const violations = await seriousViolations(page);
          if (violations.length) failures.push(`${info.id}: ${violations.join('; ')}`);
          if (await scrollsSideways(page)) failures.push(`${info.id}: scrolls sideways at ${WIDTHS[width].width} px`);
          failures.push(...problems.map((p) => `${info.id}: ${p}`));
          if (colorScheme === 'light') await screenshot(page, `console-${info.id}-${width}`);
          await page.close();
        }
      } finally {
        await Promise.all([operator.close(), visitor.close()]);
      }
      expect(failures).toEqual([]);
    });

    it(`when a confirmation dialog is open at ${WIDTHS[width].width} px in the ${colorScheme} theme, then axe passes it, focus is inside, and Escape closes it with nothing changed`, async () => {
      const operator = await app.browser.newContext({ viewport: WIDTHS[width], deviceScaleFactor: 1, baseURL: app.url, storageState: signedIn, colorScheme });
      try {
        const { page, problems } = await openPage(operator, `/admin/accounts/${target.accountId}`, '#keys');
        for (const button of ['Suspend…', 'Grant plan…', 'Revoke staging']) {
          await page.getByRole('button', { name: button, exact: true }).click();
          const dialog = page.getByRole('dialog');
          await dialog.waitFor();
          expect(await seriousViolations(page)).toEqual([]);
          expect(await page.evaluate(() => Boolean((globalThis as unknown as FocusGlobals).document.activeElement?.closest('dialog')))).toBe(true);
          if (button === 'Suspend…' && colorScheme === 'light') await screenshot(page, `console-dialog-${width}`);
          await page.keyboard.press('Escape');
          await dialog.waitFor({ state: 'detached' });
        }
        await shows(page.locator('#status'), 'active');
        expect(problems).toEqual([]);
      } finally {
        await operator.close();
      }
    });
  }
});
