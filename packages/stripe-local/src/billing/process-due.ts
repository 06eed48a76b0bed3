import { AUTOMATIC } from '../core/context';
import type { Context } from '../core/context';
import { currentPeriod } from '../objects/subscription';
import { payInvoice } from './invoices';
import { expireSubscription, renewSubscription } from './renew-subscription';

/** How long an `incomplete` subscription waits for its first payment (Stripe: 23 hours). */
const INCOMPLETE_SECONDS = 23 * 3600;

// Enough for years of daily renewals; a bound, so a bug cannot hang a request.
const MAX_STEPS = 20_000;

interface DueAction {
  at: number;
  run: () => void;
}

/**
 * Runs, in time order, everything due up to `upTo` for the objects living on one test clock
 * (`clockId`) or on the wall clock (`null`): renewals, cancellations at period end, payment
 * retries and expiries. Each runs at its own time, so its objects and events carry that time.
 */
export function processDue(ctx: Context, clockId: string | null, upTo: number): void {
  for (let step = 0; step < MAX_STEPS; step++) {
    const next = nextDue(ctx, clockId);
    if (!next || next.at > upTo) return;
    next.run();
  }
}

function nextDue(ctx: Context, clockId: string | null): DueAction | undefined {
  let next: DueAction | undefined;
  const consider = (action: DueAction) => {
    if (!next || action.at < next.at) next = action;
  };
  for (const invoice of ctx.store.invoices.all()) {
    if (invoice.test_clock !== clockId || invoice.status !== 'open' || invoice.next_payment_attempt === null) continue;
    const at = invoice.next_payment_attempt;
    consider({ at, run: () => payInvoice(ctx, invoice, { at, request: AUTOMATIC }, { automatic: true }) });
  }
  for (const subscription of ctx.store.subscriptions.all()) {
    if (subscription.test_clock !== clockId) continue;
    if (subscription.status === 'incomplete') {
      const at = subscription.created + INCOMPLETE_SECONDS;
      consider({ at, run: () => expireSubscription(ctx, subscription, at) });
    } else if (subscription.status === 'active' || subscription.status === 'past_due' || subscription.status === 'unpaid') {
      const at = Math.min(currentPeriod(subscription).end, subscription.cancel_at ?? Infinity);
      consider({ at, run: () => renewSubscription(ctx, subscription, at) });
    }
  }
  return next;
}
