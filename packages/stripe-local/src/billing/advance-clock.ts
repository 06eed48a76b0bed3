import type { Context, Moment } from '../core/context';
import { invalidRequest } from '../http/stripe-error';
import type { TestClock } from '../objects/test-clock';
import { processDue } from './process-due';

/** Starts moving a clock forward: it is `advancing` until {@link finishAdvance} has run. */
export function beginAdvance(ctx: Context, clock: TestClock, target: number, moment: Moment): void {
  if (clock.status === 'advancing') throw invalidRequest('The test clock is already advancing; wait until its status is ready.', { code: 'test_clock_advancing' });
  if (target <= clock.frozen_time) throw invalidRequest(`The frozen_time must be after the test clock's current frozen_time (${clock.frozen_time}).`, { param: 'frozen_time' });
  clock.status = 'advancing';
  clock.status_details = { advancing: { target_frozen_time: target } };
  ctx.emit('test_helpers.test_clock.advancing', clock, moment);
}

/**
 * Runs everything due for the clock's customers up to the target, in time order (renewals,
 * retries, cancellations at period end), then makes the clock `ready` at the target time.
 */
export function finishAdvance(ctx: Context, clock: TestClock, moment: Moment): void {
  const target = clock.status_details.advancing?.target_frozen_time;
  if (clock.status !== 'advancing' || target === undefined) return;
  processDue(ctx, clock.id, target);
  clock.frozen_time = target;
  clock.status = 'ready';
  clock.status_details = {};
  ctx.emit('test_helpers.test_clock.ready', clock, moment);
}
