import type { Request } from 'express';
import { AppError } from '@tollgate/envelope/core';
import { ACCOUNT_SUSPENDED } from '../domain/customer-messages';
import type { Account, AccountStore, ApiKey } from '../data/account-store';
import type { SessionStore } from '../data/session-store';
import type { Person, TeamStore } from '../data/team-store';
import { createSessionAuth, sessionCookiesOf } from './session-auth';
import type { SessionAuthDeps } from './session-auth';

/**
 * Who is calling the dashboard: the account, and the key whose secret came in the key header, or
 * none when the call came with the portal's session cookie.
 */
export interface DashboardCaller {
  key?: ApiKey;
  account: Account;
  /** The signed-in person (a session); absent for a caller with a key. */
  person?: Person;
}

/**
 * What every route called with a key may answer besides its own errors. BAD_REQUEST too: the router
 * parses a JSON body on every route, so a broken one is refused on any.
 */
export const CALLER_ERRORS = ['BAD_REQUEST', 'UNAUTHORIZED', 'FORBIDDEN', 'STORE_UNAVAILABLE'] as const;

/** What authenticating a dashboard call needs. */
export interface DashboardAuthDeps {
  accountStore: AccountStore;
  sessionStore: SessionStore;
  teamStore: TeamStore;
  keyHeader: string;
  clock: () => number;
}

const expired = (iso: string | null, nowMs: number): boolean => iso !== null && nowMs >= Date.parse(iso);

function unauthorized(reason: string, message: string): AppError {
  return new AppError('UNAUTHORIZED', message, { details: { reason } });
}

/**
 * Reads a signed-in person, never a key: the portal's session cookie (with its CSRF check on
 * changes). Keys live in scripts, CI and logs; what moves money must be done by the person. A key
 * sent without a session cookie is refused with 401 `session_required`, saying that `what` needs
 * the person and how to sign in.
 */
export function createPersonAuth(deps: SessionAuthDeps & { keyHeader: string }, what: string): (req: Request) => Promise<{ account: Account; person: { id: string } }> {
  const bySession = createSessionAuth(deps);
  return async (req) => {
    if (sessionCookiesOf(req).length === 0 && req.headers[deps.keyHeader] !== undefined) {
      throw unauthorized('session_required', `an API key cannot ${what}: keys live in scripts, CI and logs, so money moves only for a signed-in person; sign in at /portal/sign-in and send the session cookie with its CSRF token (x-csrf-token)`);
    }
    const { account, person } = await bySession(req);
    return { account, person };
  };
}

/**
 * Reads the caller from the key header, refusing it for the same reasons and in the same order as
 * admission does (gate.ts), so a secret the dashboard accepts is one the APIs accept too; without
 * the header, from the portal's session cookie (with its CSRF check on state changes, see
 * session-auth.ts). The header wins when both come: it is what a script sends on purpose.
 */
export function createDashboardAuth(deps: DashboardAuthDeps): (req: Request) => Promise<DashboardCaller> {
  const bySession = createSessionAuth(deps);
  return async (req) => {
    const presented = req.headers[deps.keyHeader];
    if (presented === undefined && sessionCookiesOf(req).length > 0) {
      const { account, person } = await bySession(req);
      return { account, person };
    }
    if (typeof presented !== 'string' || presented === '') throw unauthorized('missing', `missing API key: send it in the ${deps.keyHeader} header, or sign in at /portal/sign-in`);
    const found = await deps.accountStore.findKey(presented);
    if (!found) throw unauthorized('unknown', 'unknown API key');
    const { key, account, secret } = found;
    const nowMs = deps.clock();
    if (key.revoked_at) throw unauthorized('revoked', 'this API key has been revoked');
    // A previous secret works only until the grace of the roll that replaced it; with none, not at all.
    if (secret === 'previous' && (key.grace_until === null || expired(key.grace_until, nowMs))) {
      throw unauthorized('rolled', 'this secret was replaced when its key was rolled, and its grace period is over; use the new secret');
    }
    if (expired(key.expires_at, nowMs)) throw unauthorized('expired', 'this API key has expired; create a new one');
    if (account.status === 'suspended') throw new AppError('FORBIDDEN', ACCOUNT_SUSPENDED);
    return { key, account };
  };
}
