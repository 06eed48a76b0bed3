import type { ProviderStatus } from '../domain/billing-access';
import type { PlanTable } from '../domain/plans';

/** A paid subscription as the provider has it now, in the gateway's terms. */
export interface PaidSubscription {
  id: string;
  customerId: string;
  api: string;
  plan: string;
  priceId: string;
  /** The monthly price (smallest unit) and currency (upper case) of the price it is on. */
  amount: number;
  currency: string;
  status: ProviderStatus;
  currentPeriodEndMs: number | null;
  cancelAtPeriodEnd: boolean;
  /** A plan scheduled to take over at the period's end. */
  nextPlan: string | null;
  /** When the open invoice that made it past due was issued. */
  paymentFailedAtMs: number | null;
  canceledForPayment: boolean;
  testClock: string | null;
  /** The subscription's time now: its test clock's, or the wall clock. */
  nowMs: number;
}

/** One invoice, as the billing page lists it. */
export interface ProviderInvoice {
  id: string;
  created_at: string;
  /** Due while open, paid once paid. */
  amount: number;
  currency: string;
  status: 'draft' | 'open' | 'paid' | 'uncollectible' | 'void';
  hosted_url: string | null;
  pdf_url: string | null;
  /** What it bills, from its lines ("Tollgate token pro"). */
  description: string;
  /** The tax within `amount` (Stripe Tax's lines; 0 without it). */
  tax: number;
}

/** What a plan change would charge, from the provider's invoice preview. */
export interface ChangePreview {
  /** Charged now (smallest unit): the prorated difference for the rest of the period; 0 for a change at the period's end. */
  dueNow: number;
  currency: string;
  /** What makes up `dueNow` ("Remaining time on …", "Unused time on …", a tax line). */
  lines: { description: string; amount: number }[];
  /** Tax within `dueNow`. */
  taxNow: number;
  /** What each later month costs on the new plan (tax included), from `recurringFromMs`. */
  recurring: number;
  recurringFromMs: number;
  /** The time the proration was computed for (the subscription's now), to charge the same when confirmed. */
  prorationDate: number;
}

/** A preview older than this (or dated ahead of the subscription's time) is not charged: the person looks again. */
export const PREVIEW_VALID_S = 3600;

/** A confirmed change whose preview is too old, or not this subscription's. */
export class StalePreviewError extends Error {
  constructor() {
    super('the price shown was computed more than an hour ago');
    this.name = 'StalePreviewError';
  }
}

/** One card payment received, with its receipt (Stripe's charge). */
export interface ProviderPayment {
  id: string;
  created_at: string;
  amount: number;
  currency: string;
  /** "VISA •••• 4242". */
  card: string | null;
  /** Stripe's receipt page of the payment. */
  receipt_url: string | null;
}

/** A verified webhook event: its id and what it names. */
export interface ProviderEvent {
  id: string;
  type: string;
  subscriptionId?: string;
  checkoutSessionId?: string;
  customerId?: string;
}

/** A Checkout Session read back. */
export interface ProviderCheckout {
  id: string;
  customerId: string | null;
  accountId: string | null;
  subscriptionId: string | null;
  complete: boolean;
}

/** What a catalogue sync did, for the CLI to print. */
export interface CatalogueSync {
  products: { api: string; id: string; created: boolean }[];
  prices: { api: string; plan: string; id: string; amount: number; currency: string; action: 'kept' | 'created' | 'replaced'; archived?: string }[];
  webhook: { url: string; id: string; created: boolean; secret?: string; note?: string };
}

/** The provider could not be reached or failed on its side: nothing was done, try later. */
export class ProviderUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`the payment provider could not be reached: ${(cause as Error).message}`, { cause });
    this.name = 'ProviderUnavailableError';
  }
}

/** The provider refused a charge (a card declined). */
export class PaymentDeclinedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentDeclinedError';
  }
}

/**
 * The provider has no customer, or subscription, the store remembers for an account: deleted at the
 * provider, or a stand-in (the demo's stripe-local) that started without its state.
 */
