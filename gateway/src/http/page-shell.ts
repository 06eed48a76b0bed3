/** Text made safe to put in HTML (element content or a quoted attribute). */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** What differs between the shells of the portal's and the console's pages. */
export interface PageShell {
  /** The page's id: its view module, `js/views/<id>.js`. */
  id: string;
  title: string;
  /** The site's name after the title and in the brand (`developer portal`, `console`). */
  site: string;
  /** Where the site's assets are served (`/portal`, `/admin`): its `assets/` and `assets/shared/`. */
  base: string;
  /** The site's own stylesheet under `assets/`. */
  stylesheet: string;
  /** The navigation's links, the current one marked; none for a page outside it. */
  nav?: { label: string; links: { href: string; text: string; current: boolean }[] };
  /** More `<meta>` for the page's script, by name. */
  meta?: Record<string, string>;
  /** More attributes of `<body>` (already escaped values are not expected: they are escaped here). */
  body?: Record<string, string>;
  /** The header's right-hand side before the script runs (HTML). */
  who: string;
  /** What `<noscript>` says, and the footer (HTML). */
  noscript: string;
  footer: string;
}

/**
 * The HTML shell of a page: landmarks, navigation and the page's heading are in the markup, so they
 * paint before any script runs; the site's `js/app.js` then renders the page's view into `<main>`.
 * Nothing inline: the CSP allows no inline script or style.
 */
export function renderPageShell(page: PageShell): string {
  const nav = page.nav
    ? `<nav aria-label="${escapeHtml(page.nav.label)}"><ul>${page.nav.links.map((l) => `<li><a href="${l.href}"${l.current ? ' aria-current="page"' : ''}>${escapeHtml(l.text)}</a></li>`).join('')}</ul></nav>\n`
    : '';
  const meta = Object.entries(page.meta ?? {}).map(([name, content]) => `<meta name="${name}" content="${escapeHtml(content)}">\n`).join('');
  const body = Object.entries({ 'data-page': page.id, ...page.body }).map(([name, value]) => ` ${name}="${escapeHtml(value)}"`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${meta}<title>${escapeHtml(page.title)} · Tollgate ${page.site}</title>
<meta name="color-scheme" content="light dark">
<link rel="icon" href="/favicon.ico" sizes="any">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${page.base}/assets/shared/base.css">
<link rel="stylesheet" href="${page.base}/assets/${page.stylesheet}">
<link rel="modulepreload" href="${page.base}/assets/js/app.js">
<link rel="modulepreload" href="${page.base}/assets/js/views/${page.id}.js">
<script type="module" src="${page.base}/assets/js/app.js"></script>
</head>
<body${body}>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<a class="brand" href="${page.base}/"><img src="${page.base}/assets/shared/logo.svg" alt="" width="28" height="28">Tollgate<span> ${page.site}</span></a>
${nav}<div class="who" id="who">${page.who}</div>
</header>
<main id="main" tabindex="-1">
<h1>${escapeHtml(page.title)}</h1>
<p class="muted" id="loading">Loading…</p>
<noscript><p>${page.noscript}</p></noscript>
</main>
<footer class="foot"><p>${page.footer}</p></footer>
</body>
</html>
`;
}
