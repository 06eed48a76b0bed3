import type { DeliveredType, EventType } from '../domain/event-types';
import type { Page } from './account-store';

/** What an account chose about its events: which are mailed, and its own quota thresholds per API. */
export interface EventPreferences {
  /** Mail per event type; a type not named is mailed as `MAILED_BY_DEFAULT` says. */
  mail: Partial<Record<EventType, boolean>>;
  /** Percent of the monthly quota per API; an API not named alerts at `DEFAULT_THRESHOLDS`. */
  thresholds: Record<string, number[]>;
}

/** One of an account's webhook endpoints. The secrets are the signing keys (`whsec_…`), kept to sign. */
export interface WebhookEndpoint {
  id: string;
  account_id: string;
  url: string;
  description: string;
  /** The event types sent to it. */
  types: EventType[];
  enabled: boolean;
  /** Why it was disabled by the gateway (failing for days, or it answered 410); null when enabled or turned off by its owner. */
  disabled_reason: string | null;
  created_at: string;
  secret: string;
  /** The secret before the last rotation, which also signs until `previous_secret_until`. */
  previous_secret: string | null;
  previous_secret_until: string | null;
  /** Since when every attempt has failed; null after a success. */
  failing_since: string | null;
}

/** One message to one endpoint and how its attempts went. */
export interface Delivery {
  id: string;
  account_id: string;
  endpoint_id: string;
  /** `webhook-id`: the same on every attempt and redelivery, so a receiver dedupes on it. */
  message_id: string;
  type: DeliveredType;
  /** The body exactly as signed: `{type, timestamp, data}`. */
  payload: string;
  created_at: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  /** When the next attempt is due (pending only). */
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  /** The endpoint's HTTP status on the last attempt; null when it gave none (timeout, connection refused). */
  last_status: number | null;
  last_error: string | null;
  last_latency_ms: number | null;
}

/** A claim that something happened once (a threshold this month, a key's expiry notice), kept until it lapses. */
export interface EventClaimRequest {
  /** The account it is about; absent for a job of the whole gateway fleet (the month's reset notices). */
  accountId?: string;
  /** What is claimed, unique within the account (e.g. `quota:token:2026-03:80`). */
  name: string;
  expiresAtMs: number;
}

/** The account already holds the most endpoints allowed. */
export class EndpointLimitError extends Error {
  constructor(readonly max: number) {
    super(`an account may have at most ${max} webhook endpoints`);
    this.name = 'EndpointLimitError';
  }
}

/** The account holds the most pending deliveries allowed: new ones are refused, not queued. */
export class PendingLimitError extends Error {
  constructor(readonly max: number) {
    super(`an account may have at most ${max} webhook deliveries pending`);
    this.name = 'PendingLimitError';
  }
}

/** Deliveries listed per endpoint (the portal shows these); older ones drop out of the list. */
export const DELIVERIES_LISTED = 100;
/** How long a delivery record is kept after it was made. */
export const DELIVERY_KEPT_MS = 30 * 86_400_000;

/**
 * Event settings, webhook endpoints, the durable delivery queue and the once-only claims, on every
 * engine. The queue is shared by every gateway on the store: `claimDue` leases what is due, so a
 * delivery is attempted by one gateway at a time, and one whose gateway died is due again when its
 * lease lapses (at least once).
 */
export interface EventStore {
  /** The account's preferences (empty ones when it has set none). */
  getPreferences(accountId: string): Promise<EventPreferences>;
  setPreferences(accountId: string, preferences: EventPreferences): Promise<void>;
  /** Every account's own thresholds (accounts that set none are absent), and a version that changes with any of them. */
  customThresholds(): Promise<{ version: number; thresholds: Map<string, Record<string, number[]>> }>;
  /** The version {@link customThresholds} would give now (cheap: gateways poll it). */
  thresholdsVersion(): Promise<number>;
  /** Claims each name once until it lapses: true where this call claimed it, false where it was claimed already. */
  claim(claims: readonly EventClaimRequest[], nowMs: number): Promise<boolean[]>;

  /** Adds an endpoint; throws {@link EndpointLimitError} when the account holds `max` already. */
  createEndpoint(endpoint: WebhookEndpoint, max: number): Promise<void>;
  listEndpoints(accountId: string): Promise<WebhookEndpoint[]>;
  getEndpoint(accountId: string, endpointId: string): Promise<WebhookEndpoint | undefined>;
  /**
   * Replaces a kept endpoint; false when it is gone, or, given `expected`, when the kept one is no
   * longer that (compared and written in one step: a rewrite never undoes a change made meanwhile).
   */
  putEndpoint(endpoint: WebhookEndpoint, expected?: WebhookEndpoint): Promise<boolean>;
  deleteEndpoint(accountId: string, endpointId: string): Promise<boolean>;

  /**
   * Queues new deliveries, each due at its `next_attempt_at`; with `maxPending`, throws
   * {@link PendingLimitError} and queues none when an account would then have more pending
   * (counted and queued in one step).
   */
  enqueue(deliveries: readonly Delivery[], maxPending?: number): Promise<void>;
  /** Up to `limit` pending deliveries due by `nowMs`, each leased for `leaseMs` (not handed out again meanwhile). */
  claimDue(nowMs: number, limit: number, leaseMs: number): Promise<Delivery[]>;
  /** Writes a delivery after an attempt: pending ones are due again at `next_attempt_at`, the others leave the queue. */
  saveDelivery(delivery: Delivery): Promise<void>;
  /** The endpoint's last {@link DELIVERIES_LISTED} deliveries, newest first. */
  listDeliveries(accountId: string, endpointId: string): Promise<Delivery[]>;
  getDelivery(accountId: string, deliveryId: string): Promise<Delivery | undefined>;

  /** Accounts that have preferences or endpoints, a page at a time in no promised order (the month's reset notices). */
  listEventAccounts(options: { cursor?: string; limit: number }): Promise<Page<string>>;
  /**
   * Erases what the store keeps of an account's events, at once: preferences, thresholds,
   * endpoints (URLs and secrets) and every delivery (payloads, lists, queue entries). Claims,
   * which hold ids only, lapse.
   */
  deleteAccountEvents(accountId: string): Promise<void>;
}
