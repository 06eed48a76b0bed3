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

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The HTML shell of a console page: landmarks, navigation and the page's heading are in the markup,
 * so they paint before any script runs; `js/app.js` then renders the page's view into `<main>`.
 */
export function renderConsolePage(page: ConsolePage): string {
  const signedIn = page.id !== 'sign-in';
  const links = signedIn
    ? `<nav aria-label="Console"><ul>${CONSOLE_PAGES.filter((p) => p.nav)
        .map((p) => `<li><a href="${p.path}"${p.id === page.id || (page.id === 'account' && p.id === 'accounts') ? ' aria-current="page"' : ''}>${escapeHtml(p.title)}</a></li>`)
        .join('')}</ul></nav>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} · Tollgate console</title>
<link rel="stylesheet" href="/admin/assets/shared/base.css">
<link rel="stylesheet" href="/admin/assets/console.css">
<link rel="modulepreload" href="/admin/assets/js/app.js">
<link rel="modulepreload" href="/admin/assets/js/views/${page.id}.js">
<script type="module" src="/admin/assets/js/app.js"></script>
</head>
<body data-page="${page.id}">
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<a class="brand" href="/admin/">Tollgate<span> console</span></a>
${links}
<div class="who" id="who"></div>
</header>
<main id="main" tabindex="-1">
<h1>${escapeHtml(page.title)}</h1>
<p class="muted" id="loading">Loading…</p>
<noscript><p>The console needs JavaScript. The same operations are in the admin API (Authorization: Bearer with the admin token) and the tollgate CLI.</p></noscript>
</main>
<footer class="foot"><p>Operators only. Every change made here is recorded in the <a href="/admin/audit">audit log</a>.</p></footer>
</body>
</html>
`;
}
