import type { AccountAction } from '../domain/account-actions';
import type { AdmissionDecision } from '../domain/admission';
import type { ApiPlans } from '../domain/plans';

/** One call to admit: which account (read from the presented key) and secret, which API and its plans, when. */
export interface AdmitRequest {
  accountId: string;
  keyHash: string;
  /** A key made before accounts: if its account is unknown, it may still be in the old layout. */
  legacy?: boolean;
  api: string;
  apiPlans: ApiPlans;
  /** Whole milliseconds (the Redis script writes the log's bounds with `%d`). */
  nowMs: number;
}

/** What refunding an admitted call needs: its unique member and the windows it may be counted in. */
export interface RefundTicket {
  accountId: string;
  api: string;
  monthId: string;
  dayId: string;
  /** The call's entry in the second log (plan calls) or the day's playground log. */
  member: string;
  /** The counter it was charged to; unknown when the admission timed out (it may not have run). */
  charged?: 'month' | 'day';
}

/** A decision plus the key the secret opened (when known) and, when it charged, how to undo that charge. */
export interface Admission extends AdmissionDecision {
  keyId?: string;
  /** When an admitted secret stops working (its expiry, or its roll's grace end); absent for never. */
  validUntilMs?: number;
  ticket?: RefundTicket;
}

/** Calls counted for one account and API in the current month and day. */
export interface Usage {
  month: number;
  day: number;
}

/**
 * Quota state, per account and API. `admit` checks the secret (known, not revoked, expired or past
 * a roll's grace), the account (not suspended) and its subscription, the monthly quota, the
 * rolling-second rate and the playground allowance, and charges, as one atomic step.
 */
export interface QuotaStore {
  admit(request: AdmitRequest): Promise<Admission>;
  refund(ticket: RefundTicket): Promise<void>;
  usage(accountId: string, api: string, nowMs: number): Promise<Usage>;
  /** Counts one sign-up from an address in the current UTC hour; returns the count including it. */
  countSignup(ip: string, nowMs: number): Promise<number>;
  /** Counts one of an account's limited actions in its current window (`ACCOUNT_ACTIONS`); returns the count including it. */
  countAction(accountId: string, action: AccountAction, nowMs: number): Promise<number>;
  /** Resolves when the store answers; rejects with a {@link StoreError} when it does not. */
  ping(): Promise<void>;
  /**
   * Calls `revoked` with the id of every key revoked, or account suspended, by any gateway sharing the store, and
   * `listening(true)` each time that channel is (re)opened (revocations sent before were missed:
   * a cache of keys must drop all), `listening(false)` when it cannot be opened.
   */
  onRevoked(revoked: (id: string) => void, listening: (heard: boolean) => void): void;
}
