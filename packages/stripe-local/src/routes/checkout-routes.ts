import { shiftByIntervals } from '../billing/billing-periods';
import { expireCheckoutSession } from '../billing/complete-checkout';
import { describePrice } from '../billing/invoice-line';
import { checkCustomerCurrency, checkSubscriptionPrices, firstPeriodAmount } from '../billing/start-subscription';
import { nowFor } from '../core/context';
import type { Context } from '../core/context';
import { createId } from '../core/create-id';
import { LIST_PARAMS, paginate } from '../core/paginate';
import type { Params } from '../core/params';
import { readMetadata } from '../core/read-metadata';
import type { ApiRoute } from '../http/api-route';
import { invalidRequest, missingParam } from '../http/stripe-error';
import type { CheckoutSession, SessionLine } from '../objects/checkout-session';
import { equalTo, listRoute, oneOf, retrieveRoute } from './list-routes';

const DAY = 86_400;

/** `/v1/checkout/sessions` in `subscription` mode, paid on this server's hosted Checkout page. */
export function checkoutRoutes(ctx: Context): ApiRoute[] {
  return [
    { method: 'POST', pattern: '/v1/checkout/sessions', handler: ({ params }) => createSession(ctx, params) },
    retrieveRoute('/v1/checkout/sessions', ctx.store.checkoutSessions),
    listRoute('/v1/checkout/sessions', ctx.store.checkoutSessions, {
      customer: equalTo((s) => s.customer),
      subscription: equalTo((s) => s.subscription),
      status: oneOf(['open', 'complete', 'expired'], (s) => s.status),
    }),
    {
      method: 'GET',
      pattern: '/v1/checkout/sessions/:id/line_items',
      handler: ({ params, path }) => {
        params.allow(...LIST_PARAMS);
        const session = ctx.store.checkoutSessions.require(path.id!);
        const lines = ctx.store.sessionPlans.get(session.id)?.lines ?? [];
        const withPrices = lines.map((line) => ({ ...line, created: session.created, price: ctx.store.prices.require(line.price) }));
        return paginate(withPrices, params, `/v1/checkout/sessions/${session.id}/line_items`, 'line item');
      },
    },
    {
      method: 'POST',
      pattern: '/v1/checkout/sessions/:id/expire',
      handler: ({ params, path, request }) => {
        params.allow();
        const session = ctx.store.checkoutSessions.require(path.id!);
        expireCheckoutSession(ctx, session, { at: ctx.now(), request });
        return session;
      },
    },
  ];
}

