import { renderPageShell } from '../http/page-shell';

/** One page of the developer portal: where it is served and what its shell says before its script runs. */
export interface PortalPage {
  /** The view module under /portal/js/views/ that renders it. */
  id: 'catalogue' | 'sign-in' | 'keys' | 'subscriptions' | 'billing' | 'usage' | 'webhooks' | 'team' | 'try-it' | 'account' | 'invitation' | 'not-found' | 'api-reference';
  path: string;
  title: string;
  /** Shown in the main navigation (sign-in is reached from the header instead). */
  nav: boolean;
}

/** Every page, in navigation order. The browser tests and the FCP bench walk this list. */
export const PORTAL_PAGES: readonly PortalPage[] = [
  { id: 'catalogue', path: '/portal/', title: 'Catalogue', nav: true },
  { id: 'keys', path: '/portal/keys', title: 'Keys', nav: true },
  { id: 'subscriptions', path: '/portal/subscriptions', title: 'Subscriptions', nav: true },
  { id: 'billing', path: '/portal/billing', title: 'Billing', nav: true },
  { id: 'usage', path: '/portal/usage', title: 'Usage', nav: true },
  { id: 'webhooks', path: '/portal/webhooks', title: 'Webhooks', nav: true },
  { id: 'team', path: '/portal/team', title: 'Team', nav: true },
  { id: 'try-it', path: '/portal/try', title: 'Try it', nav: true },
  { id: 'sign-in', path: '/portal/sign-in', title: 'Sign in', nav: false },
  // Reached from the signed-in address in the header, as account menus are.
  { id: 'account', path: '/portal/account', title: 'Account', nav: false },
  // The link of an invitation mail (`#code=…`, a fragment: the code never reaches a server's log).
  { id: 'invitation', path: '/portal/invitation', title: 'Invitation', nav: false },
];

/** Each API's reference page, `/portal/apis/{api}`: reached from the catalogue, so not in the navigation. */
export function apiReferencePages(apis: readonly string[]): PortalPage[] {
  return apis.map((api) => ({ id: 'api-reference', path: `/portal/apis/${api}`, title: `${api.charAt(0).toUpperCase()}${api.slice(1)} API reference`, nav: false }));
}

/** The page answered (with 404) for any other path under /portal/. */
export const NOT_FOUND_PAGE: PortalPage = { id: 'not-found', path: '', title: 'Page not found', nav: false };

/**
 * The HTML shell of a page (see renderPageShell); `js/app.js` also handles later navigation in place
 * (which keeps a just-created secret in memory for Try it).
 */
export function renderPortalPage(page: PortalPage, options: { keyHeader: string; apis?: readonly string[] }): string {
  const pages = [...PORTAL_PAGES, ...apiReferencePages(options.apis ?? [])];
  return renderPageShell({
    id: page.id,
    title: page.title,
    site: 'developer portal',
    base: '/portal',
    stylesheet: 'portal.css',
    meta: { 'tollgate-key-header': options.keyHeader },
    body: { 'data-pages': pages.map((p) => `${p.id} ${p.path}`).join('|') },
    nav: { label: 'Portal', links: PORTAL_PAGES.filter((p) => p.nav).map((p) => ({ href: p.path, text: p.title, current: p.id === page.id })) },
    who: '<a href="/portal/sign-in">Sign in</a>',
    noscript: 'This portal needs JavaScript. The same operations are in the <a href="/docs">API reference</a>.',
    footer: 'Every answer is JSON in the Tollgate envelope. <a href="/docs">API reference</a>',
  });
}
