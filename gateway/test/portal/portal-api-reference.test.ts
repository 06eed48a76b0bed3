import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import type { Page } from 'playwright-core';
import type { BrowserGlobals } from '../support/browser-globals';
import { focused, scrollsSideways, tabTo } from '../support/browser-gateway';
import { createKey, screenshot, seriousViolations, shows, signIn, usePortal, WIDTHS } from './support/portal-fixture';
import type { WidthName } from './support/portal-fixture';

jest.setTimeout(180_000);

const portal = usePortal();
const APIS = ['burger', 'token', 'logs'] as const;

interface Doc {
  paths: Record<string, { get?: { parameters?: { name: string }[]; responses?: Record<string, { content?: Record<string, { schema?: { properties?: { data?: { example?: unknown } } } }> }> } }>;
}

async function mergedDocument(): Promise<Doc> {
  return (await (await fetch(`${portal.url}/docs/openapi.json`)).json()) as Doc;
}

async function planNames(api: string): Promise<string[]> {
  const body = (await (await fetch(`${portal.url}/dashboard/v1/plans`)).json()) as { data: { api: string; plans: { name: string }[] }[] };
  return body.data.find((e) => e.api === api)?.plans.map((p) => p.name) ?? [];
}

/** Opens a reference page and waits until its view has rendered. */
async function openReference(page: Page, api: string, hash = ''): Promise<void> {
  await page.goto(`/portal/apis/${api}${hash}`);
  await page.locator('#typescript').waitFor();
}

/** Presses an endpoint's Try it on its reference page and waits for Try it to be ready. */
async function tryFromReference(page: Page, api: string, path: string): Promise<void> {
  await openReference(page, api);
  await page.getByRole('link', { name: `Try it: GET ${path}` }).click();
  await page.waitForURL('**/portal/try?**');
  await page.getByRole('button', { name: 'Send' }).waitFor();
}

const texts = (page: Page, selector: string): Promise<string[]> => page.locator(selector).allTextContents();

