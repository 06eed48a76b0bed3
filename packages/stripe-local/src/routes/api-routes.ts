import type { Context } from '../core/context';
import type { ApiRoute } from '../http/api-route';
import type { TestClock } from '../objects/test-clock';
import { checkoutRoutes } from './checkout-routes';
import { customerRoutes } from './customer-routes';
import { eventRoutes } from './event-routes';
import { invoiceRoutes } from './invoice-routes';
import { listRoute, ofExisting, retrieveRoute } from './list-routes';
import { paymentMethodRoutes } from './payment-method-routes';
import { portalRoutes } from './portal-routes';
import { priceRoutes } from './price-routes';
import { productRoutes } from './product-routes';
import { scheduleRoutes } from './schedule-routes';
import { subscriptionRoutes } from './subscription-routes';
import { testClockRoutes } from './test-clock-routes';
import { webhookEndpointRoutes } from './webhook-endpoint-routes';

/** Every REST endpoint stripe-local answers; `finishAdvance` completes a test clock's advance. */
export function apiRoutes(ctx: Context, finishAdvance: (clock: TestClock) => void): ApiRoute[] {
  return [
    ...productRoutes(ctx),
    ...priceRoutes(ctx),
    ...customerRoutes(ctx),
    ...paymentMethodRoutes(ctx),
    ...checkoutRoutes(ctx),
    ...subscriptionRoutes(ctx),
    ...scheduleRoutes(ctx),
    ...invoiceRoutes(ctx),
    retrieveRoute('/v1/charges', ctx.store.charges),
    listRoute('/v1/charges', ctx.store.charges, { customer: ofExisting(ctx.store.customers, (c) => c.customer) }),
    ...portalRoutes(ctx),
    ...webhookEndpointRoutes(ctx),
    ...eventRoutes(ctx),
    ...testClockRoutes(ctx, finishAdvance),
  ];
}
