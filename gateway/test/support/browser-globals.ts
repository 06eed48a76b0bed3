/**
 * The few browser globals the tests' `page.evaluate` callbacks use, typed here because the
 * repository's TypeScript has no DOM library. Use as `globalThis as unknown as BrowserGlobals`
 * inside a callback: the cast is erased, so nothing but the callback itself is sent to the page.
 */
export interface BrowserGlobals {
  document: {
    activeElement: { tagName: string; id: string; textContent: string | null; getAttribute(name: string): string | null } | null;
    documentElement: { scrollWidth: number; clientWidth: number };
    cookie: string;
  };
  localStorage: Record<string, string>;
  sessionStorage: Record<string, string>;
  axe: { run(context: unknown, options: object): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> };
  performance: { getEntriesByName(name: string): { startTime: number }[] };
  PerformanceObserver: new (callback: (list: { getEntriesByName(name: string): { startTime: number }[] }) => void) => { observe(options: object): void };
}