export class MissingAtProviderError extends Error {
  constructor(
    readonly kind: 'customer' | 'subscription',
    readonly id: string,
    cause?: unknown,
  ) {
    super(`the payment provider has no ${kind} ${id}`, { cause });
    this.name = 'MissingAtProviderError';
  }
}

/** A webhook whose signature, or timestamp, does not check out. */
export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/** A webhook whose signature checks out but whose body is not an event billing can read (no id, no type, no object). */
export class WebhookEventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookEventError';
  }
}

/**
 * A payment provider, as billing uses one: catalogue, customers, Checkout, plan changes, invoices,
 * its customer portal and its webhooks. Stripe is the one implementation (stripe/); admission
 * never sees it.
 */
export interface BillingProvider {
  /** Makes what the catalogue lacks (products, prices, the webhook endpoint at `webhookUrl`); archives prices whose amount changed. */
  syncCatalogue(plans: PlanTable, webhookUrl: string): Promise<CatalogueSync>;
  /** `api plan` of every paid plan without a current price at the provider. */
  missingPrices(plans: PlanTable): Promise<string[]>;
  /** A new customer for an account, billed in `currency`. */
  createCustomer(input: { accountId: string; email: string | null; name: string; currency: string }): Promise<string>;
  /** Removes a customer that was made but not kept (another checkout kept its own first). */
  deleteCustomer(customerId: string): Promise<void>;
  /** A hosted checkout for one plan, its first period ending at the start of the next UTC month. */
  createCheckout(input: { customerId: string; accountId: string; api: string; plan: string; successUrl: string; cancelUrl: string }): Promise<{ id: string; url: string }>;
  readCheckout(sessionId: string): Promise<ProviderCheckout | undefined>;
  /**
   * Makes a checkout unpayable: an open one is expired; one already paid is left as it is and
   * returned with its subscription (`paid`); one expired or unknown is `closed`.
   */
  closeCheckout(sessionId: string): Promise<{ state: 'closed' } | { state: 'paid'; subscriptionId: string | null }>;
  /** The subscription now; undefined when the provider does not know it. */
  readSubscription(subscriptionId: string): Promise<PaidSubscription | undefined>;
  /** Every subscription to Tollgate's prices the provider holds that has not ended. */
  listSubscriptions(): AsyncIterable<PaidSubscription>;
  /** What moving to a plan would charge: now (the prorated difference) when `now`, and each later month. */
  previewChange(subscriptionId: string, api: string, plan: string, now: boolean): Promise<ChangePreview>;
  /**
   * Moves to a plan now, charging the prorated difference at once (a decline changes nothing); with
   * `prorationDate` (a preview's), exactly what that preview showed ({@link StalePreviewError} when it is too old).
   */
  changePlanNow(subscriptionId: string, api: string, plan: string, prorationDate?: number): Promise<PaidSubscription>;
  /** Moves to a plan at the end of the billing period. */
  changePlanAtPeriodEnd(subscriptionId: string, api: string, plan: string): Promise<PaidSubscription>;
  /** Ends the subscription at the end of the billing period. */
  cancelAtPeriodEnd(subscriptionId: string): Promise<PaidSubscription>;
  /** Ends the subscription now, without a refund or a final invoice (its account is being deleted). */
  cancelNow(subscriptionId: string): Promise<void>;
  /** Takes back a change or a cancellation set for the period's end. */
  keepCurrentPlan(subscriptionId: string): Promise<PaidSubscription>;
  /** The customer's latest invoices, newest first. */
  listInvoices(customerId: string, limit: number): Promise<ProviderInvoice[]>;
  /** The customer's latest payments received, newest first. */
  listPayments(customerId: string, limit: number): Promise<ProviderPayment[]>;
  /** A session of the provider's customer portal (card, invoices), returning to `returnUrl`. */
  createPortalSession(customerId: string, returnUrl: string): Promise<string>;
  /** Verifies a webhook's signature and age; throws {@link WebhookSignatureError}. */
  parseWebhook(rawBody: Buffer, signature: string | undefined): ProviderEvent;
}
