import { readPhases } from '../billing/read-phases';
import { releaseSchedule } from '../billing/schedule-phases';
import { endSubscription } from '../billing/subscription-status';
import { momentFor } from '../core/context';
import type { Context } from '../core/context';
import { createId } from '../core/create-id';
import { Params } from '../core/params';
import { readMetadata } from '../core/read-metadata';
import type { ApiRoute } from '../http/api-route';
import { invalidRequest, missingParam } from '../http/stripe-error';
import { currentPeriod } from '../objects/subscription';
import type { SubscriptionSchedule } from '../objects/subscription-schedule';
import { equalTo, listRoute, retrieveRoute } from './list-routes';

/**
 * `/v1/subscription_schedules`, for price changes at a later billing date (a downgrade at the
 * period's end): made `from_subscription`, then given phases; see `readPhases` for what a
 * phase may be. Released or canceled as in Stripe.
 */
export function scheduleRoutes(ctx: Context): ApiRoute[] {
  const live = (id: string): SubscriptionSchedule => {
    const schedule = ctx.store.schedules.require(id);
    if (schedule.status !== 'active' && schedule.status !== 'not_started') throw invalidRequest(`You cannot change a schedule that is ${schedule.status}.`);
    return schedule;
  };
  return [
    {
      method: 'POST',
      pattern: '/v1/subscription_schedules',
      handler: ({ params, request }) => {
        params.allow('from_subscription', 'metadata');
        const from = params.string('from_subscription');
        if (!from) throw missingParam('from_subscription');
        const subscription = ctx.store.subscriptions.require(from, 'from_subscription');
        if (subscription.schedule) throw invalidRequest(`The subscription already follows the schedule ${subscription.schedule}.`, { param: 'from_subscription' });
        if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') throw invalidRequest('A canceled subscription cannot follow a schedule.', { param: 'from_subscription' });
        const moment = momentFor(ctx, subscription.customer, request);
        const period = currentPeriod(subscription);
        const id = createId('sub_sched_');
        const schedule: SubscriptionSchedule = {
          id,
          object: 'subscription_schedule',
          application: null,
          canceled_at: null,
          completed_at: null,
          created: moment.at,
          current_phase: { start_date: period.start, end_date: period.end },
          customer: subscription.customer,
          end_behavior: 'release',
          livemode: false,
          metadata: readMetadata(params),
          phases: [],
          released_at: null,
          released_subscription: null,
          status: 'active',
          subscription: subscription.id,
          test_clock: subscription.test_clock,
        };
        const items = subscription.items.data.map((item) => ({ price: item.price, quantity: item.quantity }));
        schedule.phases = readPhases(ctx, subscription, [phaseParams(items, period.end)], period.start);
        ctx.store.schedules.add(schedule);
        const before = ctx.snapshot(subscription);
        subscription.schedule = id;
        ctx.emit('subscription_schedule.created', schedule, moment);
        ctx.emit('customer.subscription.updated', subscription, moment, before);
        return schedule;
      },
    },
    retrieveRoute('/v1/subscription_schedules', ctx.store.schedules),
    listRoute('/v1/subscription_schedules', ctx.store.schedules, { customer: equalTo((s) => s.customer) }),
    {
      method: 'POST',
      pattern: '/v1/subscription_schedules/:id',
      handler: ({ params, path, request }) => {
        params.allow('phases', 'end_behavior', 'metadata', 'proration_behavior');
        const schedule = live(path.id!);
        const subscription = ctx.store.subscriptions.require(schedule.subscription ?? '');
        if (params.has('phases')) schedule.phases = readPhases(ctx, subscription, params.list('phases'), schedule.current_phase?.start_date ?? currentPeriod(subscription).start);
        schedule.end_behavior = params.oneOf('end_behavior', ['release', 'cancel'] as const) ?? schedule.end_behavior;
        schedule.metadata = readMetadata(params, schedule.metadata);
        ctx.emit('subscription_schedule.updated', schedule, momentFor(ctx, schedule.customer, request));
        return schedule;
      },
    },
    {
      method: 'POST',
      pattern: '/v1/subscription_schedules/:id/release',
      handler: ({ params, path, request }) => {
        params.allow('preserve_cancel_date');
        const schedule = live(path.id!);
        const subscription = schedule.subscription ? ctx.store.subscriptions.get(schedule.subscription) : undefined;
        const moment = momentFor(ctx, schedule.customer, request);
        const before = subscription ? ctx.snapshot(subscription) : undefined;
        releaseSchedule(ctx, schedule, subscription, moment);
        if (subscription) ctx.emit('customer.subscription.updated', subscription, moment, before);
        return schedule;
      },
    },
    {
      method: 'POST',
      pattern: '/v1/subscription_schedules/:id/cancel',
      handler: ({ params, path, request }) => {
        params.allow('invoice_now', 'prorate');
        const schedule = live(path.id!);
        const subscription = schedule.subscription ? ctx.store.subscriptions.get(schedule.subscription) : undefined;
        // Canceling a schedule cancels its subscription now, as in Stripe.
        if (subscription) endSubscription(ctx, subscription, momentFor(ctx, schedule.customer, request), 'cancellation_requested');
        return schedule;
      },
    },
  ];
}

// The one phase a schedule made from a subscription starts with, in the form of request params.
function phaseParams(items: { price: string; quantity: number }[], end: number) {
  return new Params({ items: items.map((item) => ({ price: item.price, quantity: String(item.quantity) })), end_date: String(end) }, 'phases[0]');
}
