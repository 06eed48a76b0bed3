import { AppError } from '@tollgate/envelope/core';
import type { ProviderFlowDeps } from './apply-subscription';
import type { ProviderEvent } from './billing-provider';

/** The events that can change a subscription; any other type is acknowledged and ignored. */
export const HANDLED_EVENTS: ReadonlySet<string> = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
]);

/** What became of one event, for the answer and the log. */
export type EventOutcome = 'applied' | 'unchanged' | 'duplicate' | 'ignored' | 'unknown_customer';

/**
 * Handles one verified event, once: its id is claimed in the store first (a second delivery finds
 * it handled, or being handled and is asked to come again), and released if handling fails so
 * Stripe's retry can do it. The event only says which subscription to look at: it is read from the
 * provider as it is now and applied, so events coming twice or out of order change nothing more.
 */
export function createWebhookIntake(deps: ProviderFlowDeps & { receipts?: (customerId: string, accountId: string) => Promise<void> }): (event: ProviderEvent) => Promise<EventOutcome> {
  const { provider, billingStore, logger } = deps;

  const handle = async (event: ProviderEvent): Promise<EventOutcome> => {
    if (!HANDLED_EVENTS.has(event.type)) return 'ignored';
    let subscriptionId = event.subscriptionId;
    if (event.checkoutSessionId) subscriptionId = (await provider.readCheckout(event.checkoutSessionId))?.subscriptionId ?? undefined;
    if (!subscriptionId) return 'ignored';
    const paid = await provider.readSubscription(subscriptionId);
    if (!paid) return 'ignored';
    const accountId = await billingStore.accountOfCustomer(paid.customerId);
    if (!accountId) {
      logger.warn({ event: event.id, type: event.type, customer: paid.customerId, subscription: paid.id }, 'billing webhook for a customer no account holds: acknowledged and ignored');
      return 'unknown_customer';
    }
    const applied = await deps.apply(paid, accountId);
    // A receipt copy is a courtesy: a failure to send it does not make Stripe send the event again.
    if (event.type === 'invoice.paid') await deps.receipts?.(paid.customerId, accountId).catch((err: unknown) => logger.error({ err: (err as Error).message, account_id: accountId }, 'receipt copies not sent'));
    return applied?.changed ? 'applied' : 'unchanged';
  };

  return async (event) => {
    const claim = await billingStore.claimEvent(event.id, deps.clock());
    if (claim === 'done') return 'duplicate';
    if (claim === 'busy') throw new AppError('CONFLICT', `event ${event.id} is being handled by another request; send it again later`, { headers: { 'Retry-After': '5' } });
    try {
      const outcome = await handle(event);
      await billingStore.settleEvent(event.id, true, deps.clock());
      logger.info({ event: event.id, type: event.type, outcome }, 'billing webhook');
      return outcome;
    } catch (err) {
      await billingStore.settleEvent(event.id, false, deps.clock()).catch(() => undefined);
      throw err;
    }
  };
}
