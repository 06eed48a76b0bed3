import { AppError } from '@tollgate/envelope';
import { PORTAL_BILLING_PAGE } from '../domain/subscription-refusal';
import { PaymentDeclinedError, ProviderUnavailableError } from './billing-provider';
import { PriceMissingError } from './stripe/stripe-changes';

/** Whom a person is told to ask when something only the operator can fix is missing. */
export const askSupport = (supportEmail: string | undefined): string => (supportEmail ? `write to ${supportEmail}` : 'ask the people who run this server');

/**
 * A provider failure as the person is told it, saying that nothing was charged or changed where
 * that is so: unreachable (502, retry), a declined card (402), a plan without its price (503).
 * Anything else is thrown as it came (a 500, logged).
 */
export function billingError(err: unknown, supportEmail: string | undefined): unknown {
  if (err instanceof ProviderUnavailableError) {
    return new AppError('UPSTREAM_UNAVAILABLE', 'card payments are unavailable right now because Stripe could not be reached; nothing was charged and no plan changed: try again in a minute', {
      cause: err,
      headers: { 'Retry-After': '30' },
      details: { reason: 'provider_unavailable' },
    });
  }
  if (err instanceof PaymentDeclinedError) {
    return new AppError('SUBSCRIPTION_REQUIRED', `the card was declined (${err.message}), so the plan is unchanged: change the card with "Manage card and invoices" on ${PORTAL_BILLING_PAGE}, then try again`, {
      details: { reason: 'card_declined' },
    });
  }
  if (err instanceof PriceMissingError) {
    return new AppError('NOT_READY', `the ${err.api} API's ${err.plan} plan cannot be paid by card on this server yet (its price is not set up at Stripe); ${askSupport(supportEmail)}`, {
      cause: err,
      details: { reason: 'price_missing', api: err.api, plan: err.plan },
    });
  }
  return err;
}

/** Runs a person's billing action, telling provider failures as {@link billingError} does. */
export async function asPerson<T>(supportEmail: string | undefined, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (err) {
    throw billingError(err, supportEmail);
  }
}
