import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import type { BillingConfig } from '../../config';
import { MissingAtProviderError, PaymentDeclinedError, ProviderUnavailableError } from '../billing-provider';

// A person waits on Checkout and plan changes: Stripe's 80 s default is far too long to say it is down.
const TIMEOUT_MS = 15_000;

// Loaded when billing is on, not with this module: the SDK is 219 modules (about 120 ms of a
// start), and a gateway without STRIPE_SECRET_KEY never calls it.
const loadStripe = (): typeof Stripe => createRequire(__filename)('stripe') as typeof Stripe;

/** The official SDK, pointed at `STRIPE_API_BASE` when one is set (stripe-local in tests and the demo). */
export function createStripeSdk(config: Pick<BillingConfig, 'secretKey' | 'apiBase'>): Stripe {
  const StripeSdk = loadStripe();
  return new StripeSdk(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: TIMEOUT_MS,
    telemetry: false,
    appInfo: { name: 'Tollgate' },
    ...(config.apiBase ?? {}),
  });
}

const UNAVAILABLE = new Set(['StripeConnectionError', 'StripeAPIError', 'StripeRateLimitError', 'StripeAuthenticationError', 'StripePermissionError']);

/** Whether Stripe answered that the object does not exist (also once {@link providerError} has named it). */
export const isMissing = (err: unknown): boolean =>
  err instanceof MissingAtProviderError || (err as { statusCode?: number; code?: string }).statusCode === 404 || (err as { code?: string }).code === 'resource_missing';

/**
 * Runs a Stripe call, turning what is not the caller's fault into {@link ProviderUnavailableError}
 * (unreachable, 5xx, rate limited, a bad key), a card decline into {@link PaymentDeclinedError} and
 * a customer or subscription Stripe does not have into {@link MissingAtProviderError}; anything else (an invalid
 * request: a bug here) is thrown as it came, and the error handler answers it 500 without its message.
 */
export async function stripeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw providerError(err);
  }
}

/** A Stripe error as {@link stripeCall} turns it (for loops over the SDK's auto-pagination). */
export function providerError(err: unknown): unknown {
  const type = (err as { type?: string }).type ?? '';
  if (UNAVAILABLE.has(type)) return new ProviderUnavailableError(err);
  if (type === 'StripeCardError') return new PaymentDeclinedError((err as Error).message);
  const missing = isMissing(err) ? /^No such (customer|subscription): '([^']+)'/.exec((err as Error).message ?? '') : null;
  if (missing) return new MissingAtProviderError(missing[1] as 'customer' | 'subscription', missing[2]!, err);
  return err;
}
