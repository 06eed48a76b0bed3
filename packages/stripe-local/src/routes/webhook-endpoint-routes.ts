import type { Context } from '../core/context';
import { createId } from '../core/create-id';
import type { Params } from '../core/params';
import { readMetadata } from '../core/read-metadata';
import type { ApiRoute } from '../http/api-route';
import { invalidRequest, missingParam } from '../http/stripe-error';
import type { WebhookEndpoint } from '../objects/webhook-endpoint';
import { listRoute, retrieveRoute } from './list-routes';

const EDITABLE = ['url', 'enabled_events', 'description', 'metadata'];

/** `/v1/webhook_endpoints`: the secret (`whsec_…`) is shown once, in the answer to the creation. */
export function webhookEndpointRoutes(ctx: Context): ApiRoute[] {
  return [
    {
      method: 'POST',
      pattern: '/v1/webhook_endpoints',
      handler: ({ params }) => {
        params.allow('api_version', 'connect', ...EDITABLE);
        if (params.boolean('connect')) throw invalidRequest('stripe-local has no Connect accounts.', { param: 'connect' });
        const endpoint: WebhookEndpoint = {
          id: createId('we_'),
          object: 'webhook_endpoint',
          api_version: params.string('api_version') ?? null,
          application: null,
          created: ctx.now(),
          description: null,
          enabled_events: [],
          livemode: false,
          metadata: {},
          status: 'enabled',
          url: '',
        };
        if (!params.has('url')) throw missingParam('url');
        if (!params.has('enabled_events')) throw missingParam('enabled_events');
        applyFields(endpoint, params);
        const secret = ctx.settings.webhookSecret ?? `whsec_${createId('', 32)}`;
        ctx.store.webhookSecrets.set(endpoint.id, secret);
        ctx.store.webhookEndpoints.add(endpoint);
        return { ...endpoint, secret };
      },
    },
    retrieveRoute('/v1/webhook_endpoints', ctx.store.webhookEndpoints),
    {
      method: 'POST',
      pattern: '/v1/webhook_endpoints/:id',
      handler: ({ params, path }) => {
        params.allow('disabled', ...EDITABLE);
        const endpoint = ctx.store.webhookEndpoints.require(path.id!);
        applyFields(endpoint, params);
        const disabled = params.boolean('disabled');
        if (disabled !== undefined) endpoint.status = disabled ? 'disabled' : 'enabled';
        return endpoint;
      },
    },
    listRoute('/v1/webhook_endpoints', ctx.store.webhookEndpoints),
    {
      method: 'DELETE',
      pattern: '/v1/webhook_endpoints/:id',
      handler: ({ params, path }) => {
        params.allow();
        const endpoint = ctx.store.webhookEndpoints.require(path.id!);
        ctx.store.webhookEndpoints.delete(endpoint.id);
        return { id: endpoint.id, object: 'webhook_endpoint', deleted: true };
      },
    },
  ];
}

function applyFields(endpoint: WebhookEndpoint, params: Params): void {
  const url = params.string('url');
  if (url !== undefined) {
    if (!/^https?:\/\/[^\s/]+/i.test(url)) throw invalidRequest('Invalid URL: must be an http(s) URL.', { param: 'url' });
    endpoint.url = url;
  }
  if (params.has('enabled_events')) {
    const events = params.strings('enabled_events');
    if (events.length === 0) throw missingParam('enabled_events');
    const bad = events.find((type) => type !== '*' && !/^[a-z_]+(\.[a-z_]+)+$/.test(type));
    if (bad !== undefined) throw invalidRequest(`Invalid enabled_events: ${bad} is not an event type.`, { param: 'enabled_events' });
    endpoint.enabled_events = events;
  }
  if (params.has('description')) endpoint.description = params.string('description') ?? null;
  endpoint.metadata = readMetadata(params, endpoint.metadata);
}
