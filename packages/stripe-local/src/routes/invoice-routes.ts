import { closeInvoice, payInvoice } from '../billing/invoices';
import { previewInvoice } from '../billing/preview-invoice';
import { PRORATION_BEHAVIORS as PRORATIONS } from '../billing/update-subscription';
import { momentFor } from '../core/context';
import type { Context } from '../core/context';
import { LIST_PARAMS, paginate } from '../core/paginate';
import type { Params } from '../core/params';
import type { ApiRoute } from '../http/api-route';
import { cardError, invalidRequest } from '../http/stripe-error';
import type { Invoice } from '../objects/invoice';
import { equalTo, listRoute, ofExisting, oneOf, retrieveRoute } from './list-routes';
import { readItemChanges } from './subscription-routes';

const STATUSES = ['draft', 'open', 'paid', 'void', 'uncollectible'] as const;

/** `/v1/invoices`: retrieve, list, lines, and pay, void or mark uncollectible an open one. */
export function invoiceRoutes(ctx: Context): ApiRoute[] {
  const openOne = (id: string): Invoice => {
    const invoice = ctx.store.invoices.require(id);
    if (invoice.status === 'paid') throw invalidRequest('Invoice is already paid', { code: 'invoice_already_paid' });
    if (invoice.status !== 'open') throw invalidRequest(`This invoice is ${invoice.status}; only an open invoice can be paid, voided or marked uncollectible.`, { code: 'invoice_not_editable' });
    return invoice;
  };
  return [
    {
      method: 'POST',
      pattern: '/v1/invoices/create_preview',
      handler: ({ params }) => {
        params.allow('customer', 'subscription', 'subscription_details', 'automatic_tax');
        const subscriptionId = params.string('subscription');
        const subscription = subscriptionId ? ctx.store.subscriptions.require(subscriptionId, 'subscription') : null;
        const customerId = params.string('customer') ?? subscription?.customer;
        if (!customerId) throw invalidRequest('stripe-local previews an invoice for a customer or a subscription: pass customer or subscription.', { param: 'customer' });
        const customer = ctx.store.customers.require(customerId, 'customer');
        if (subscription && subscription.customer !== customer.id) throw invalidRequest(`The subscription ${subscription.id} does not belong to the customer ${customer.id}.`, { param: 'subscription' });
        const details = params.object('subscription_details')?.allow('items', 'proration_behavior', 'proration_date', 'billing_cycle_anchor', 'cancel_at_period_end');
        const items = details ? readItemChanges(ctx, details) : [];
        if (!subscription && items.length === 0) throw invalidRequest('Previewing a new subscription needs subscription_details[items].', { param: 'subscription_details[items]' });
        const anchor = details ? readPreviewAnchor(details) : undefined;
        if (subscription && anchor !== undefined && anchor !== 'unchanged') throw invalidRequest('stripe-local previews billing_cycle_anchor for a new subscription only.', { param: 'subscription_details[billing_cycle_anchor]' });
        return previewInvoice(ctx, {
          customer,
          subscription,
          items,
          prorationBehavior: details?.oneOf('proration_behavior', PRORATIONS),
          prorationDate: details?.integer('proration_date'),
          billingCycleAnchor: typeof anchor === 'number' ? anchor : undefined,
          cancelAtPeriodEnd: details?.boolean('cancel_at_period_end'),
          automaticTax: params.object('automatic_tax')?.allow('enabled').boolean('enabled'),
        });
      },
    },
    retrieveRoute('/v1/invoices', ctx.store.invoices),
    listRoute('/v1/invoices', ctx.store.invoices, {
      customer: ofExisting(ctx.store.customers, (i) => i.customer),
      subscription: equalTo((i) => i.parent.subscription_details.subscription),
      status: oneOf(STATUSES, (i) => i.status),
      collection_method: oneOf(['charge_automatically'], (i) => i.collection_method),
    }),
    {
      method: 'GET',
      pattern: '/v1/invoices/:id/lines',
      handler: ({ params, path }) => {
        params.allow(...LIST_PARAMS);
        const invoice = ctx.store.invoices.require(path.id!);
        const lines = invoice.lines.data.map((line) => ({ ...line, created: invoice.created }));
        return paginate(lines, params, `/v1/invoices/${invoice.id}/lines`, 'line item');
      },
    },
    {
      method: 'POST',
      pattern: '/v1/invoices/:id/pay',
      handler: ({ params, path, request }) => {
        params.allow('payment_method', 'paid_out_of_band', 'off_session');
        const invoice = openOne(path.id!);
        const paymentMethodId = params.string('payment_method');
        if (paymentMethodId) ctx.store.paymentMethods.require(paymentMethodId, 'payment_method');
        const decline = payInvoice(ctx, invoice, momentFor(ctx, invoice.customer, request), { paymentMethodId, outOfBand: params.boolean('paid_out_of_band') });
        if (decline?.code === 'payment_method_missing') {
          throw invalidRequest('This customer has no attached payment source or default payment method. Please consider adding a default payment method.');
        }
        if (decline) throw cardError(decline);
        return invoice;
      },
    },
    ...(['void', 'mark_uncollectible'] as const).map(
      (action): ApiRoute => ({
        method: 'POST',
        pattern: `/v1/invoices/:id/${action}`,
        handler: ({ params, path, request }) => {
          params.allow();
          const invoice = openOne(path.id!);
          closeInvoice(ctx, invoice, action === 'void' ? 'void' : 'uncollectible', momentFor(ctx, invoice.customer, request));
          return invoice;
        },
      }),
    ),
  ];
}

/**
 * A preview's `billing_cycle_anchor`: since API 2025 a hash (`[type]=timestamp&[timestamp]=…`,
 * `now`, `unchanged`), before that a timestamp.
 */
function readPreviewAnchor(details: Params): number | 'now' | 'unchanged' | undefined {
  const anchor = details.object('billing_cycle_anchor');
  if (!anchor) return details.integer('billing_cycle_anchor');
  anchor.allow('type', 'timestamp');
  const type = anchor.oneOf('type', ['now', 'timestamp', 'unchanged'] as const);
  if (type === 'timestamp') {
    const timestamp = anchor.integer('timestamp');
    if (timestamp === undefined) throw invalidRequest('A timestamp anchor needs its timestamp.', { param: anchor.name('timestamp') });
    return timestamp;
  }
  if (!type) throw invalidRequest('billing_cycle_anchor needs a type.', { param: anchor.name('type') });
  return type;
}
