import type { Context, Moment } from '../core/context';
import type { Subscription } from '../objects/subscription';
import type { SubscriptionSchedule } from '../objects/subscription-schedule';
import { applyItems } from './item-changes';
import type { PlannedItem } from './item-changes';
import { endSubscription } from './subscription-status';

/**
 * At the end of a period of a subscription that follows a schedule: the phase starting now gives
 * the subscription its prices (no proration: phases start on billing dates), or, after the last
 * phase, the schedule ends as its `end_behavior` says: `release` leaves the subscription running
 * on its own, `cancel` cancels it.
 */
export function enterNextPhase(ctx: Context, subscription: Subscription, moment: Moment): 'ended' | 'continues' {
  const schedule = subscription.schedule ? ctx.store.schedules.get(subscription.schedule) : undefined;
  if (!schedule || schedule.status !== 'active') return 'continues';
  const phase = schedule.phases.find((candidate) => candidate.start_date === moment.at);
  if (phase) {
    // The phases were checked when they were set; an item keeps its id where the phase has an
    // item in the same place.
    const current = subscription.items.data;
    const planned: PlannedItem[] = phase.items.map((item, index) => ({ current: current[index], next: { price: ctx.store.prices.require(item.price), quantity: item.quantity } }));
    for (const removed of current.slice(phase.items.length)) planned.push({ current: removed });
    applyItems(subscription, planned, moment.at);
    schedule.current_phase = { start_date: phase.start_date, end_date: phase.end_date };
    ctx.emit('subscription_schedule.updated', schedule, moment);
    return 'continues';
  }
  const last = schedule.phases[schedule.phases.length - 1];
  if (!last || last.end_date > moment.at) return 'continues';
  if (schedule.end_behavior === 'cancel') {
    finish(ctx, schedule, 'completed', moment);
    endSubscription(ctx, subscription, moment, 'cancellation_requested');
    return 'ended';
  }
  releaseSchedule(ctx, schedule, subscription, moment);
  return 'continues';
}

/** Lets the subscription go on without the schedule (`subscription_schedule.released`). */
export function releaseSchedule(ctx: Context, schedule: SubscriptionSchedule, subscription: Subscription | undefined, moment: Moment): void {
  schedule.released_subscription = schedule.subscription;
  schedule.subscription = null;
  if (subscription) subscription.schedule = null;
  finish(ctx, schedule, 'released', moment);
}

function finish(ctx: Context, schedule: SubscriptionSchedule, status: 'completed' | 'released', moment: Moment): void {
  schedule.status = status;
  schedule.current_phase = null;
  if (status === 'completed') schedule.completed_at = moment.at;
  else schedule.released_at = moment.at;
  ctx.emit(`subscription_schedule.${status}`, schedule, moment);
}
