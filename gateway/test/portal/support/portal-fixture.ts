import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { startGatewayProcess } from '../../support/gateway-process';
import type { GatewayProcess } from '../../support/gateway-process';
import { startApiUpstreams } from './api-upstreams';
import type { ApiUpstreams } from './api-upstreams';
import type { BrowserGlobals } from './browser-globals';
import { signInCode, startSmtpInbox } from '../../support/smtp-inbox';
import { useStarted } from '../../support/use-started';
import type { SmtpInbox } from '../../support/smtp-inbox';

/** Phone and desktop widths every page is checked at. */
export const WIDTHS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
export type WidthName = keyof typeof WIDTHS;

export const SCREENSHOTS = path.resolve(__dirname, '../../../docs/screenshots');
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** A real gateway process (SQLite store in a temp dir), real SMTP, three echo services, one Chromium. */
export interface Portal {
  url: string;
  gateway: GatewayProcess;
  mail: SmtpInbox;
  upstreams: ApiUpstreams;
  browser: Browser;
  /** A fresh browser context (its own cookies) and page at a width; CSP reports and page errors are collected. */
  open(width?: WidthName): Promise<{ context: BrowserContext; page: Page; problems: string[] }>;
  close(): Promise<void>;
}

/** Starts everything a portal test needs; `env` adds to (or overrides) the gateway's environment. */
export async function startPortal(env: Record<string, string> = {}): Promise<Portal> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tollgate-portal-'));
  const mail = await startSmtpInbox();
  const upstreams = await startApiUpstreams();
  const gateway = await startGatewayProcess({
    STORE_PATH: path.join(dir, 'tollgate.db'),
    SMTP_URL: mail.url,
    MAIL_FROM: 'Tollgate <no-reply@tollgate.test>',
    SIGNINS_PER_HOUR: '1000',
    ...upstreams.env,
    ...env,
  });
  // Root in a container has no user namespace for Chromium's sandbox.
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
  const contexts: BrowserContext[] = [];
  return {
    url: gateway.url,
    gateway,
    mail,
    upstreams,
    browser,
    async open(width = 'desktop') {
      const context = await browser.newContext({ viewport: WIDTHS[width], deviceScaleFactor: 1, baseURL: gateway.url });
      contexts.push(context);
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (msg) => {
        if (msg.type() === 'error' && /Content Security Policy|Refused to/i.test(msg.text())) problems.push(msg.text());
      });
      page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
      return { context, page, problems };
    },
    async close() {
      await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
      await browser.close();
      await gateway.stop();
      await Promise.all([mail.close(), upstreams.close()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One portal for a test file, started before its tests and closed after them (see useStarted). */
export function usePortal(env: Record<string, string> = {}): Portal {
  return useStarted(() => startPortal(env));
}

/** Signs in through the page (email, the mailed code) and waits for the Keys page. */
export async function signIn(page: Page, mail: SmtpInbox, email: string): Promise<void> {
  const before = mail.count(email);
  await page.goto('/portal/sign-in');
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  const { code } = signInCode(await mail.next(email, before));
  await page.getByLabel('Code from the mail').fill(code);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL('**/portal/keys');
  await page.getByRole('heading', { name: 'Your keys' }).waitFor();
}

/** Creates a key on the Keys page; returns its secret as shown once. */
export async function createKey(page: Page, name: string): Promise<string> {
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Create key' }).click();
  const secret = page.locator('#new-secret');
  await secret.waitFor();
  return (await secret.textContent()) ?? '';
}

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

// The screenshots docs/portal.md shows are rewritten only when asked (UPDATE_SCREENSHOTS=1): every run takes
// them, but a plain test run must not leave the checkout changed.
const SCREENSHOT_DIR = process.env.UPDATE_SCREENSHOTS === '1' ? SCREENSHOTS : path.join(tmpdir(), 'tollgate-screenshots');

/** A PNG of the viewport (a record for docs/portal.md, never compared); see SCREENSHOT_DIR for where. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled', caret: 'hide' });
}

/** Waits until `locator` (its first match) shows `text`: Playwright's own waiting, no sleeps. */
export async function shows(locator: Locator, text: string | RegExp, timeout = 10_000): Promise<void> {
  try {
    await locator.filter({ hasText: text }).first().waitFor({ timeout });
  } catch {
    const now = await locator.first().textContent({ timeout: 100 }).catch(() => '(absent)');
    throw new Error(`expected ${String(locator)} to show ${String(text)}; it shows: ${now}`);
  }
}
