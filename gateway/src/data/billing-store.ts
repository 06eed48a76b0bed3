import type { Subscription } from '../domain/admission';
import type { BillingState, ProviderStatus } from '../domain/billing-access';
import type { Page } from './account-store';

/**
 * One API's paid subscription as billing keeps it: the provider's state copied in by webhooks, the
 * read-back after a change and reconciliation, so pages and summaries never ask the provider, and
 * admission reads only the account's subscription that billing writes beside it.
 */
export interface BillingRecord {
  subscription_id: string;
  customer_id: string;
  /** The plan it pays for now, and its monthly price. */
  plan: string;
  price_id: string;
  amount: number;
  /** As the plan table has it (upper case). */
  currency: string;
  status: ProviderStatus;
  /** What access it gives now (domain/billing-access.ts). */
  state: BillingState;
  current_period_end: string | null;
  /** Ends at the period's end (the person canceled; undoable until then). */
  cancel_at_period_end: boolean;
  /** A cheaper plan that takes over at the period's end (undoable until then). */
  next_plan: string | null;
  /** A payment failed: calls are served until then (past due, in grace). */
  grace_until: string | null;
  /** The provider's test clock the customer lives on (test mode): its time, not the wall clock, is the subscription's. */
  test_clock: string | null;
  updated_at: string;
}

/** An account's billing: its customer per currency at the provider, and its paid subscriptions by API. */
export interface AccountBilling {
  customers: Record<string, string>;
  subscriptions: Record<string, BillingRecord>;
  /** The last checkout started per API (the memory engine keeps it here; `getBilling` leaves it out). */
  checkouts?: Record<string, string>;
}

/** A change to one API's billing, and what the account's subscription to it becomes. */
export interface BillingChange {
  /** The new record; null drops it. */
  record: BillingRecord | null;
  /** What admission reads from now on; null cancels it; absent leaves it as it is. */
  subscription?: Subscription | null;
}

/** How a webhook event stands: new to this store, already handled, or being handled elsewhere right now. */
export type EventClaim = 'claimed' | 'done' | 'busy';

/** How long a handled event's id is kept: Stripe retries an event for up to three days. */
export const EVENT_KEPT_MS = 30 * 86_400_000;
/** How long a claim holds while its handler runs; a handler that died lets a retry in after it. */
export const EVENT_LEASE_MS = 5 * 60_000;

/**
 * Billing state, beside the accounts on every engine. Writes that change what admission reads go
 * through {@link BillingStore.applyBilling}, which changes the record and the account's
 * subscription in one step.
 */
export interface BillingStore {
  /** The account's billing (empty when it has none); undefined for an unknown account. */
  getBilling(accountId: string): Promise<AccountBilling | undefined>;
  /**
   * Remembers the account's customer for a currency unless one is kept already; returns the one
   * kept (so two checkouts started together share one customer), or undefined for an unknown account.
   */
  rememberCustomer(accountId: string, currency: string, customerId: string): Promise<string | undefined>;
  /** The account a provider's customer belongs to. */
  accountOfCustomer(customerId: string): Promise<string | undefined>;
  /** Sets one API's record and the account's subscription together; the record before, or undefined for an unknown account. */
  applyBilling(accountId: string, api: string, change: BillingChange): Promise<{ previous: BillingRecord | null } | undefined>;
  /**
   * Makes `sessionId` the account's last checkout of `api` and returns the one it replaces (null
   * for none), in one step: of two checkouts started together, exactly one replaces the other.
   * Undefined for an unknown account.
   */
  swapCheckout(accountId: string, api: string, sessionId: string): Promise<string | null | undefined>;
  /** Accounts with billing (a customer or a record), a page at a time in no promised order. */
  listBilledAccounts(options: { cursor?: string; limit: number }): Promise<Page<string>>;
  /** Claims a webhook event for handling (a lease of {@link EVENT_LEASE_MS}). */
  claimEvent(eventId: string, nowMs: number): Promise<EventClaim>;
  /** Marks a claimed event handled (kept {@link EVENT_KEPT_MS}), or with `handled` false lets it be claimed again. */
  settleEvent(eventId: string, handled: boolean, nowMs: number): Promise<void>;
}
