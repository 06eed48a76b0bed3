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

describe.each(Object.keys(WIDTHS) as WidthName[])('what a customer reads at %s width', (width) => {
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
