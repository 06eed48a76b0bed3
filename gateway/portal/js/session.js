import { request, setCsrfToken, onUnauthorized } from './api.js';
import { forgetAll } from './secrets.js';

// undefined: not asked yet; null: signed out; else { account, csrf_token, expires_at }.
let current;
const listeners = new Set();

function set(session) {
  current = session;
  setCsrfToken(session ? session.csrf_token : null);
  if (!session) forgetAll();
  for (const listener of listeners) listener(current);
}

/** The session as last known (null when signed out). */
export const session = () => current ?? null;

/** Calls `listener(session)` whenever the session changes. */
export function onSessionChange(listener) {
  listeners.add(listener);
}

/**
 * Asks the gateway who is signed in (the cookie is HttpOnly, so only the gateway can tell). The
 * state route answers 200 signed out too: a signed-out page logs no refused request.
 */
export async function loadSession() {
  const state = await request('GET', '/dashboard/v1/session/state');
  set(state.signed_in ? state.session : null);
  return current;
}

/** Keeps the session the sign-in answered. */
export const signedIn = (data) => set(data);

/** Ends the session at the gateway and forgets everything held in memory. */
export async function signOut() {
  try {
    await request('DELETE', '/dashboard/v1/session');
  } finally {
    set(null);
  }
}

// A 401 from any dashboard route means the session ended (expired, or signed out elsewhere).
onUnauthorized(() => {
  if (current) set(null);
});