function createSession(ctx: Context, params: Params): CheckoutSession {
  params.allow('mode', 'line_items', 'customer', 'customer_email', 'client_reference_id', 'metadata', 'subscription_data', 'success_url', 'cancel_url', 'payment_method_types', 'expires_at', 'locale', 'automatic_tax', 'billing_address_collection', 'tax_id_collection', 'customer_update');
  const mode = params.requireString('mode');
  if (mode !== 'subscription') throw invalidRequest('stripe-local supports Checkout in mode=subscription only.', { param: 'mode' });
  const customerId = params.string('customer');
  const customer = customerId ? ctx.store.customers.require(customerId, 'customer') : undefined;
  const email = params.string('customer_email');
  if (customerId && email) throw invalidRequest('You may only specify one of these parameters: customer, customer_email.', { param: 'customer_email' });
  const types = params.strings('payment_method_types');
  if (types.some((type) => type !== 'card')) throw invalidRequest('stripe-local takes card payments only.', { param: 'payment_method_types' });
  const successUrl = readUrl(params, 'success_url');
  if (!successUrl) throw missingParam('success_url');
  const at = nowFor(ctx, customerId ?? null);
  const entries = params.list('line_items');
  if (entries.length === 0) throw missingParam('line_items');
  const lines: SessionLine[] = entries.map((entry) => {
    entry.allow('price', 'quantity');
    const price = ctx.store.prices.require(entry.requireString('price'), entry.name('price'));
    const quantity = entry.integer('quantity') ?? 1;
    if (quantity < 1 || quantity > 999_999) throw invalidRequest('quantity must be between 1 and 999999.', { param: entry.name('quantity') });
    const amount = price.unit_amount * quantity;
    const description = describePrice({ price, product: ctx.store.products.get(price.product), quantity });
    return { id: createId('li_'), object: 'item', amount_discount: 0, amount_subtotal: amount, amount_tax: 0, amount_total: amount, currency: price.currency, description, price: price.id, quantity };
  });
  const prices = lines.map((line) => ctx.store.prices.require(line.price));
  checkSubscriptionPrices(prices, 'line_items');
  if (customer) checkCustomerCurrency(customer, prices[0]!.currency, 'line_items');
  const data = params.object('subscription_data')?.allow('metadata', 'billing_cycle_anchor', 'proration_behavior');
  const anchor = data?.integer('billing_cycle_anchor') ?? null;
  if (anchor !== null && (anchor <= at || anchor > shiftByIntervals(at, prices[0]!.recurring!, 1))) {
    throw invalidRequest('billing_cycle_anchor must be in the future and no later than one billing interval from now.', { param: 'subscription_data[billing_cycle_anchor]' });
  }
  const automaticTax = params.object('automatic_tax')?.allow('enabled', 'liability').boolean('enabled') ?? false;
  const addressCollection = params.oneOf('billing_address_collection', ['auto', 'required'] as const) ?? null;
  const collectTaxId = params.object('tax_id_collection')?.allow('enabled', 'required').boolean('enabled') ?? false;
  const update = params.object('customer_update')?.allow('address', 'name', 'shipping');
  if (update && !customer) throw invalidRequest('customer_update can only be used with customer.', { param: 'customer_update' });
  const updateAddress = update?.oneOf('address', ['auto', 'never'] as const) === 'auto';
  // As Stripe: Stripe Tax needs a place to tax an existing customer at, its own or the one typed here.
  if (automaticTax && customer && !customer.address?.country && !updateAddress) {
    throw invalidRequest('Automatic tax calculation in Checkout requires a valid address on the Customer. Add a valid address to the Customer or set either `customer_update[address]` to \'auto\' or `customer_update[shipping]` to \'auto\' to save the address entered in Checkout to the Customer.', { param: 'customer_update[address]' });
  }
  // A session lives in wall-clock time, whatever clock its customer is on.
  const created = ctx.now();
  const expiresAt = params.integer('expires_at') ?? created + DAY;
  if (expiresAt < created + 1800 || expiresAt > created + DAY) throw invalidRequest('expires_at must be between 30 minutes and 24 hours from now.', { param: 'expires_at' });
  const id = createId('cs_test_', 58);
  const prorate = (data?.oneOf('proration_behavior', ['create_prorations', 'none'] as const) ?? 'create_prorations') === 'create_prorations';
  // What is due today, as Stripe's session totals say for a prorated first period (the lines keep the price).
  const total = lines.reduce((sum, line, index) => sum + firstPeriodAmount({ price: prices[index]!, quantity: line.quantity }, at, anchor ?? at, prorate), 0);
  const session: CheckoutSession = {
    id,
    object: 'checkout.session',
    allow_promotion_codes: null,
    amount_subtotal: total,
    amount_total: total,
    automatic_tax: automaticTax ? { enabled: true, liability: { type: 'self' }, provider: 'stripe', status: customer?.address?.country ? 'complete' : 'requires_location_input' } : { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: addressCollection,
    cancel_url: readUrl(params, 'cancel_url') ?? null,
    client_reference_id: params.string('client_reference_id') ?? null,
    client_secret: null,
    created,
    currency: prices[0]!.currency,
    customer: customerId ?? null,
    customer_creation: customerId ? null : 'always',
    customer_details: null,
    customer_email: email ?? null,
    expires_at: expiresAt,
    invoice: null,
    livemode: false,
    locale: null,
    metadata: readMetadata(params),
    mode: 'subscription',
    payment_intent: null,
    payment_link: null,
    payment_method_collection: 'always',
    payment_method_types: ['card'],
    payment_status: 'unpaid',
    setup_intent: null,
    status: 'open',
    submit_type: null,
    subscription: null,
    success_url: successUrl,
    tax_id_collection: { enabled: collectTaxId, required: 'never' },
    // Tax is known once the billing address is: at payment (an existing customer's own address aside).
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted',
    url: `${ctx.baseUrl()}/checkout/${id}`,
  };
  ctx.store.sessionPlans.set(id, { lines, subscriptionMetadata: data ? readMetadata(data) : {}, billingCycleAnchor: anchor, prorate, customerId: null, automaticTax, collectAddress: automaticTax || addressCollection === 'required', collectTaxId, updateAddress: updateAddress || !customer });
  return ctx.store.checkoutSessions.add(session);
}

function readUrl(params: Params, key: string): string | undefined {
  const url = params.string(key);
  if (url !== undefined && !/^https?:\/\/[^\s]+$/i.test(url)) throw invalidRequest('Not a valid URL', { param: key });
  return url;
}
