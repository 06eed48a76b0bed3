import type { Context } from '../core/context';
import type { ApiRoute } from '../http/api-route';
import { invalidRequest } from '../http/stripe-error';
import { listRoute, retrieveRoute, sameBoolean } from './list-routes';

/**
 * `/v1/events`: every event stripe-local recorded. `type` takes one wildcard (`customer.*`);
 * `delivery_success=false` lists events some endpoint has not yet accepted (`pending_webhooks`).
 */
export function eventRoutes(ctx: Context): ApiRoute[] {
  return [
    retrieveRoute('/v1/events', ctx.store.events),
    listRoute('/v1/events', ctx.store.events, {
      type: (params, name) => {
        const type = params.string(name);
        if (type === undefined) return undefined;
        if (params.has('types')) throw invalidRequest('You may only specify one of these parameters: type, types.', { param: 'types' });
        return type.endsWith('.*') ? (event) => event.type.startsWith(type.slice(0, -1)) : (event) => event.type === type;
      },
      types: (params, name) => {
        const types = params.strings(name);
        return types.length === 0 ? undefined : (event) => types.includes(event.type);
      },
      delivery_success: sameBoolean((event) => event.pending_webhooks === 0),
    }),
  ];
}
