import type { BrowserContext } from 'playwright-core';
import { openSqliteStores } from '../../src/data/sqlite/sqlite-stores';
import { WIDTHS, scrollsSideways, seriousViolations, useBrowserGateway, widerThanViewport } from '../support/browser-gateway';
import type { WidthName } from '../support/browser-gateway';
import { signInWithToken } from './support/operator-sign-in';
import { seedAccounts } from './support/seed-accounts';
import type { SeededAccount } from './support/seed-accounts';

// What an operator reads (issue 40): the admin reference's Markdown rendered, the account page
// within a phone's width, the overview's error rate explained; at 1280 and 390 px, axe clean.
jest.setTimeout(300_000);

let target: SeededAccount;
let longNamed: string;
let runner: { id: string; secret: string };
const app = useBrowserGateway({
  prepare: async (file) => {
    const opened = openSqliteStores({ path: file, clock: Date.now });
    try {
      target = await seedAccounts(opened.stores.accountStore, 3, 1);
      // A long name and a second key: what widens the keys table.
      const made = await opened.stores.accountStore.createKey(target.accountId, { name: 'continuous-integration-runner-eu-west', expiresAtMs: Date.now() + 30 * 86_400_000 });
      runner = { id: made!.record.id, secret: made!.key };
      // An address and a key name of one long word each, as real ones are.
      const long = await opened.stores.accountStore.createAccount({ email: 'procurement.department.invoices@very-long-company-name.example.com' });
      await opened.stores.accountStore.createKey(long.id, { name: 'production_backend_service_reporting_pipeline' });
      longNamed = long.id;
    } finally {
      opened.close();
    }
  },
});

let signedIn: Awaited<ReturnType<BrowserContext['storageState']>>;
beforeAll(async () => {
  // Plans granted by hand: audit entries with details, a comp among the subscriptions.
  const { page, context, csrf } = await signInWithToken(app);
  await page.evaluate(
    async ([id, token, keyId]) => {
      const headers = { 'content-type': 'application/json', 'x-csrf-token': token! };
      await fetch(`/admin/console/v1/accounts/${id}/subscriptions/burger`, { method: 'PUT', headers, body: JSON.stringify({ plan: 'starter', comp: true }) });
      await fetch(`/admin/console/v1/accounts/${id}/subscriptions/logs`, { method: 'PUT', headers, body: JSON.stringify({ plan: 'business' }) });
      await fetch(`/admin/console/v1/keys/${keyId}/revoke`, { method: 'POST', headers });
    },
    [target.accountId, csrf, runner.id],
  );
  for (const path of ['/burger/v1/index', '/burger/v1/countries/ch', '/logs/v1/chains']) await (await fetch(`${app.url}${path}`, { headers: { 'x-tollgate-key': target.secret } })).arrayBuffer();
  signedIn = await context.storageState();
  await context.close();
});

describe.each(Object.keys(WIDTHS) as WidthName[])('what an operator reads at %s width', (width) => {
  let context: BrowserContext;
  beforeEach(async () => {
    context = await app.browser.newContext({ viewport: WIDTHS[width], deviceScaleFactor: 1, baseURL: app.url, storageState: signedIn });
  });
  afterEach(() => context.close());

  it('when /admin/docs is read, then its descriptions show code as code, never raw backticks, and axe finds nothing serious', async () => {
    const page = await context.newPage();
    await page.goto('/admin/docs');
    await page.locator('.operation').first().waitFor();
    expect(await page.locator('main').innerText()).not.toContain('`');
    // The search route's description names its POST sibling in code.
    await page.locator('.operation p.muted code', { hasText: 'POST /admin/v1/accounts/search' }).first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(await widerThanViewport(page)).toEqual([]);
  });

  it.each([
    ['with plans, calls and audit entries', () => target.accountId],
    ['with a long address and key name', () => longNamed],
  ])('when an account’s page is opened (%s), then nothing on it is wider than the screen, and axe finds nothing serious', async (_what, id) => {
    const page = await context.newPage();
    await page.goto(`/admin/accounts/${id()}`);
    await page.locator('#keys').waitFor();
    await page.locator('.chart canvas').first().waitFor();
    expect(await widerThanViewport(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('when a key’s change is in the account’s audit log, then it names the key as the Keys table does, by its secret’s own start and end', async () => {
    const page = await context.newPage();
    await page.goto(`/admin/accounts/${target.accountId}`);
    const shown = (await page.locator(`#keys tr[data-key-id="${runner.id}"] td[data-label="Key"]`).innerText()).trim();
    expect(shown).toBe(`${runner.secret.slice(0, 10)}…${runner.secret.slice(-4)}`);
    const on = page.locator('#account-audit tr[data-action="key.revoke"] td[data-label="On"]');
    expect((await on.innerText()).trim()).toBe(shown);
    expect(await on.locator('span').getAttribute('title')).toBe(runner.id);
  });

  it('when the overview is opened, then its error rate says what it counts, tied to the column', async () => {
    const page = await context.newPage();
    await page.goto('/admin/');
    await page.locator('#calls-today').waitFor();
    const meaning = page.locator('#error-rate-meaning');
    expect(await meaning.isVisible()).toBe(true);
    expect(await meaning.innerText()).toMatch(/^Error rate: .*server errors.*refunded.*out of every call counted/);
    expect(await page.locator('#calls-today th', { hasText: 'Error rate' }).getAttribute('aria-describedby')).toBe('error-rate-meaning');
    expect(await widerThanViewport(page)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
