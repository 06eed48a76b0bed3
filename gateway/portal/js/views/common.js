import { el, errorRegion, heading, showError, within } from '../../shared/dom.js';
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

/** "Token", from "token". */
export const apiTitle = (api) => api.charAt(0).toUpperCase() + api.slice(1);

/** What each API answers, for the catalogue (the merged OpenAPI document keeps only paths). */
export const API_BLURBS = {
  burger: 'The Economist’s Big Mac index: how over- or under-valued each currency is, by the price of a Big Mac, for the latest release or a country’s history since 2000, against USD, EUR, GBP, JPY or CNY.',
  token: 'Live crypto token prices by on-chain contract address or directory slug: current USD price, symbol, decimals and confidence, a past moment, or a series for charts.',
  logs: 'Event logs of any EVM contract, live from the chain: filter by address, topics (or an event name such as Transfer) and block range; ERC-20 transfers decoded.',
};

/** An action of a list view: `work` runs with a refusal shown in `problem`, then `refresh` redraws the list either way. */
export function actThen(problem, refresh) {
  return async (work) => {
    await within(problem, work);
    await refresh();
  };
}
