import type Stripe from 'stripe';
import type { Running } from './start-stripe-local';

/** Unix seconds of an ISO time. */
export const at = (iso: string): number => Date.parse(iso) / 1000;

/** A customer living on a new test clock, with a card that pays (or another test card) as default. */
export async function clockedCustomer({ stripe }: Running, frozenTime: number, card = 'pm_card_visa'): Promise<{ clock: Stripe.TestHelpers.TestClock; customer: Stripe.Customer; paymentMethod: Stripe.PaymentMethod }> {
  const clock = await stripe.testHelpers.testClocks.create({ frozen_time: frozenTime, name: 'lifecycle' });
  const customer = await stripe.customers.create({ email: `${clock.id}@example.test`, test_clock: clock.id });
  const paymentMethod = await stripe.paymentMethods.attach(card, { customer: customer.id });
  await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: paymentMethod.id } });
  return { clock, customer, paymentMethod };
}

/** A monthly price of a new product. */
export async function monthly({ stripe }: Running, unitAmount: number, name: string): Promise<Stripe.Price> {
  return stripe.prices.create({ currency: 'usd', unit_amount: unitAmount, recurring: { interval: 'month' }, product_data: { name } });
}

/** Advances the clock and waits until it is ready and its webhooks are delivered. */
export async function advance({ stripe, server }: Running, clockId: string, frozenTime: number): Promise<void> {
  const advancing = await stripe.testHelpers.testClocks.advance(clockId, { frozen_time: frozenTime });
  if (advancing.status !== 'advancing') throw new Error(`the clock is ${advancing.status}, not advancing`);
  await server.settle();
}
