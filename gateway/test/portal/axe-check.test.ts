import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { seriousViolations } from '../support/axe-check';
import type { BrowserGlobals } from '../support/browser-globals';

// Every page test asserts the accessibility check finds nothing; here it is shown to find what it
// should, on a page made to break rules of every impact: the serious and critical ones, no others.
const BROKEN = `<!doctype html><html lang="en"><head><title>t</title></head><body>
<h1>Title</h1><h3>skipped a level</h3>
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
<button></button>
<p style="color:#bbb;background:#fff">faint text</p>
</body></html>`;

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
});
afterAll(() => browser.close());

describe('the accessibility check', () => {
  it('when a page breaks rules of every impact, then it reports the serious and critical violations axe finds, and not the moderate ones', async () => {
    const page = await browser.newPage();
    try {
      await page.setContent(BROKEN);
      const reported = await seriousViolations(page);
      const everything = await page.evaluate(async () => {
        const w = globalThis as unknown as BrowserGlobals;
        return (await w.axe.run(w.document, { resultTypes: ['violations'] })).violations.map((v) => `${v.id} (${v.impact})`);
      });
      expect(everything).toEqual(expect.arrayContaining(['region (moderate)', 'heading-order (moderate)']));
      const serious = everything.filter((v) => / \((serious|critical)\)$/.test(v)).sort();
      expect(serious).toEqual(['button-name (critical)', 'color-contrast (serious)', 'image-alt (critical)']);
      expect(reported.map((v) => v.replace(/: .*$/, '')).sort()).toEqual(serious);
    } finally {
      await page.close();
    }
  });
});
