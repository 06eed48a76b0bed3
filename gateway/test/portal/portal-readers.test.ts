import type { Page } from 'playwright-core';
import { WIDTHS, seriousViolations, signIn, usePortal } from './support/portal-fixture';
import type { WidthName } from './support/portal-fixture';
import { widerThanViewport } from '../support/browser-gateway';

// What a customer reads (issue 40): the Webhooks page's checkboxes in one column, burger named as
// the README and /docs name it, the active tab in view on a phone; at 1280 and 390 px, axe clean.
jest.setTimeout(240_000);

const portal = usePortal();

/** Where each checkbox of a group and its label start, and how wide they are. */
async function checkboxLayout(page: Page, group: string): Promise<{ boxes: { x: number; width: number }[]; labels: { x: number; width: number }[] }> {
  const fieldset = page.getByRole('group', { name: group });
  await fieldset.locator('input[type="checkbox"]').first().waitFor();
  const read = (selector: string) => fieldset.locator(selector).evaluateAll((nodes) => nodes.map((n) => (n as unknown as { getBoundingClientRect(): { x: number; width: number } }).getBoundingClientRect()).map((r) => ({ x: Math.round(r.x), width: Math.round(r.width) })));
  return { boxes: await read('input[type="checkbox"]'), labels: await read('label') };
}

/** Cells of the parameter tables whose single word the browser broke over two lines ("Requi/red"). */
async function brokenWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type Node = { textContent: string | null; getBoundingClientRect(): { width: number }; closest(s: string): Node | null };
    const g = globalThis as unknown as {
      document: { querySelectorAll(s: string): Node[]; createRange(): { selectNodeContents(n: unknown): void; getClientRects(): { length: number } }; createTreeWalker(root: unknown, what: number): { nextNode(): Node | null } };
    };
    const out: string[] = [];
    for (const cell of g.document.querySelectorAll('.params-table th, .params-table td')) {
      // A visually hidden header (the stacked layout's) is one pixel wide on purpose.
      const head = cell.closest('thead');
      if (head && head.getBoundingClientRect().width < 8) continue;
      const texts = g.document.createTreeWalker(cell, 4);
      for (let text = texts.nextNode(); text; text = texts.nextNode()) {
        const word = (text.textContent ?? '').trim();
        // One word of letters (a name, a type, "required", "query"); a code value may break.
        if (!/^[A-Za-z_-]{4,}$/.test(word)) continue;
        const range = g.document.createRange();
        range.selectNodeContents(text);
        if (range.getClientRects().length > 1) out.push(word);
      }
    }
    return [...new Set(out)];
  });
}

describe.each(Object.keys(WIDTHS) as WidthName[])('what a customer reads at %s width', (width) => {
  test('when each API reference page is read, then no word of its parameter tables is broken, no internal header or "∞" shows, nothing is wider than the screen, and axe finds nothing serious', async () => {
    const { page, problems } = await portal.open(width);
    for (const api of ['burger', 'token', 'logs']) {
      await page.goto(`/portal/apis/${api}`);
      await page.locator('#typescript').waitFor();
      await page.locator('.params-table').first().waitFor();
      expect({ api, broken: await brokenWords(page) }).toEqual({ api, broken: [] });
      // All of it, what a closed <details> holds too (the client's comments).
      const text = (await page.locator('main').textContent()) ?? '';
      expect({ api, internal: text.match(/x-tollgate-(?!key)[a-z-]+/gi) ?? [], infinite: text.includes('∞') }).toEqual({ api, internal: [], infinite: false });
      expect({ api, wider: await widerThanViewport(page) }).toEqual({ api, wider: [] });
      expect({ api, axe: await seriousViolations(page) }).toEqual({ api, axe: [] });
    }
    expect(problems).toEqual([]);
  });

  test('when the Webhooks page is open, then every event checkbox of both groups sits in one column with its label beside it, and axe finds nothing serious', async () => {
    const { page, problems } = await portal.open(width);
    await signIn(page, portal.mail, `readers-${width}@example.com`);
    await page.goto('/portal/webhooks');
    for (const group of ['Events to send', 'Mail me when']) {
      const { boxes, labels } = await checkboxLayout(page, group);
      expect(boxes.length).toBeGreaterThan(3);
      expect({ group, columns: new Set(boxes.map((b) => b.x)).size, labelColumns: new Set(labels.map((l) => l.x)).size }).toEqual({ group, columns: 1, labelColumns: 1 });
      // A box is a box, not a field's width; its label starts just after it.
      for (const [i, box] of boxes.entries()) {
        expect(box.width).toBeLessThan(32);
        expect(labels[i]!.x - (box.x + box.width)).toBeLessThan(16);
      }
    }
    expect(await widerThanViewport(page)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  test('when the catalogue is open, then burger is The Economist’s Big Mac index, as the README and /docs call it', async () => {
    const { page } = await portal.open(width);
    await page.goto('/portal/');
    const main = page.locator('main');
    await main.getByText('The Economist’s Big Mac index').first().waitFor();
    expect(await main.innerText()).not.toMatch(/burger-price/i);
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('when a page whose tab is last in the navigation is open, then that tab is within the navigation’s visible part', async () => {
    const { page } = await portal.open(width);
    for (const path of ['/portal/try', '/portal/webhooks', '/portal/']) {
      await page.goto(path);
      const current = page.locator('header nav a[aria-current="page"]');
      await current.waitFor();
      await page.waitForFunction(() => {
        const g = globalThis as unknown as { document: { querySelector(s: string): { getBoundingClientRect(): { left: number; right: number } } | null } };
        const nav = g.document.querySelector('header nav')!.getBoundingClientRect();
        const tab = g.document.querySelector('header nav a[aria-current="page"]')!.getBoundingClientRect();
        return tab.left >= nav.left - 1 && tab.right <= nav.right + 1;
      }, undefined, { timeout: 5_000 });
    }
  });
});
