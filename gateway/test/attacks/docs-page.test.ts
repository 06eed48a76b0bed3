import { PAGE_CSP } from '../../src/http/page-headers';
import { eventually } from '../support/eventually';
import { usePortal } from '../portal/support/portal-fixture';
import type { BrowserGlobals } from '../support/browser-globals';

// Issue 20, item 3: /docs kept what was typed into Authorize in the browser's storage, could be framed, and had no CSP.
// The page does not depend on the store: one real gateway process (SQLite) in Chromium.

jest.setTimeout(180_000);

const portal = usePortal();
const SECRET = 'tg_typed-into-authorize-0123456789';

type SwaggerWindow = BrowserGlobals & { ui: { authSelectors: { authorized(): { toJS(): Record<string, unknown> } } } };

describe('/docs in Chromium', () => {
  test('when the reference and its assets are served, then they carry the pages’ CSP and frame protection', async () => {
    for (const path of ['/docs', '/docs/', '/docs/init.js', '/docs/openapi.json', '/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-ui.css']) {
      const res = await fetch(`${portal.url}${path}`);
      await res.arrayBuffer();
      expect([path, res.status, res.headers.get('content-security-policy'), res.headers.get('x-frame-options')]).toEqual([path, 200, PAGE_CSP, 'DENY']);
    }
  });

  test('when a key is typed into Authorize, then the page uses it with no CSP report, keeps it nowhere in the browser, and forgets it on reload', async () => {
    const { page, problems } = await portal.open('desktop');
    await page.goto('/docs');
    await page.getByRole('button', { name: 'Authorize' }).first().click();
    // The first form is the key header's, the second the admin token's.
    const forms = page.locator('.modal-ux .auth-container form');
    await forms.nth(0).locator('input').fill(SECRET);
    await forms.nth(0).getByRole('button', { name: 'Apply credentials' }).click();
    await forms.nth(1).locator('input').fill(`${SECRET}-admin`);
    await forms.nth(1).getByRole('button', { name: 'Apply credentials' }).click();
    const authorized = () => page.evaluate(() => JSON.stringify((globalThis as unknown as SwaggerWindow).ui.authSelectors.authorized().toJS()));
    expect(await authorized()).toContain(`${SECRET}-admin`);
    const kept = await page.evaluate(() => {
      const w = globalThis as unknown as BrowserGlobals;
      return JSON.stringify({ local: { ...w.localStorage }, session: { ...w.sessionStorage }, cookie: w.document.cookie });
    });
    expect(kept).not.toContain(SECRET);
    await page.reload();
    await page.getByRole('button', { name: 'Authorize' }).first().waitFor();
    expect(await authorized()).toBe('{}');
    expect(problems).toEqual([]);
  });

  test('when another site frames /docs, then the browser refuses to show it', async () => {
    const { page } = await portal.open('desktop');
    // A page of no origin of the gateway's frames it.
    await page.goto('about:blank');
    await page.setContent(`<iframe src="${portal.url}/docs" title="framed"></iframe>`);
    const framed = () => page.frames().find((f) => f !== page.mainFrame());
    // Chromium replaces a frame it refuses to show with its error page.
    await eventually(async () => framed()?.url() === 'chrome-error://chromewebdata/', 'the refusal to frame /docs');
    expect(await framed()!.locator('#swagger-ui').count()).toBe(0);
  });
});
