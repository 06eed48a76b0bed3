import type { Context, Moment } from '../core/context';
import { cardError } from '../http/stripe-error';
import type { Decline } from '../http/stripe-error';
import type { Customer } from '../objects/customer';
import { payInvoice } from './invoices';
import { attachPaymentMethod, setDefaultPaymentMethod, storeCard } from './payment-methods';
import { readCardForm } from './read-card-form';
import type { CardForm } from './read-card-form';
import { openInvoices } from './subscription-status';

/**
 * What the portal does with a new card: saves it as the customer's default and as every running
 * subscription's, then pays the open invoices with it, oldest first, until one is declined (which
 * brings `past_due` and `unpaid` subscriptions back to `active`). Returns that decline, if any.
 */
export function replaceCard(ctx: Context, customer: Customer, form: CardForm, moment: Moment): Decline | null {
  const card = readCardForm(form, moment.at);
  if (card.testCard.attach) throw cardError(card.testCard.attach);
  const paymentMethod = storeCard(ctx, card.testCard, card.details, moment.at, { email: customer.email, name: customer.name });
  attachPaymentMethod(ctx, paymentMethod, customer, moment);
  setDefaultPaymentMethod(ctx, customer, paymentMethod.id, moment);
  for (const subscription of ctx.store.subscriptions.all()) {
    if (subscription.customer !== customer.id || subscription.status === 'canceled' || subscription.status === 'incomplete_expired') continue;
    const before = ctx.snapshot(subscription);
    subscription.default_payment_method = paymentMethod.id;
    ctx.emit('customer.subscription.updated', subscription, moment, before);
  }
  let failed: Decline | null = null;
  for (const invoice of openInvoices(ctx, customer.id).reverse()) {
    failed ??= payInvoice(ctx, invoice, moment, { paymentMethodId: paymentMethod.id });
  }
  return failed;
}
