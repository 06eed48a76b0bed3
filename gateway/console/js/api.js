// The one way the console talks to the gateway: its JSON routes under /admin/console/v1.
import { ApiError, requestJson } from '../shared/request.js';

export { ApiError };

const BASE = '/admin/console/v1';
// The session's CSRF token lives in this module's memory only (re-read from /session on each page).
let csrfToken = null;

/** Remembers the CSRF token sent with every change. */
export function setCsrfToken(token) {
  csrfToken = token;
}

/** Where a page that lost its session goes: the sign-in page, and back here afterwards. */
export function signInHref() {
  return `/admin/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`;
}

/** Calls a console route (a path under /admin/console/v1); a 401 anywhere but sign-in sends the page to sign in. */
export function request(method, path, body) {
  return requestJson(method, `${BASE}${path}`, body, {
    csrfToken,
    onRefused: (err) => {
      if (err.status === 401 && !path.startsWith('/sign-in') && document.body.dataset.page !== 'sign-in') location.assign(signInHref());
    },
  });
}

/** A query string from the values given. */
export function query(values) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== undefined && value !== null && value !== '') params.set(name, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}
