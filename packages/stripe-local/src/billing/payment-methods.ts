import type { Context, Moment } from '../core/context';
import { createId } from '../core/create-id';
import { cardError, invalidRequest } from '../http/stripe-error';
import type { Decline } from '../http/stripe-error';
import type { Customer } from '../objects/customer';
import { newPaymentMethod } from '../objects/payment-method';
import type { CardDetails, PaymentMethod } from '../objects/payment-method';
import type { TestCard } from './test-cards';

/** Stores a new, unattached card payment method. */
export function storeCard(ctx: Context, card: TestCard, details: CardDetails, at: number, billing: { email?: string | null; name?: string | null } = {}): PaymentMethod {
  const paymentMethod = newPaymentMethod(createId('pm_'), at, details, billing);
  ctx.store.cards.set(paymentMethod.id, card);
  return ctx.store.paymentMethods.add(paymentMethod);
}

/** Attaches a payment method to a customer; a card that cannot be saved is a card error. */
export function attachPaymentMethod(ctx: Context, paymentMethod: PaymentMethod, customer: Customer, moment: Moment): PaymentMethod {
  if (paymentMethod.customer === customer.id) return paymentMethod;
  if (paymentMethod.customer) {
    throw invalidRequest('The payment method you provided has already been attached to a customer.', { code: 'payment_method_unexpected_state' });
  }
  const decline = ctx.store.cards.get(paymentMethod.id)?.attach;
  if (decline) throw cardError(decline);
  paymentMethod.customer = customer.id;
  ctx.emit('payment_method.attached', paymentMethod, moment);
  return paymentMethod;
}

/** Makes an attached payment method the customer's default for invoices. */
export function setDefaultPaymentMethod(ctx: Context, customer: Customer, paymentMethodId: string, moment: Moment, param = 'invoice_settings[default_payment_method]'): void {
  requireAttached(ctx, customer, paymentMethodId, param);
  const before = ctx.snapshot(customer);
  customer.invoice_settings.default_payment_method = paymentMethodId;
  ctx.emit('customer.updated', customer, moment, before);
}

/** Refuses a payment method that is not attached to the customer, as Stripe does. */
export function requireAttached(ctx: Context, customer: Customer, paymentMethodId: string, param: string): PaymentMethod {
  const paymentMethod = ctx.store.paymentMethods.require(paymentMethodId, param);
  if (paymentMethod.customer !== customer.id) {
    throw invalidRequest(`The customer does not have a payment method with the ID ${paymentMethodId}. The payment method must be attached to the customer.`, { param });
  }
  return paymentMethod;
}

/** What charging this payment method does now: `null` succeeds. */
export function chargeDecline(ctx: Context, paymentMethodId: string | null): Decline | null {
  if (!paymentMethodId) return { code: 'payment_method_missing', message: 'The customer has no default payment method to charge.' };
  const card = ctx.store.cards.get(paymentMethodId);
  return card ? card.charge : null;
}
