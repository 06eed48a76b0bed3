import { attachPaymentMethod, setDefaultPaymentMethod } from '../billing/payment-methods';
import { endSubscription } from '../billing/subscription-status';
import { nowFor } from '../core/context';
import type { Context, Moment } from '../core/context';
import { createId } from '../core/create-id';
import type { Params } from '../core/params';
import { readMetadata } from '../core/read-metadata';
import type { ApiRoute } from '../http/api-route';
import { invalidRequest } from '../http/stripe-error';
import { invoicePrefix, newCustomer } from '../objects/customer';
import type { Customer } from '../objects/customer';
import { equalTo, listRoute, retrieveRoute } from './list-routes';
import { paymentMethodFor } from './payment-method-routes';

const EDITABLE = ['email', 'name', 'description', 'phone', 'metadata', 'invoice_settings'];

/** `/v1/customers`: create (optionally on a test clock), retrieve, update, list, delete. */
export function customerRoutes(ctx: Context): ApiRoute[] {
  return [
    {
      method: 'POST',
      pattern: '/v1/customers',
      handler: ({ params, request }) => {
        params.allow('test_clock', 'payment_method', ...EDITABLE);
        const clock = params.string('test_clock');
        const at = clock ? ctx.store.testClocks.require(clock, 'test_clock').frozen_time : ctx.now();
        const customer = ctx.store.customers.add(newCustomer(createId('cus_', 14), at, invoicePrefix(), { test_clock: clock ?? null }));
        const moment = { at, request };
        applyFields(customer, params);
        ctx.emit('customer.created', customer, moment);
        const paymentMethod = params.string('payment_method');
        if (paymentMethod) attachPaymentMethod(ctx, paymentMethodFor(ctx, paymentMethod, moment, 'payment_method'), customer, moment);
        setDefault(ctx, customer, params, moment);
        return customer;
      },
    },
    retrieveRoute('/v1/customers', ctx.store.customers),
    {
      method: 'POST',
      pattern: '/v1/customers/:id',
      handler: ({ params, path, request }) => {
        params.allow(...EDITABLE);
        const customer = ctx.store.customers.require(path.id!);
        const moment = { at: nowFor(ctx, customer.id), request };
        const before = ctx.snapshot(customer);
        applyFields(customer, params);
        ctx.emit('customer.updated', customer, moment, before);
        setDefault(ctx, customer, params, moment);
        return customer;
      },
    },
    listRoute('/v1/customers', ctx.store.customers, { email: equalTo((c) => c.email), test_clock: equalTo((c) => c.test_clock) }),
    {
      method: 'DELETE',
      pattern: '/v1/customers/:id',
      handler: ({ params, path, request }) => {
        params.allow();
        const customer = ctx.store.customers.require(path.id!);
        const moment = { at: nowFor(ctx, customer.id), request };
        for (const subscription of ctx.store.subscriptions.all()) {
          if (subscription.customer === customer.id && subscription.status !== 'canceled' && subscription.status !== 'incomplete_expired') {
            endSubscription(ctx, subscription, moment, 'cancellation_requested');
          }
        }
        ctx.store.customers.delete(customer.id);
        ctx.emit('customer.deleted', customer, moment);
        return { id: customer.id, object: 'customer', deleted: true };
      },
    },
  ];
}

function applyFields(customer: Customer, params: Params): void {
  for (const field of ['email', 'name', 'description', 'phone'] as const) {
    if (params.has(field)) customer[field] = params.string(field) ?? null;
  }
  if (customer.email !== null && customer.email.length > 512) throw invalidRequest('email can have up to 512 characters.', { param: 'email' });
  customer.metadata = readMetadata(params, customer.metadata);
}

function setDefault(ctx: Context, customer: Customer, params: Params, moment: Moment): void {
  const settings = params.object('invoice_settings')?.allow('default_payment_method');
  const id = settings?.string('default_payment_method');
  if (id) setDefaultPaymentMethod(ctx, customer, id, moment);
}
