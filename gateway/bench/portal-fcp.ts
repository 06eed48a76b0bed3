// First contentful paint of every portal page in Chromium, and each page's own script and style
// weight (gzipped). Run from gateway/: node --conditions=development --import tsx bench/portal-fcp.ts
// ROUNDS (default 9) sets how many cold loads per page; the median is reported against 300 ms.
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import type { BrowserContext } from 'playwright-core';
import { PORTAL_PAGES, apiReferencePages } from '../src/portal/portal-pages';
import { eventually } from '../test/support/eventually';
import { startGatewayProcess } from '../test/support/gateway-process';
import { startApiUpstreams } from '../test/support/api-upstreams';
import type { BrowserGlobals } from '../test/support/browser-globals';

const ROUNDS = Number(process.env.ROUNDS ?? 9);
// Every page, and one API reference page: its first paint is its shell's, whatever the document's size.
const PAGES = [...PORTAL_PAGES, ...apiReferencePages(['logs'])];
const TARGET_MS = 300;

interface Weight {
  js: number;
  css: number;
  vendor: number;
  /** Own script and style bytes as served (the gateway does not compress; a proxy in front may). */
  raw: number;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? (s[(s.length - 1) / 2] as number) : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} kB`;

async function main(): Promise<void> {
  const upstreams = await startApiUpstreams();
  // No SMTP_URL: the sign-in mail is written to the gateway's log, where the bench reads the code.
  const gateway = await startGatewayProcess({ ...upstreams.env, SIGNINS_PER_HOUR: '1000' });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
  try {
    const email = 'bench@example.com';
    await fetch(`${gateway.url}/dashboard/v1/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
    // The log is written in batches: wait for the mail's line.
    const mailLine = () => gateway.output.find((l) => l.includes('"mail"') && l.includes(email));
    await eventually(async () => mailLine() !== undefined, 'the sign-in mail in the log');
    const line = mailLine();
    const code = line ? /\b(\d{6})\b/.exec((JSON.parse(line) as { mail: { text: string } }).mail.text)?.[1] : undefined;
    if (!code) throw new Error('no sign-in code in the gateway log');
    const verify = await fetch(`${gateway.url}/dashboard/v1/sign-in/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, code }) });
    const cookie = /tg_session=([^;]+)/.exec(verify.headers.get('set-cookie') ?? '')?.[1];
    if (!cookie) throw new Error(`sign-in failed: ${verify.status}`);

    const fcp: Record<string, number[]> = {};
    const weights: Record<string, Weight> = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (const page of PAGES) {
        // A new context per load: an empty cache, as a first visit.
        const context: BrowserContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        if (page.id !== 'sign-in') await context.addCookies([{ name: 'tg_session', value: cookie, url: gateway.url }]);
        const tab = await context.newPage();
        const weight: Weight = { js: 0, css: 0, vendor: 0, raw: 0 };
        const bodies: Promise<void>[] = [];
        if (round === 0) {
          tab.on('response', (res) => {
            const url = new URL(res.url());
            const kind = url.pathname.startsWith('/portal/vendor/') ? 'vendor' : url.pathname.endsWith('.js') ? 'js' : url.pathname.endsWith('.css') ? 'css' : undefined;
            if (kind)
              bodies.push(
                res.body().then((b) => {
                  weight[kind] += gzipSync(b, { level: 9 }).length;
                  if (kind !== 'vendor') weight.raw += b.length;
                }),
              );
          });
        }
        await tab.goto(`${gateway.url}${page.path}`, { waitUntil: 'load' });
        const paint = await tab.evaluate(
          () =>
            new Promise<number>((resolve) => {
              const w = globalThis as unknown as BrowserGlobals;
              const entry = w.performance.getEntriesByName('first-contentful-paint')[0];
              if (entry) return resolve(entry.startTime);
              new w.PerformanceObserver((list) => resolve(list.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN)).observe({ type: 'paint', buffered: true });
            }),
        );
        (fcp[page.id] ??= []).push(paint);
        if (round === 0) {
          await tab.waitForLoadState('networkidle');
          await Promise.all(bodies);
          weights[page.id] = weight;
        }
        await context.close();
      }
    }
    const rows = PAGES.map((page) => {
      const times = fcp[page.id] as number[];
      const w = weights[page.id] as Weight;
      return {
        page: page.path,
        'FCP median ms': Math.round(median(times)),
        'min–max ms': `${Math.round(Math.min(...times))}–${Math.round(Math.max(...times))}`,
        'vs 300 ms': median(times) < TARGET_MS ? 'met' : 'NOT met',
        'own JS gz': kb(w.js),
        'own CSS gz': kb(w.css),
        'own total gz': kb(w.js + w.css),
        'own total raw': kb(w.raw),
        'uPlot gz (vendor)': w.vendor ? kb(w.vendor) : '-',
      };
    });
    console.log(`portal first contentful paint, ${ROUNDS} cold loads per page (new browser context each), Chromium ${browser.version()}, 1280×800`);
    console.table(rows);
  } finally {
    await browser.close();
    await gateway.stop();
    await upstreams.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
