import { AppError } from '@tollgate/envelope/core';
import { PORTAL_BILLING_PAGE } from '../domain/subscription-refusal';
import { MissingAtProviderError, PaymentDeclinedError, ProviderUnavailableError, StalePreviewError } from './billing-provider';
import { PriceMissingError } from './stripe/stripe-changes';

/** Whom a person is told to ask when something only the operator can fix is missing. */
export const askSupport = (supportEmail: string | undefined): string => (supportEmail ? `write to ${supportEmail}` : 'ask the people who run this server');

/** Says what the provider no longer has (an account's customer in `currency`, or a plan's subscription), and that the plans stand. */
export function missingAtProviderText(err: MissingAtProviderError, currency: string | undefined, supportEmail: string | undefined): string {
  const what =
    err.kind === 'customer'
      ? `the card customer this account pays its ${currency ?? 'paid'} plans with, so its card and invoices cannot be opened here`
      : 'the subscription this plan is paid through, so the plan cannot be changed or cancelled here';
  return `Stripe no longer has ${what}; the plans you have are unchanged: ${askSupport(supportEmail)}`;
}

/**
 * A provider failure as the person is told it, saying that nothing was charged or changed where
 * that is so: unreachable (502, retry), a declined card (402), a plan without its price (503), a
 * customer or subscription the provider no longer has (409). Anything else is thrown as it came (a 500, logged;
 * its message is never sent).
 */
export function billingError(err: unknown, supportEmail: string | undefined, currency?: string): unknown {
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
  if (err instanceof MissingAtProviderError) {
    return new AppError('CONFLICT', missingAtProviderText(err, currency, supportEmail), { cause: err, details: { reason: `${err.kind}_missing` } });
  }
  if (err instanceof StalePreviewError) {
    return new AppError('CONFLICT', 'the price you confirmed was computed more than an hour ago, so nothing was charged and the plan is unchanged: look at the price again and confirm it', { details: { reason: 'preview_stale' } });
  }
  if (err instanceof PriceMissingError) {
    return new AppError('NOT_READY', `the ${err.api} API's ${err.plan} plan cannot be paid by card on this server yet (its price is not set up at Stripe); ${askSupport(supportEmail)}`, {
      cause: err,
      details: { reason: 'price_missing', api: err.api, plan: err.plan },
    });
  }
  return err;
}

/**
 * Runs a person's billing action, telling provider failures as {@link billingError} does;
 * `currencyOf` finds which of the account's customers the provider no longer has.
 */
export async function asPerson<T>(supportEmail: string | undefined, action: () => Promise<T>, currencyOf?: (customerId: string) => Promise<string | undefined>): Promise<T> {
  try {
    return await action();
  } catch (err) {
    const currency = err instanceof MissingAtProviderError && err.kind === 'customer' && currencyOf ? await currencyOf(err.id).catch(() => undefined) : undefined;
    throw billingError(err, supportEmail, currency);
  }
}
