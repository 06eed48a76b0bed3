// Key secrets the portal has shown, held in this page's memory only: never in localStorage,
// sessionStorage, cookies or the URL. A reload, a sign-out or a revocation forgets them.

let latest = null;

/** Keeps the secret just created or rolled, for Try it. */
export function remember(keyId, name, secret, shown) {
  latest = { keyId, name, secret, shown };
}

/** The secret kept, or null. */
export const latestSecret = () => latest;

/** Forgets the secret of a revoked key. */
export function forget(keyId) {
  if (latest && latest.keyId === keyId) latest = null;
}

/** Forgets everything (sign-out). */
export function forgetAll() {
  latest = null;
}
