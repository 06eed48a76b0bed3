import { el, errorRegion, heading, showError } from '../../shared/dom.js';
import { request } from '../api.js';
import { may, session } from '../session.js';

export { endpointsOf } from '../endpoints.js';

/**
 * For pages that need an account: true when signed in; otherwise renders the heading and a sign-in
 * prompt (saying the session ended, when it did) and returns false.
 */
export function requireSession(main, ctx, title, what) {
  if (session()) return true;
  const next = `${location.pathname}${location.search}`;
  // Node.append would print a skipped (null) part as the word "null".
  const parts = [
    heading(title),
    ctx.ended ? el('p', { class: 'error', role: 'alert' }, 'Your session has ended. Sign in again to continue.') : null,
    el('p', {}, `Sign in with your email address to ${what}.`),
    el('p', {}, el('a', { class: 'button', href: `${ctx.pathOf('sign-in')}?next=${encodeURIComponent(next)}` }, 'Sign in')),
  ];
  main.append(...parts.filter(Boolean));
  return false;
}

/** An API's title from the catalogue ("Token", from "token"). */
export { titleOf as apiTitle } from '../api.js';

/**
 * For pages a role may not use (docs/teams.md#roles): true when the role may do `action`; otherwise
 * asks `probe`, a route the page reads, and renders the heading and the server's refusal ("Your role
 * in this team (developer) cannot …") instead of the page, returning false. The navigation does not
 * offer such a page; this is what a link or a typed address reaches.
 */
export async function requireRole(main, title, action, probe) {
  if (may(action)) return true;
  try {
    await request('GET', probe);
    return true;
  } catch (err) {
    if (err.status !== 403) throw err;
    const region = errorRegion();
    main.append(heading(title), region);
    showError(region, err);
    return false;
  }
}

/** An API's Markdown description, as the gateway rendered it (raw HTML escaped there: domain/markdown.ts). */
export function descriptionOf(entry) {
  if (!entry?.description_html) return null;
  const box = el('div', { class: 'description' });
  box.innerHTML = entry.description_html;
  return box;
}
