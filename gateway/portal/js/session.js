import { request, setCsrfToken, onUnauthorized } from './api.js';
import { forgetAll } from './secrets.js';

// undefined: not asked yet; null: signed out; else { account, csrf_token, expires_at }.
let current;
// The person's teams and what their role may do in the current one (GET /dashboard/v1/teams), or null.
let team = null;
const listeners = new Set();

async function set(session) {
  current = session;
  setCsrfToken(session ? session.csrf_token : null);
  team = null;
  if (!session) forgetAll();
  // The server's role table applied to this team: pages offer what it allows. Unread, every page
  // offers everything and the server's refusal is shown where an action is refused.
  else team = await request('GET', '/dashboard/v1/teams').catch(() => null);
  for (const listener of listeners) listener(current);
}

/** The session as last known (null when signed out). */
export const session = () => current ?? null;

/** The signed-in person ({ id, email, name }), when known. */
export const person = () => team?.person ?? null;

/** The person's teams ([{ id, name, role, current }]), the current one marked. */
export const teams = () => team?.teams ?? [];

/** The person's role in the current team ('owner', 'admin', 'billing', 'developer'), when known. */
export const role = () => teams().find((t) => t.current)?.role ?? null;

/** Whether the role may do an action of the roles table (docs/teams.md#roles): true when not known, the server decides. */
export const may = (action) => !team || team.actions.includes(action);

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
  await set(state.signed_in ? state.session : null);
  return current;
}

/** Keeps the session the sign-in answered. */
export const signedIn = (data) => set(data);

/** Moves to another of the person's teams: a new session there, which the next sign-in opens too. */
export async function switchTeam(id) {
  const moved = await request('POST', '/dashboard/v1/teams/switch', { team: id });
  forgetAll();
  await set({ account: moved.account, csrf_token: moved.csrf_token, expires_at: moved.expires_at });
}

/** Ends the session at the gateway and forgets everything held in memory. */
export async function signOut() {
  try {
    await request('DELETE', '/dashboard/v1/session');
  } finally {
    await set(null);
  }
}

// A 401 from any dashboard route means the session ended (expired, removed from the team, or signed out elsewhere).
onUnauthorized(() => {
  if (current) void set(null);
});
