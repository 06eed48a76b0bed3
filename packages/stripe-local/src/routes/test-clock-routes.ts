import { beginAdvance } from '../billing/advance-clock';
import type { Context } from '../core/context';
import { createId } from '../core/create-id';
import type { ApiRoute } from '../http/api-route';
import { invalidRequest, missingParam } from '../http/stripe-error';
import type { TestClock } from '../objects/test-clock';
import { listRoute, retrieveRoute } from './list-routes';

/**
 * `/v1/test_helpers/test_clocks`. `advance` answers at once with the clock `advancing`; the
 * clock's customers catch up right after (`finish` is handed the clock), then it is `ready`.
 */
export function testClockRoutes(ctx: Context, finish: (clock: TestClock) => void): ApiRoute[] {
  const readTime = (value: number | undefined): number => {
    if (value === undefined) throw missingParam('frozen_time');
    if (value < 0 || value > 253_402_300_799) throw invalidRequest('frozen_time must be a unix time in seconds.', { param: 'frozen_time' });
    return value;
  };
  return [
    {
      method: 'POST',
      pattern: '/v1/test_helpers/test_clocks',
      handler: ({ params, request }) => {
        params.allow('frozen_time', 'name');
        const created = ctx.now();
        const clock: TestClock = {
          id: createId('clock_'),
          object: 'test_helpers.test_clock',
          created,
          deletes_after: created + 30 * 86_400,
          frozen_time: readTime(params.integer('frozen_time')),
          livemode: false,
          name: params.string('name') ?? null,
          status: 'ready',
          status_details: {},
        };
        ctx.store.testClocks.add(clock);
        ctx.emit('test_helpers.test_clock.created', clock, { at: created, request });
        return clock;
      },
    },
    retrieveRoute('/v1/test_helpers/test_clocks', ctx.store.testClocks),
    listRoute('/v1/test_helpers/test_clocks', ctx.store.testClocks),
    {
      method: 'POST',
      pattern: '/v1/test_helpers/test_clocks/:id/advance',
      handler: ({ params, path, request }) => {
        params.allow('frozen_time');
        const clock = ctx.store.testClocks.require(path.id!);
        beginAdvance(ctx, clock, readTime(params.integer('frozen_time')), { at: ctx.now(), request });
        finish(clock);
        return clock;
      },
    },
    {
      method: 'DELETE',
      pattern: '/v1/test_helpers/test_clocks/:id',
      handler: ({ params, path, request }) => {
        params.allow();
        const clock = ctx.store.testClocks.require(path.id!);
        // Deleting a clock deletes what lives on it, as Stripe does.
        for (const customer of ctx.store.customers.all()) if (customer.test_clock === clock.id) ctx.store.customers.delete(customer.id);
        for (const subscription of ctx.store.subscriptions.all()) if (subscription.test_clock === clock.id) ctx.store.subscriptions.delete(subscription.id);
        for (const invoice of ctx.store.invoices.all()) if (invoice.test_clock === clock.id) ctx.store.invoices.delete(invoice.id);
        ctx.store.testClocks.delete(clock.id);
        ctx.emit('test_helpers.test_clock.deleted', clock, { at: ctx.now(), request });
        return { id: clock.id, object: 'test_helpers.test_clock', deleted: true };
      },
    },
  ];
}
