// The one way the portal talks to the gateway's JSON routes: the envelope in, its message out on error.

/** A refusal in the envelope: the message is the one to show. */
export class ApiError extends Error {
  constructor(message, { status, code, details } = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
    this.reason = details && typeof details === 'object' ? details.reason : undefined;
  }
}

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
export async function request(method, path, body) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin', cache: 'no-store' });
  } catch {
    throw new ApiError('The gateway could not be reached. Check your connection and try again.', { status: 0 });
  }
  const envelope = await res.json().catch(() => null);
  if (!envelope) throw new ApiError(`The gateway answered ${res.status} without a JSON body.`, { status: res.status });
  if (!res.ok || envelope.success === false) {
    const err = new ApiError(envelope.message || `The gateway answered ${res.status}.`, { status: res.status, code: envelope.error?.code, details: envelope.error?.details });
    if (res.status === 401 && path.startsWith('/dashboard/v1/') && !path.startsWith('/dashboard/v1/sign-in')) for (const listener of listeners) listener(err);
    throw err;
  }
  return envelope.data;
}

/** The combined OpenAPI document (not in the envelope). */
export async function openApi() {
  const res = await fetch('/docs/openapi.json', { headers: { accept: 'application/json' } }).catch(() => null);
  if (!res || !res.ok) throw new ApiError('The API reference could not be loaded; endpoints are not shown.');
  return res.json();
}

/** The live plan table (GET /dashboard/v1/plans): [{ api, playground_per_day, plans: [{ name, monthly_quota, rate_per_second, price, currency }] }]. */
export function plans() {
  return request('GET', '/dashboard/v1/plans');
}
