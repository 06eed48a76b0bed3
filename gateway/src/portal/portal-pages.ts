/** One page of the developer portal: where it is served and what its shell says before its script runs. */
export interface PortalPage {
  /** The view module under /portal/js/views/ that renders it. */
  id: 'catalogue' | 'sign-in' | 'keys' | 'subscriptions' | 'billing' | 'usage' | 'webhooks' | 'try-it' | 'not-found';
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
  { id: 'try-it', path: '/portal/try', title: 'Try it', nav: true },
  { id: 'sign-in', path: '/portal/sign-in', title: 'Sign in', nav: false },
];

/** The page answered (with 404) for any other path under /portal/. */
export const NOT_FOUND_PAGE: PortalPage = { id: 'not-found', path: '', title: 'Page not found', nav: false };

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The HTML shell of a page: landmarks, navigation and the page's heading are in the markup, so they
 * paint before any script runs; `js/app.js` then renders the page's view into `<main>` and handles
 * later navigation in place (which keeps a just-created secret in memory for Try it).
 */
export function renderPortalPage(page: PortalPage, options: { keyHeader: string }): string {
  const links = PORTAL_PAGES.filter((p) => p.nav)
    .map((p) => `<li><a href="${p.path}"${p.id === page.id ? ' aria-current="page"' : ''}>${escapeHtml(p.title)}</a></li>`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="tollgate-key-header" content="${escapeHtml(options.keyHeader)}">
<title>${escapeHtml(page.title)} · Tollgate developer portal</title>
<link rel="stylesheet" href="/portal/assets/portal.css">
<link rel="modulepreload" href="/portal/assets/js/app.js">
<link rel="modulepreload" href="/portal/assets/js/views/${page.id}.js">
<script type="module" src="/portal/assets/js/app.js"></script>
</head>
<body data-page="${page.id}" data-pages="${PORTAL_PAGES.map((p) => `${p.id} ${p.path}`).join('|')}">
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<a class="brand" href="/portal/">Tollgate<span> developer portal</span></a>
<nav aria-label="Portal"><ul>${links}</ul></nav>
<div class="who" id="who"><a href="/portal/sign-in">Sign in</a></div>
</header>
<main id="main" tabindex="-1">
<h1>${escapeHtml(page.title)}</h1>
<p class="muted" id="loading">Loading…</p>
<noscript><p>This portal needs JavaScript. The same operations are in the <a href="/docs">API reference</a>.</p></noscript>
</main>
<footer class="foot"><p>Every answer is JSON in the Tollgate envelope. <a href="/docs">API reference</a></p></footer>
</body>
</html>
`;
}
