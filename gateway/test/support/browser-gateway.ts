import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { startGatewayProcess } from './gateway-process';
import type { GatewayProcess } from './gateway-process';
import { startApiUpstreams } from './api-upstreams';
import type { ApiUpstreams } from './api-upstreams';
import type { BrowserGlobals } from './browser-globals';
import { useStarted } from './use-started';
export { seriousViolations } from './axe-check';
import { startSmtpInbox } from './smtp-inbox';
import type { SmtpInbox } from './smtp-inbox';

/** Phone and desktop widths every page is checked at. */
export const WIDTHS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
export type WidthName = keyof typeof WIDTHS;

export const SCREENSHOTS = path.resolve(__dirname, '../../docs/screenshots');

/** A real gateway process (SQLite store in a temp dir), real SMTP, three echo services, one Chromium. */
export interface BrowserGateway {
  url: string;
  /** The temporary directory holding the store file (`tollgate.db`) and the admin token (`admin-token`). */
  dir: string;
  gateway: GatewayProcess;
  mail: SmtpInbox;
  upstreams: ApiUpstreams;
  browser: Browser;
  /** The admin token the gateway keeps beside its store. */
  adminToken(): string;
  /** A fresh browser context (its own cookies) and page at a width; CSP reports and page errors are collected. */
  open(width?: WidthName): Promise<{ context: BrowserContext; page: Page; problems: string[] }>;
  close(): Promise<void>;
}

/** Options of {@link startBrowserGateway}. */
export interface BrowserGatewayOptions {
  /** Adds to (or overrides) the gateway's environment. */
  env?: Record<string, string>;
  /** Fills the store file before the gateway opens it (it is given the file's path). */
  prepare?: (storePath: string) => Promise<void>;
}

/** Starts everything a browser test needs. */
export async function startBrowserGateway(options: BrowserGatewayOptions = {}): Promise<BrowserGateway> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tollgate-browser-'));
  const storePath = path.join(dir, 'tollgate.db');
  await options.prepare?.(storePath);
  const mail = await startSmtpInbox();
  const upstreams = await startApiUpstreams();
  const gateway = await startGatewayProcess({
    STORE_PATH: storePath,
    SMTP_URL: mail.url,
    MAIL_FROM: 'Tollgate <no-reply@tollgate.test>',
    SIGNINS_PER_HOUR: '1000',
    ...upstreams.env,
    ...options.env,
  });
  // Root in a container has no user namespace for Chromium's sandbox.
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
  const contexts: BrowserContext[] = [];
  return {
    url: gateway.url,
    dir,
    gateway,
    mail,
    upstreams,
    browser,
    adminToken: () => readFileSync(path.join(dir, 'admin-token'), 'utf8').trim(),
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

/**
 * One browser gateway for a test file: started before its tests (beforeAll, so a file's own
 * beforeAll registered after this call sees it started) and closed after them. The object returned
 * is filled in when it has started; its fields are not there before.
 */
export function useBrowserGateway(options: BrowserGatewayOptions = {}): BrowserGateway {
  return useStarted(() => startBrowserGateway(options));
}

// The screenshots the docs show are rewritten only when asked (UPDATE_SCREENSHOTS=1): every run takes
// them, but a plain test run must not leave the checkout changed.
const SCREENSHOT_DIR = process.env.UPDATE_SCREENSHOTS === '1' ? SCREENSHOTS : path.join(tmpdir(), 'tollgate-screenshots');

/** A PNG of the viewport, or of one element (a record for the docs, never compared); see SCREENSHOT_DIR for where. */
export async function screenshot(target: Page | Locator, name: string): Promise<void> {
  await target.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled', caret: 'hide' });
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

/** Whether the page scrolls sideways (content wider than the viewport). */
export async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const d = (globalThis as unknown as BrowserGlobals).document.documentElement;
    return d.scrollWidth > d.clientWidth + 1;
  });
}

/** A page node as the overflow check reads it (the repository's TypeScript has no DOM library). */
interface Box {
  tagName: string;
  id: string;
  className: string;
  textContent: string | null;
  parentElement: Box | null;
  getBoundingClientRect(): { right: number; width: number };
}

/**
 * Elements, and runs of text (a long word overflows its box without widening it), reaching past
 * the viewport's right edge that are not inside a box that scrolls or clips sideways: what makes a
 * page wider than a phone. At most ten, as `tag#id.class: right edge` (`"text…" in tag` for text).
 */
export async function widerThanViewport(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const w = globalThis as unknown as {
      innerWidth: number;
      document: { querySelectorAll(s: string): Box[]; createRange(): { selectNodeContents(n: unknown): void; getBoundingClientRect(): { right: number; width: number } }; createTreeWalker(root: unknown, what: number): { nextNode(): Box | null }; body: unknown };
      getComputedStyle(e: Box): { overflowX: string; display: string };
    };
    const clipped = (el: Box | null): boolean => {
      for (let p = el; p; p = p.parentElement) if (p.tagName !== 'HTML' && p.tagName !== 'BODY' && w.getComputedStyle(p).overflowX !== 'visible') return true;
      return false;
    };
    const name = (el: Box): string => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${typeof el.className === 'string' && el.className ? `.${el.className.split(' ').join('.')}` : ''}`;
    const out: string[] = [];
    for (const el of w.document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || w.getComputedStyle(el).display === 'none') continue;
      if (r.right > w.innerWidth + 1 && !clipped(el.parentElement)) out.push(`${name(el)}: ${Math.round(r.right)} px`);
    }
    const texts = w.document.createTreeWalker(w.document.body, 4);
    const range = w.document.createRange();
    for (let text = texts.nextNode(); text && out.length < 10; text = texts.nextNode()) {
      range.selectNodeContents(text);
      const r = range.getBoundingClientRect();
      if (r.width > 0 && r.right > w.innerWidth + 1 && text.parentElement && !clipped(text.parentElement)) out.push(`"${(text.textContent ?? '').trim().slice(0, 30)}" in ${name(text.parentElement)}: ${Math.round(r.right)} px`);
    }
    return out.slice(0, 10);
  });
}

/** What has focus: its tag, id, accessible-ish name. */
export function focused(page: Page): Promise<{ tag: string; id: string; text: string }> {
  return page.evaluate(() => {
    const el = (globalThis as unknown as BrowserGlobals).document.activeElement;
    return { tag: el?.tagName.toLowerCase() ?? '', id: el?.id ?? '', text: (el?.getAttribute('aria-label') ?? el?.textContent ?? '').trim() };
  });
}

/** Presses Tab until the focused element matches (at most 60 presses): what a keyboard user does. */
export async function tabTo(page: Page, what: string, matches: (f: { tag: string; id: string; text: string }) => boolean): Promise<void> {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    if (matches(await focused(page))) return;
  }
  throw new Error(`Tab never reached ${what}`);
}
