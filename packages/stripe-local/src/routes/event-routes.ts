import type { Context } from '../core/context';
import { LIST_PARAMS, paginate } from '../core/paginate';
import type { ApiRoute } from '../http/api-route';
import { invalidRequest } from '../http/stripe-error';

/**
 * `/v1/events`: every event stripe-local recorded. `type` takes one wildcard (`customer.*`);
 * `delivery_success=false` lists events some endpoint has not yet accepted (`pending_webhooks`).
 */
export function eventRoutes(ctx: Context): ApiRoute[] {
  return [
    { method: 'GET', pattern: '/v1/events/:id', handler: ({ params, path }) => (params.allow(), ctx.store.events.require(path.id!)) },
    {
      method: 'GET',
      pattern: '/v1/events',
      handler: ({ params }) => {
        params.allow('type', 'types', 'delivery_success', ...LIST_PARAMS);
        const type = params.string('type');
        const types = params.strings('types');
        if (type && types.length > 0) throw invalidRequest('You may only specify one of these parameters: type, types.', { param: 'types' });
        const delivered = params.boolean('delivery_success');
        const matches = (eventType: string) => {
          if (types.length > 0) return types.includes(eventType);
          if (type === undefined) return true;
          return type.endsWith('.*') ? eventType.startsWith(type.slice(0, -1)) : eventType === type;
        };
        const events = ctx.store.events.all().filter((event) => matches(event.type) && (delivered === undefined || (event.pending_webhooks === 0) === delivered));
        return paginate(events, params, '/v1/events', 'event');
      },
    },
  ];
}
