import { AUTOMATIC, nowFor } from '../core/context';
import type { Context, Moment } from '../core/context';
import { createId } from '../core/create-id';
import { cardError, invalidRequest } from '../http/stripe-error';
import type { CheckoutSession } from '../objects/checkout-session';
import { invoicePrefix, newCustomer } from '../objects/customer';
import type { Address, Customer } from '../objects/customer';
import type { EventRequest } from '../objects/stripe-event';
import { attachPaymentMethod, storeCard } from './payment-methods';
import { readCardForm } from './read-card-form';
import type { CardForm } from './read-card-form';
import { startSubscription } from './start-subscription';

/** What a person submits on the hosted Checkout page. */
export interface CheckoutForm extends CardForm {
  email?: string;
  name?: string;
  /** The billing address, when the session asks for it. */
  country?: string;
  line1?: string;
  postalCode?: string;
  city?: string;
  /** A business's VAT number, when the session collects tax IDs. */
  taxId?: string;
}

const VAT_NUMBER = /^[A-Z]{2}[0-9A-Z]{2,12}$/;

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/**
 * Pays a Checkout Session with a card, as the hosted page does: the customer is made if needed,
 * the card saved to it and the subscription started with its first invoice paid; then the session
 * is `complete` (`checkout.session.completed`). A card that saves but cannot be charged (…0341)
 * stays on the customer, and the session stays open for another card.
 */
export function completeCheckout(ctx: Context, session: CheckoutSession, form: CheckoutForm, request: EventRequest = AUTOMATIC): CheckoutSession {
  if (session.status !== 'open') throw invalidRequest(`This Checkout Session is ${session.status}; it cannot be paid.`, { code: 'checkout_session_not_open' });
  const plan = ctx.store.sessionPlans.get(session.id);
  if (!plan) throw invalidRequest('This Checkout Session has no line items.');
  const known = session.customer ?? plan.customerId;
  const moment: Moment = { at: nowFor(ctx, known), request };
  const email = (known ? ctx.store.customers.get(known)?.email : null) ?? session.customer_email ?? form.email?.trim() ?? '';
  if (!known && !EMAIL.test(email)) throw invalidRequest(email ? 'Your email address is invalid.' : 'Your email is incomplete.', { param: 'email' });
  const card = readCardForm(form, moment.at);
  if (card.testCard.attach) throw cardError(card.testCard.attach);

  const name = form.name?.trim() || null;
  const address = plan.collectAddress ? readAddress(form) : null;
  const taxId = plan.collectTaxId ? readTaxId(form, address) : null;
  const customer = known ? ctx.store.customers.require(known) : createCheckoutCustomer(ctx, email, name, moment);
  if (address && plan.updateAddress) {
    const before = ctx.snapshot(customer);
    customer.address = address;
    ctx.emit('customer.updated', customer, moment, before);
  }
  if (taxId) ctx.store.customerTaxIds.set(customer.id, [taxId]);
  plan.customerId = customer.id;
  const paymentMethod = storeCard(ctx, card.testCard, card.details, moment.at, { email, name });
  attachPaymentMethod(ctx, paymentMethod, customer, moment);
  const { subscription, invoice } = startSubscription(
    ctx,
    {
      customer,
      lines: plan.lines.map((line) => ({ price: ctx.store.prices.require(line.price), quantity: line.quantity })),
      metadata: plan.subscriptionMetadata,
      defaultPaymentMethod: paymentMethod.id,
      billingCycleAnchor: plan.billingCycleAnchor,
      prorate: plan.prorate,
      paymentBehavior: 'error_if_incomplete',
      automaticTax: plan.automaticTax,
    },
    moment,
  );
  Object.assign(session, {
    status: 'complete',
    payment_status: invoice.amount_paid > 0 ? 'paid' : 'no_payment_required',
    customer: customer.id,
    customer_details: { address: address ?? customer.address, email: customer.email, name, phone: null, tax_exempt: 'none', tax_ids: taxId ? [taxId] : [] },
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: invoice.total - invoice.subtotal },
    subscription: subscription.id,
    invoice: invoice.id,
    amount_subtotal: invoice.subtotal,
    amount_total: invoice.total,
    url: null,
  });
  ctx.emit('checkout.session.completed', session, moment);
  return session;
}

function readAddress(form: CheckoutForm): Address {
  const country = form.country?.trim().toUpperCase() ?? '';
  if (!/^[A-Z]{2}$/.test(country)) throw invalidRequest('Your billing country is incomplete.', { param: 'country' });
  return { city: form.city?.trim() || null, country, line1: form.line1?.trim() || null, line2: null, postal_code: form.postalCode?.trim() || null, state: null };
}

// A VAT number starts with its country's code (Greece's is EL); stripe-local checks its form only.
function readTaxId(form: CheckoutForm, address: Address | null): { type: string; value: string } | null {
  const value = form.taxId?.replace(/[\s.-]/g, '').toUpperCase() ?? '';
  if (!value) return null;
  if (!VAT_NUMBER.test(value) || (address?.country && value.slice(0, 2) !== address.country)) throw invalidRequest('Your tax ID is invalid: an EU VAT number starts with the country code of your billing address.', { param: 'tax_id' });
  return { type: 'eu_vat', value };
}

function createCheckoutCustomer(ctx: Context, email: string, name: string | null, moment: Moment): Customer {
  const customer = newCustomer(createId('cus_', 14), moment.at, invoicePrefix(), { email, name });
  ctx.store.customers.add(customer);
  ctx.emit('customer.created', customer, moment);
  return customer;
}

/** Ends an open session unpaid (`checkout.session.expired`). */
export function expireCheckoutSession(ctx: Context, session: CheckoutSession, moment: Moment): void {
  if (session.status !== 'open') throw invalidRequest(`Only open Checkout Sessions can be expired; this one is ${session.status}.`);
  session.status = 'expired';
  session.url = null;
  ctx.emit('checkout.session.expired', session, moment);
}
