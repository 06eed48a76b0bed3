import type { ItemChange } from '../billing/item-changes';
import { attachPaymentMethod, requireAttached } from '../billing/payment-methods';
import { startSubscription } from '../billing/start-subscription';
import { endSubscription } from '../billing/subscription-status';
import { updateSubscription } from '../billing/update-subscription';
import { PRORATION_BEHAVIORS as PRORATIONS } from '../billing/update-subscription';
import { momentFor } from '../core/context';
import type { Context } from '../core/context';
import type { Params } from '../core/params';
import { readMetadata } from '../core/read-metadata';
import type { ApiRoute } from '../http/api-route';
import { invalidRequest, missingParam } from '../http/stripe-error';
import type { Subscription, SubscriptionStatus } from '../objects/subscription';
import { equalTo, listRoute, retrieveRoute } from './list-routes';
import { paymentMethodFor } from './payment-method-routes';

const STATUSES: readonly (SubscriptionStatus | 'all' | 'ended')[] = ['incomplete', 'incomplete_expired', 'active', 'past_due', 'unpaid', 'canceled', 'ended', 'all'];
const PAYMENT_BEHAVIORS = ['allow_incomplete', 'error_if_incomplete', 'default_incomplete'] as const;

/** `/v1/subscriptions`: create, retrieve, list, update (prices, prorations, cancel at period end), cancel. */
export function subscriptionRoutes(ctx: Context): ApiRoute[] {
  return [
    {
      method: 'POST',
      pattern: '/v1/subscriptions',
      handler: ({ params, request }) => {
        params.allow('customer', 'items', 'default_payment_method', 'metadata', 'payment_behavior', 'billing_cycle_anchor', 'proration_behavior');
        const customer = ctx.store.customers.require(params.requireString('customer'), 'customer');
        const moment = momentFor(ctx, customer.id, request);
        const lines = params.list('items').map((item) => {
          item.allow('price', 'quantity', 'metadata');
          return { price: ctx.store.prices.require(item.requireString('price'), item.name('price')), quantity: item.integer('quantity') ?? 1 };
        });
        if (lines.length === 0) throw missingParam('items');
        const requested = params.string('default_payment_method');
        // Stripe's test ids (pm_card_visa) are made and attached here; real ones must be attached already.
        const paymentMethod = !requested
          ? undefined
          : ctx.store.paymentMethods.get(requested)
            ? requireAttached(ctx, customer, requested, 'default_payment_method')
            : attachPaymentMethod(ctx, paymentMethodFor(ctx, requested, moment, 'default_payment_method'), customer, moment);
        const { subscription } = startSubscription(
          ctx,
          {
            customer,
            lines,
            metadata: readMetadata(params),
            defaultPaymentMethod: paymentMethod?.id ?? null,
            billingCycleAnchor: params.integer('billing_cycle_anchor') ?? null,
            prorate: params.oneOf('proration_behavior', ['create_prorations', 'none'] as const) !== 'none',
            paymentBehavior: params.oneOf('payment_behavior', PAYMENT_BEHAVIORS) ?? 'allow_incomplete',
          },
          moment,
        );
        return subscription;
      },
    },
    retrieveRoute('/v1/subscriptions', ctx.store.subscriptions),
    listRoute('/v1/subscriptions', ctx.store.subscriptions, {
      customer: equalTo((s) => s.customer),
      test_clock: equalTo((s) => s.test_clock),
      price: (params, name) => {
        const price = params.string(name);
        return price === undefined ? undefined : (s) => s.items.data.some((item) => item.price === price);
      },
      // Without a status, Stripe lists the subscriptions that have not ended.
      status: (params, name) => {
        const status = params.oneOf(name, STATUSES);
        const ended = (s: Subscription) => s.status === 'canceled' || s.status === 'incomplete_expired';
        if (status === 'all') return undefined;
        if (status === undefined || status === 'ended') return (s) => ended(s) === (status === 'ended');
        return (s) => s.status === status;
      },
    }),
    {
      method: 'POST',
      pattern: '/v1/subscriptions/:id',
      handler: ({ params, path, request }) => {
        params.allow('items', 'proration_behavior', 'proration_date', 'payment_behavior', 'cancel_at_period_end', 'metadata', 'default_payment_method', 'description');
        const subscription = ctx.store.subscriptions.require(path.id!);
        const update = {
          items: readItemChanges(ctx, params),
          prorationBehavior: params.oneOf('proration_behavior', PRORATIONS) ?? 'create_prorations',
          prorationDate: params.integer('proration_date'),
          paymentBehavior: params.oneOf('payment_behavior', PAYMENT_BEHAVIORS) ?? 'allow_incomplete',
          cancelAtPeriodEnd: params.boolean('cancel_at_period_end'),
          metadata: params.has('metadata') ? readMetadata(params, subscription.metadata) : undefined,
          defaultPaymentMethod: params.string('default_payment_method'),
          description: params.has('description') ? (params.string('description') ?? null) : undefined,
        };
        updateSubscription(ctx, subscription, update, momentFor(ctx, subscription.customer, request));
        return subscription;
      },
    },
    {
      method: 'DELETE',
      pattern: '/v1/subscriptions/:id',
      handler: ({ params, path, request }) => {
        params.allow('cancellation_details', 'invoice_now', 'prorate');
        if (params.boolean('invoice_now') || params.boolean('prorate')) throw invalidRequest('stripe-local cancels without a final invoice (invoice_now and prorate are not supported).');
        const subscription = ctx.store.subscriptions.require(path.id!);
        if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') throw invalidRequest('This subscription has already been canceled.');
        const details = params.object('cancellation_details')?.allow('comment', 'feedback');
        subscription.cancellation_details.comment = details?.string('comment') ?? subscription.cancellation_details.comment;
        subscription.cancellation_details.feedback = details?.string('feedback') ?? subscription.cancellation_details.feedback;
        endSubscription(ctx, subscription, momentFor(ctx, subscription.customer, request), 'cancellation_requested');
        return subscription;
      },
    },
  ];
}

/** `items[n][id|price|quantity|deleted]` of an update (or of a preview's `subscription_details`). */
export function readItemChanges(ctx: Context, params: Params): ItemChange[] {
  return params.list('items').map((item) => {
    item.allow('id', 'price', 'quantity', 'deleted', 'metadata');
    const price = item.string('price');
    const quantity = item.integer('quantity');
    if (quantity !== undefined && (quantity < 1 || quantity > 999_999)) throw invalidRequest('quantity must be between 1 and 999999.', { param: item.name('quantity') });
    return { id: item.string('id'), price: price ? ctx.store.prices.require(price, item.name('price')) : undefined, quantity, deleted: item.boolean('deleted'), param: item.path };
  });
}

