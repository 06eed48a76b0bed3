// The one way the portal talks to the gateway's JSON routes: the envelope in, its message out on error.
import { ApiError, requestJson } from '../shared/request.js';

export { ApiError };

// The session's CSRF token lives in this module's memory only (it is re-read from /session on load).
let csrfToken = null;
const listeners = new Set();

/** Remembers (or forgets, with null) the CSRF token sent with every state change. */
export function setCsrfToken(token) {
  csrfToken = token;
}

/** Called with the response's status on every 401 from the dashboard: the session is gone. */
export function onUnauthorized(listener) {
  listeners.add(listener);
}

/** Calls a dashboard route; resolves to the envelope's `data`, or throws an ApiError with its message. */
export function request(method, path, body) {
  return requestJson(method, path, body, {
    csrfToken,
    onRefused: (err) => {
      if (err.status === 401 && path.startsWith('/dashboard/v1/') && !path.startsWith('/dashboard/v1/sign-in')) for (const listener of listeners) listener(err);
    },
  });
}

/** The combined OpenAPI document (not in the envelope). */
export async function openApi() {
  const res = await fetch('/docs/openapi.json', { headers: { accept: 'application/json' } }).catch(() => null);
  if (!res || !res.ok) throw new ApiError('The API reference could not be loaded; endpoints are not shown.');
  return res.json();
}

const titles = new Map();
let catalogue = null;

/**
 * The catalogue in force (GET /dashboard/v1/plans): [{ api, title, summary, description_html, listed,
 * playground_per_day, plans: [{ name, monthly_quota, rate_per_second, price, currency, features, offered }] }].
 * Asked once a page; its titles are remembered for {@link titleOf}.
 */
export function plans() {
  catalogue ??= request('GET', '/dashboard/v1/plans').then(
    (table) => {
      for (const entry of table) titles.set(entry.api, entry.title);
      return table;
    },
    (err) => {
      catalogue = null;
      throw err;
    },
  );
  return catalogue;
}

/** An API's title as the catalogue gives it, once {@link plans} has answered; else its name, capitalised. */
export function titleOf(api) {
  return titles.get(api) ?? api.charAt(0).toUpperCase() + api.slice(1);
}