/** Type-checks TypeScript as a strict ES module for Node with the DOM's fetch: the diagnostics, formatted. */
function typeErrors(source: string): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'tollgate-ts-'));
  try {
    const file = path.join(dir, 'client.ts');
    writeFileSync(file, `declare const process: { env: Record<string, string | undefined> };\n${source}`);
    const program = ts.createProgram([file], { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [], skipLibCheck: true });
    return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('per-API reference pages', () => {
  test('when each API page is opened signed out, then every endpoint of its OpenAPI document is there with its parameters, an example answer, the errors, the quota headers and the plans', async () => {
    const doc = await mergedDocument();
    const examplesShown: [string, unknown, unknown][] = [];
    const { page, problems } = await portal.open('desktop');
    for (const api of APIS) {
      await openReference(page, api);
      expect(await page.title()).toBe(`${api.charAt(0).toUpperCase()}${api.slice(1)} API reference · Tollgate developer portal`);
      const documented = Object.keys(doc.paths).filter((p) => p.startsWith(`/${api}/v1/`) && doc.paths[p]?.get);
      expect(documented.length).toBeGreaterThan(0);
      expect(await texts(page, 'section.endpoint h2')).toEqual(documented.map((p) => `GET ${p}`));
      for (const p of documented) {
        const section = page.locator('section.endpoint', { has: page.getByRole('heading', { name: `GET ${p}`, exact: true }) });
        const names = (doc.paths[p]?.get?.parameters ?? []).map((param) => param.name);
        expect(await section.locator('.params-table tbody th').allTextContents()).toEqual(names);
        const example = JSON.parse((await section.locator('pre[aria-label^="Example answer"]').textContent()) ?? '') as { success: boolean; status: string; data: unknown };
        expect(example).toMatchObject({ success: true, status: 'ok' });
        // A service's real example answer is shown as it is, not a value made from the schema.
        const documented = doc.paths[p]?.get?.responses?.['200']?.content?.['application/json']?.schema?.properties?.data?.example;
        if (documented !== undefined) examplesShown.push([p, example.data, documented]);
        expect(await section.getByRole('link', { name: `Try it: GET ${p}` }).count()).toBe(1);
      }
      const errors = (await texts(page, '.errors-table tbody tr')).join('\n');
      for (const code of ['401UNAUTHORIZED', '402SUBSCRIPTION_REQUIRED', '429RATE_LIMITED, QUOTA_EXCEEDED', '502UPSTREAM_UNAVAILABLE', '504UPSTREAM_TIMEOUT']) expect(errors).toContain(code);
      const envelope = JSON.parse((await page.locator('pre[aria-label="An example error envelope"]').textContent()) ?? '') as Record<string, unknown>;
      expect(envelope).toMatchObject({ data: null, status: 'error', success: false, error: { code: 'QUOTA_EXCEEDED' } });
      expect(Object.keys(envelope).sort()).toEqual(['data', 'error', 'message', 'meta', 'status', 'success']);
      expect(await texts(page, '#quota-headers ~ dl dt')).toEqual(['X-RateLimit-Requests-Limit', 'X-RateLimit-Requests-Remaining', 'X-RateLimit-Requests-Reset', 'RateLimit-Policy', 'RateLimit', 'Retry-After', 'x-request-id']);
      expect(await texts(page, '#plans ~ .scroll tbody th')).toEqual(await planNames(api));
      // Signed out: the header offers sign-in and nothing asked for an account.
      await shows(page.locator('#who'), 'Sign in');
    }
    expect(examplesShown.map(([path]) => path)).toEqual(['/token/v1/price/{token}']);
    for (const [path, shown, documented] of examplesShown) expect([path, shown]).toEqual([path, documented]);
    expect(problems).toEqual([]);
  });

  test("when the logs page's plans are read, then each plan shows its feature gates: topic filtering and how many chains", async () => {
    const { page } = await portal.open('desktop');
    await openReference(page, 'logs');
    const table = page.locator('#plans ~ .scroll table');
    expect(await table.locator('thead th').allTextContents()).toEqual(['Plan', 'Calls a month', 'Calls a second', 'Price a month', 'Topic filtering (topic0–3, event)', 'Chains']);
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent?.trim())));
    expect(rows.map((r) => [r[0], r[4], r[5]])).toEqual([
      ['free', 'Not included', '2 ethereum, base'],
      ['starter', 'Included', '2 ethereum, base'],
      ['pro', 'Included', '3 ethereum, base, gnosis'],
      ['business', 'Included', '3 ethereum, base, gnosis'],
    ]);
    // The catalogue shows the same gates.
    await page.goto('/portal/');
    await shows(page.locator('#api-logs ~ .scroll thead'), 'Topic filtering');
  });

  test('when a link names an endpoint, then the page opens on it with focus there; a link on the page moves to it without loading the page again', async () => {
    const { page } = await portal.open('phone');
    await openReference(page, 'logs', '#get-v1-logs');
    await page.waitForFunction(() => (globalThis as unknown as BrowserGlobals).document.activeElement?.id === 'get-v1-logs');
    const inView = () => page.locator('#get-v1-logs').evaluate((h) => { const r = h.getBoundingClientRect(); return r.top > -1 && r.top < (globalThis as unknown as { innerHeight: number }).innerHeight; });
    expect(await inView()).toBe(true);

    await openReference(page, 'token');
    await page.locator('section.endpoint').first().evaluate((s) => s.setAttribute('data-marker', 'same page'));
    await page.getByRole('navigation', { name: 'On this page' }).getByRole('link', { name: /GET \/token\/v1\/meta/ }).click();
    await page.waitForURL('**/portal/apis/token#get-v1-meta');
    expect(await page.locator('section.endpoint[data-marker="same page"]').count()).toBe(1);
    const top = await page.locator('#get-v1-meta').evaluate((h) => h.getBoundingClientRect().top);
    // At the top of the viewport, give or take the sub-pixel rounding of the scroll.
    expect(Math.abs(top)).toBeLessThan(1);
  });

  test("when an endpoint's Try it is pressed, then Try it opens on that endpoint with its example values filled in, and the call sends them", async () => {
    const { page } = await portal.open('desktop');
    await signIn(page, portal.mail, 'reference-reader@example.com');
    const secret = await createKey(page, 'reference');
    await tryFromReference(page, 'logs', '/logs/v1/logs');
    expect(await page.locator('#try-api').inputValue()).toBe('logs');
    expect(await page.locator('#try-path').inputValue()).toBe('/logs/v1/logs');
    const address = `0x${'0'.repeat(40)}`;
    expect(await page.locator('[data-in][name="chain"]').inputValue()).toBe('ethereum');
    expect(await page.locator('[data-in][name="address"]').inputValue()).toBe(address);
    expect(await page.locator('#snippet').textContent()).toContain(`/logs/v1/logs?chain=ethereum&address=${address}`);
    await page.getByLabel('Key secret').fill(secret);
    const before = portal.upstreams.calls.logs?.length ?? 0;
    await page.getByRole('button', { name: 'Send' }).click();
    await shows(page.locator('#result-status'), /^200/);
    expect(portal.upstreams.calls.logs?.slice(before)).toEqual([`/v1/logs?chain=ethereum&address=${address}`]);

    // A path parameter is filled into its field too.
    await tryFromReference(page, 'burger', '/burger/v1/countries/{country}');
    expect(await page.locator('[data-in][name="country"]').inputValue()).toBe('string');
  });

  test('when the catalogue is searched, then it finds endpoints by path, words or parameter and each hit opens the endpoint on its page', async () => {
    const { page } = await portal.open('desktop');
    await page.goto('/portal/');
    const search = page.getByLabel('Search endpoints');
    await search.fill('search_width');
    await shows(page.locator('#endpoint-search-status'), '1 endpoint match.');
    expect(await texts(page, '#endpoint-results a')).toEqual(['GET /token/v1/price/{token}']);
    await search.fill('logs contract');
    expect(await texts(page, '#endpoint-results a')).toEqual(['GET /logs/v1/logs']);
    await search.fill('v1');
    await shows(page.locator('#endpoint-search-status'), '5 endpoints match.');
    await search.fill('no such thing');
    await shows(page.locator('#endpoint-search-status'), 'No endpoint matches.');
    await search.fill('price');
    await page.locator('#endpoint-results').getByRole('link', { name: 'GET /token/v1/price/{token}' }).click();
    await page.waitForURL('**/portal/apis/token#get-v1-price-token');
    await page.waitForFunction(() => (globalThis as unknown as BrowserGlobals).document.activeElement?.id === 'get-v1-price-token');
  });

  test('when a language is chosen, then every endpoint shows its code in it; Copy puts the code on the clipboard; the TypeScript snippet and client type-check', async () => {
    const { page, context } = await portal.open('desktop');
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openReference(page, 'token');
    const price = page.locator('section.endpoint').first();
    const code = price.locator('pre.snippet');
    const expected: Record<string, RegExp> = {
      'curl': /^curl -i -H "x-tollgate-key: \$TOLLGATE_KEY" '.*\/token\/v1\/price\/string'$/,
      'JavaScript fetch': /await fetch\(".*\/token\/v1\/price\/string"/,
      'Python requests': /requests\.get\(\n {4}".*\/token\/v1\/price\/string"/,
      'Go net/http': /http\.NewRequest\(http\.MethodGet, ".*\/token\/v1\/price\/string", nil\)/,
      'TypeScript, typed': /export async function getV1PriceToken\(params: GetV1PriceTokenParams, key: string\): Promise<GetV1PriceTokenResponse>/,
    };
    for (const [label, pattern] of Object.entries(expected)) {
      await price.getByLabel(label, { exact: true }).check();
      expect(await code.textContent()).toMatch(pattern);
      // The other endpoint follows the same choice.
      expect(await page.locator('section.endpoint').nth(1).getByLabel(label, { exact: true }).isChecked()).toBe(true);
      await price.getByRole('button', { name: 'Copy code' }).click();
      await shows(price.getByRole('status'), 'Code copied to the clipboard.');
      expect(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())).toBe(await code.textContent());
    }
    const snippet = (await code.textContent()) ?? '';
    expect(snippet).toContain('decimals: number | null;');
    expect(snippet).toContain('chain: "ethereum" | "base";');
    expect(snippet).toContain('"as-of"?: string;');
    expect(typeErrors(snippet)).toEqual([]);
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download token-client.ts' }).click();
    const client = await (await download).path();
    const text = readFileSync(client, 'utf8');
    expect(text).toContain('export async function getV1Meta(');
    expect(typeErrors(text)).toEqual([]);
  });

  for (const width of Object.keys(WIDTHS) as WidthName[]) {
    test(`when each reference page is opened at ${WIDTHS[width].width} px, then axe finds nothing serious or critical and the page does not scroll sideways`, async () => {
      const { page, problems } = await portal.open(width);
      for (const api of APIS) {
        await openReference(page, api);
        await page.locator('#typescript ~ details summary').click();
        expect([api, await seriousViolations(page)]).toEqual([api, []]);
        expect([api, await scrollsSideways(page)]).toEqual([api, false]);
        await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
        await screenshot(page, `api-reference-${api}-${width}`);
      }
      await page.goto('/portal/');
      await page.getByLabel('Search endpoints').fill('price');
      expect(await seriousViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    });
  }

  test('when a reader uses only the keyboard, then they search, reach the endpoint, pick a language, copy and open Try it', async () => {
    const { page, context } = await portal.open('desktop');
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/portal/');
    await page.getByLabel('Search endpoints').waitFor();
    await tabTo(page, 'the search field', (f) => f.id === 'endpoint-search');
    await page.keyboard.type('contract');
    await page.keyboard.press('Enter');
    expect(await focused(page)).toMatchObject({ tag: 'a', text: 'GET /logs/v1/logs' });
    await page.keyboard.press('Enter');
    await page.waitForURL('**/portal/apis/logs#get-v1-logs');
    await page.waitForFunction(() => (globalThis as unknown as BrowserGlobals).document.activeElement?.id === 'get-v1-logs');
    await tabTo(page, 'the Try it link', (f) => f.text === 'Try it: GET /logs/v1/logs');
    await tabTo(page, 'the first language', (f) => f.tag === 'input');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await page.locator('section.endpoint').first().getByLabel('Python requests').isChecked()).toBe(true);
    await tabTo(page, 'the copy button', (f) => f.text === 'Copy code');
    await page.keyboard.press('Enter');
    await shows(page.locator('section.endpoint').first().getByRole('status'), 'Code copied');
    await page.keyboard.down('Shift');
    await tabTo(page, 'the Try it link again', (f) => f.text === 'Try it: GET /logs/v1/logs');
    await page.keyboard.up('Shift');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/portal/try?**');
    await page.getByRole('button', { name: 'Send' }).waitFor();
    expect(await page.locator('[data-in][name="chain"]').inputValue()).toBe('ethereum');
  });
});
