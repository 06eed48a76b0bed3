import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import type { BrowserGlobals } from './browser-globals';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page as it is now (rule id: first offending nodes). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern (a <script> tag would be refused).
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const w = globalThis as unknown as BrowserGlobals;
    const result = await w.axe.run(w.document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.targets.join(', ')}`);
}
