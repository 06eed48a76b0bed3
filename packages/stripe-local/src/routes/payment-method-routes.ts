import { attachPaymentMethod, storeCard } from '../billing/payment-methods';
import { cardDetails } from '../billing/read-card-form';
import { testTokenCard } from '../billing/test-cards';
import { nowFor } from '../core/context';
import type { Context, Moment } from '../core/context';
import { LIST_PARAMS, paginate } from '../core/paginate';
import type { Params } from '../core/params';
import { readMetadata } from '../core/read-metadata';
import type { ApiRoute } from '../http/api-route';
import { invalidRequest, resourceMissing } from '../http/stripe-error';
import type { PaymentMethod } from '../objects/payment-method';
import { retrieveRoute } from './list-routes';

/**
 * `/v1/payment_methods`: cards made from Stripe's test tokens (`card[token]=tok_visa`) or test
 * ids (`pm_card_visa` in `attach`), attached to customers, listed, detached. Card numbers are
 * typed only into the hosted pages.
 */
export function paymentMethodRoutes(ctx: Context): ApiRoute[] {
  const list = (params: Params, customer: string | undefined) => {
    params.allow('customer', 'type', ...LIST_PARAMS);
    if (customer) ctx.store.customers.require(customer, 'customer');
    params.oneOf('type', ['card'] as const);
    const methods = ctx.store.paymentMethods.all().filter((pm) => customer === undefined || pm.customer === customer);
    return paginate(methods, params, customer ? `/v1/customers/${customer}/payment_methods` : '/v1/payment_methods', 'PaymentMethod');
  };
  return [
    {
      method: 'POST',
      pattern: '/v1/payment_methods',
      handler: ({ params, request }) => {
        params.allow('type', 'card', 'billing_details', 'metadata');
        if (params.requireString('type') !== 'card') throw invalidRequest('stripe-local makes payment methods of type card only.', { param: 'type' });
        const token = params.object('card')?.allow('token').requireString('token');
        if (!token) throw invalidRequest('Pass card[token] with a test token such as tok_visa.', { param: 'card' });
        const billing = params.object('billing_details')?.allow('email', 'name', 'phone', 'address');
        const paymentMethod = paymentMethodFor(ctx, token, { at: ctx.now(), request }, 'card[token]', { email: billing?.string('email'), name: billing?.string('name') });
        paymentMethod.metadata = readMetadata(params);
        return paymentMethod;
      },
    },
    retrieveRoute('/v1/payment_methods', ctx.store.paymentMethods),
    { method: 'GET', pattern: '/v1/payment_methods', handler: ({ params }) => list(params, params.requireString('customer')) },
    { method: 'GET', pattern: '/v1/customers/:id/payment_methods', handler: ({ params, path }) => list(params, path.id) },
    {
      method: 'POST',
      pattern: '/v1/payment_methods/:id/attach',
      handler: ({ params, path, request }) => {
        params.allow('customer');
        const customer = ctx.store.customers.require(params.requireString('customer'), 'customer');
        const moment = { at: nowFor(ctx, customer.id), request };
        return attachPaymentMethod(ctx, paymentMethodFor(ctx, path.id!, moment, 'id'), customer, moment);
      },
    },
    {
      method: 'POST',
      pattern: '/v1/payment_methods/:id/detach',
      handler: ({ params, path, request }) => {
        params.allow();
        const paymentMethod = ctx.store.paymentMethods.require(path.id!);
        if (!paymentMethod.customer) throw invalidRequest('The payment method you provided is not attached to a customer so detachment is impossible.', { code: 'payment_method_unexpected_state' });
        const customer = ctx.store.customers.get(paymentMethod.customer);
        const moment = { at: nowFor(ctx, paymentMethod.customer), request };
        if (customer?.invoice_settings.default_payment_method === paymentMethod.id) {
          const before = ctx.snapshot(customer);
          customer.invoice_settings.default_payment_method = null;
          ctx.emit('customer.updated', customer, moment, before);
        }
        paymentMethod.customer = null;
        ctx.emit('payment_method.detached', paymentMethod, moment);
        return paymentMethod;
      },
    },
  ];
}

/** A stored payment method, or a new one when the id is a test id or token (`pm_card_visa`, `tok_visa`). */
export function paymentMethodFor(ctx: Context, id: string, moment: Moment, param: string, billing: { email?: string; name?: string } = {}): PaymentMethod {
  const stored = ctx.store.paymentMethods.get(id);
  if (stored) return stored;
  const card = testTokenCard(id);
  if (!card) throw resourceMissing('PaymentMethod', id, param);
  const expiry = new Date(moment.at * 1000);
  return storeCard(ctx, card, cardDetails(card, 12, expiry.getUTCFullYear() + 3), moment.at, billing);
}
