import type { Context } from '../core/context';
import { createId } from '../core/create-id';
import type { Params } from '../core/params';
import type { ApiRoute } from '../http/api-route';
import { invalidRequest } from '../http/stripe-error';
import type { PortalSession } from '../objects/portal-session';

const FLOWS = ['payment_method_update', 'subscription_cancel', 'subscription_update', 'subscription_update_confirm'] as const;

/** `POST /v1/billing_portal/sessions`: a link to this server's portal page for one customer. */
export function portalRoutes(ctx: Context): ApiRoute[] {
  return [
    {
      method: 'POST',
      pattern: '/v1/billing_portal/sessions',
      handler: ({ params }) => {
        params.allow('customer', 'return_url', 'flow_data', 'configuration', 'locale');
        const customer = ctx.store.customers.require(params.requireString('customer'), 'customer');
        const returnUrl = params.string('return_url') ?? null;
        if (returnUrl !== null && !/^https?:\/\/\S+$/i.test(returnUrl)) throw invalidRequest('Not a valid URL', { param: 'return_url' });
        const id = createId('bps_');
        const session: PortalSession = {
          id,
          object: 'billing_portal.session',
          configuration: 'bpc_stripe_local_default',
          created: ctx.now(),
          customer: customer.id,
          flow: readFlow(ctx, params, customer.id),
          livemode: false,
          locale: null,
          on_behalf_of: null,
          return_url: returnUrl,
          url: `${ctx.baseUrl()}/portal/${id}`,
        };
        return ctx.store.portalSessions.add(session);
      },
    },
  ];
}

// `flow_data` opens the portal on one task; the subscription it names must be the customer's.
function readFlow(ctx: Context, params: Params, customerId: string): PortalSession['flow'] {
  const flow = params.object('flow_data')?.allow('type', 'after_completion', 'subscription_cancel', 'subscription_update', 'subscription_update_confirm');
  if (!flow) return null;
  const type = flow.oneOf('type', FLOWS);
  if (!type) throw invalidRequest('Missing required param: flow_data[type].', { param: 'flow_data[type]', code: 'parameter_missing' });
  const detail = type === 'payment_method_update' ? undefined : flow.object(type)?.allow('subscription', 'retention', 'items', 'discounts');
  const subscriptionId = detail?.string('subscription') ?? null;
  if (type !== 'payment_method_update' && !subscriptionId) throw invalidRequest(`Missing required param: flow_data[${type}][subscription].`, { param: `flow_data[${type}][subscription]`, code: 'parameter_missing' });
  if (subscriptionId && ctx.store.subscriptions.require(subscriptionId, `flow_data[${type}][subscription]`).customer !== customerId) {
    throw invalidRequest('The subscription does not belong to this customer.', { param: `flow_data[${type}][subscription]` });
  }
  const after = flow.object('after_completion')?.allow('type', 'redirect', 'hosted_confirmation');
  const afterType = after?.oneOf('type', ['portal_homepage', 'redirect', 'hosted_confirmation'] as const) ?? 'portal_homepage';
  const redirect = afterType === 'redirect' ? after?.object('redirect')?.allow('return_url').requireString('return_url') : undefined;
  if (afterType === 'redirect' && !redirect) throw invalidRequest('Missing required param: flow_data[after_completion][redirect][return_url].', { code: 'parameter_missing' });
  return {
    type,
    subscription: subscriptionId,
    after_completion: redirect ? { type: 'redirect', redirect: { return_url: redirect } } : { type: 'portal_homepage', redirect: null },
  };
}
