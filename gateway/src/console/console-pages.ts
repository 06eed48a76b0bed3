import { renderPageShell } from '../http/page-shell';

/** One page of the operators' console: where it is served and what its shell says before its script runs. */
export interface ConsolePage {
  /** The view module under /admin/assets/js/views/ that renders it. */
  id: 'overview' | 'accounts' | 'account' | 'audit' | 'docs' | 'sign-in' | 'not-found';
  /** Its path; the account page's is a prefix, followed by the account id. */
  path: string;
  title: string;
  /** Shown in the main navigation. */
  nav: boolean;
}

/** Every page, in navigation order. The browser tests walk this list. */
export const CONSOLE_PAGES: readonly ConsolePage[] = [
  { id: 'overview', path: '/admin/', title: 'Overview', nav: true },
  { id: 'accounts', path: '/admin/accounts', title: 'Accounts', nav: true },
  { id: 'audit', path: '/admin/audit', title: 'Audit log', nav: true },
  { id: 'docs', path: '/admin/docs', title: 'API reference', nav: true },
  { id: 'account', path: '/admin/accounts/', title: 'Account', nav: false },
  { id: 'sign-in', path: '/admin/sign-in', title: 'Sign in', nav: false },
];

/** The page answered (with 404) for any other path under /admin/. */
export const CONSOLE_NOT_FOUND: ConsolePage = { id: 'not-found', path: '', title: 'Page not found', nav: false };

/** The HTML shell of a console page (see renderPageShell); the sign-in page has no navigation. */
export function renderConsolePage(page: ConsolePage): string {
  return renderPageShell({
    id: page.id,
    title: page.title,
    site: 'console',
    base: '/admin',
    stylesheet: 'console.css',
    ...(page.id === 'sign-in'
      ? {}
      : { nav: { label: 'Console', links: CONSOLE_PAGES.filter((p) => p.nav).map((p) => ({ href: p.path, text: p.title, current: p.id === page.id || (page.id === 'account' && p.id === 'accounts') })) } }),
    who: '',
    noscript: 'The console needs JavaScript. The same operations are in the admin API (Authorization: Bearer with the admin token) and the tollgate CLI.',
    footer: 'Operators only. Every change made here is recorded in the <a href="/admin/audit">audit log</a>.',
  });
}
