// Calling the gateway's JSON routes from a page: the envelope in, its `message` out as the error
// shown in place. Shared by the portal and the console, each with its own session.

/** A message as a sentence on the page: capital first letter, full stop at the end. */
export function asSentence(message) {
  const text = String(message).trim();
  if (!text) return text;
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}

/** A refusal in the envelope: the message is the one to show. */
export class ApiError extends Error {
  constructor(message, { status, code, details } = {}) {
    super(asSentence(message));
    this.status = status;
    this.code = code;
    this.details = details;
    this.reason = details && typeof details === 'object' ? details.reason : undefined;
  }
}

/**
 * Calls a JSON route with the session cookie; resolves to the envelope's `data`, or throws an
 * ApiError with its message. `csrfToken` goes in x-csrf-token on every change; `onRefused(err)` is
 * told of every refusal before it is thrown.
 */
export async function requestJson(method, path, body, { csrfToken, onRefused } = {}) {
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
    onRefused?.(err);
    throw err;
  }
  return envelope.data;
}
