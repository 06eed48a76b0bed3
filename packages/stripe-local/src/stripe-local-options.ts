import type { ReceiptMail } from './objects/charge';

/** Options of `createStripeLocal`; every one has a default. */
export interface StripeLocalOptions {
  /** Wall-clock time in ms (Date.now by default): "now" for everything not under a test clock. */
  clock?: () => number;
  /** Delay before the first redelivery of a failed webhook, doubling each time (5 s). */
  webhookRetryMs?: number;
  /** Delivery attempts per event and endpoint, the first included (8). */
  webhookMaxAttempts?: number;
  /** How long a webhook receiver may take to answer (10 s). */
  webhookTimeoutMs?: number;
  /** How long a test clock stays `advancing` before its customers catch up (0 ms: the next turn). */
  testClockDelayMs?: number;
  /** Days after an invoice's first failed attempt on which it is retried ([3, 5, 7]). */
  retryDays?: readonly number[];
  /** What a subscription becomes when the last retry fails ('unpaid'). */
  retriesExhausted?: 'unpaid' | 'canceled';
  /** Base URL of the hosted pages when it is not the URL the server listens on. */
  publicUrl?: string;
  /** The merchant name on hosted pages and invoices. */
  accountName?: string;
  /** How webhooks are sent (global fetch by default). */
  fetch?: typeof fetch;
  /** Where unexpected errors and undeliverable webhooks are reported (nowhere by default). */
  log?: (line: string) => void;
  /**
   * A file that keeps every object across restarts (JSON, rewritten after each change and at
   * close, read at creation); in memory only when unset.
   */
  stateFile?: string;
  /** The signing secret of every webhook endpoint made (`whsec_…`; a random one each when unset). */
  webhookSecret?: string;
  /**
   * Receipts on (Stripe's "Successful payments" mails): each card charge's receipt is handed here to
   * be sent to the customer's email; off when unset (the receipt page is served either way).
   */
  mailReceipt?: (mail: ReceiptMail) => void | Promise<void>;
}

/** The options with their defaults applied. */
export type Settings = Required<Omit<StripeLocalOptions, 'publicUrl' | 'stateFile' | 'webhookSecret' | 'mailReceipt'>> & {
  publicUrl: string | null;
  stateFile: string | null;
  webhookSecret: string | null;
  mailReceipt: StripeLocalOptions['mailReceipt'] | null;
};

/** Applies the defaults and checks the numbers. */
export function resolveOptions(options: StripeLocalOptions = {}): Settings {
  const settings: Settings = {
    clock: options.clock ?? Date.now,
    webhookRetryMs: options.webhookRetryMs ?? 5_000,
    webhookMaxAttempts: options.webhookMaxAttempts ?? 8,
    webhookTimeoutMs: options.webhookTimeoutMs ?? 10_000,
    testClockDelayMs: options.testClockDelayMs ?? 0,
    retryDays: options.retryDays ?? [3, 5, 7],
    retriesExhausted: options.retriesExhausted ?? 'unpaid',
    publicUrl: options.publicUrl?.replace(/\/+$/, '') ?? null,
    accountName: options.accountName ?? 'stripe-local',
    fetch: options.fetch ?? fetch,
    log: options.log ?? (() => undefined),
    stateFile: options.stateFile ?? null,
    webhookSecret: options.webhookSecret ?? null,
    mailReceipt: options.mailReceipt ?? null,
  };
  if (!(settings.webhookRetryMs >= 0) || !(settings.webhookMaxAttempts >= 1) || !(settings.webhookTimeoutMs > 0) || !(settings.testClockDelayMs >= 0)) {
    throw new RangeError('webhookRetryMs and testClockDelayMs must be ≥ 0, webhookMaxAttempts ≥ 1 and webhookTimeoutMs > 0');
  }
  if (settings.retryDays.some((day, i) => !(day > 0) || day <= (settings.retryDays[i - 1] ?? 0))) {
    throw new RangeError('retryDays must be increasing positive numbers of days');
  }
  if (settings.webhookSecret !== null && !/^whsec_\S{16,}$/.test(settings.webhookSecret)) throw new RangeError('webhookSecret must be whsec_ and at least 16 more characters');
  return settings;
}
