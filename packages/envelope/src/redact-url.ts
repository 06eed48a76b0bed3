/**
 * Query parameters whose values are secrets, by name: a sign-in code, a key, a token, a session,
 * a password, a signature. Matched on the decoded name, alone or as its last word (`api_key`,
 * `access_token`, `x-tollgate-key`, `csrf_token`), in any case.
 */
const SECRET_NAME = /(?:^|[^a-z0-9])(?:code|key|token|session|sessionid|secret|password|passwd|pwd|csrf|sig|signature|auth|authorization|credentials?|otp)$/i;
// A query with none of these letters holds no secret name (`%`: a name may be percent-encoded).
const MAYBE_SECRET = /code|key|token|session|secret|pass|pwd|csrf|sig|auth|cred|otp|%/i;

/** What a secret's value is logged as. */
export const REDACTED = '[redacted]';

// A name that does not decode is read without its `%` signs, so `code%` still counts as a code.
function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw.replace(/%/g, '');
  }
}

/**
 * The URL as it may be logged: the value of every query parameter named as a secret replaced by
 * {@link REDACTED}, everything else as it came. A URL without a query, or whose query names no
 * secret, is returned as it is without being split (the API path logs every call).
 *
 * @example redactUrl('/portal/sign-in?email=a%40b.io&code=123456') // '/portal/sign-in?email=a%40b.io&code=[redacted]'
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1 || !MAYBE_SECRET.test(url.slice(q + 1))) return url;
  const parts = url
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const name = eq === -1 ? part : part.slice(0, eq);
      return SECRET_NAME.test(decodedName(name)) ? `${name}=${REDACTED}` : part;
    });
  return `${url.slice(0, q + 1)}${parts.join('&')}`;
}
