import type { Context, Moment } from '../core/context';
import { createId } from '../core/create-id';
import type { Params } from '../core/params';
import { readMetadata } from '../core/read-metadata';
import type { ApiRoute } from '../http/api-route';
import { invalidRequest, missingParam } from '../http/stripe-error';
import type { Interval, Price } from '../objects/price';
import { newProduct } from '../objects/product';
import { equalTo, listRoute, oneOf, retrieveRoute, sameBoolean } from './list-routes';

const INTERVALS: readonly Interval[] = ['day', 'week', 'month', 'year'];
const TAX_BEHAVIORS = ['exclusive', 'inclusive', 'unspecified'] as const;

/** `/v1/prices`: per-unit prices, one-time or recurring, found again by `lookup_key`. */
export function priceRoutes(ctx: Context): ApiRoute[] {
  return [
    {
      method: 'POST',
      pattern: '/v1/prices',
      handler: ({ params, request }) => {
        params.allow('currency', 'unit_amount', 'product', 'product_data', 'recurring', 'lookup_key', 'transfer_lookup_key', 'nickname', 'metadata', 'active', 'tax_behavior');
        const moment = { at: ctx.now(), request };
        const currency = params.requireString('currency').toLowerCase();
        if (!/^[a-z]{3}$/.test(currency)) throw invalidRequest(`Invalid currency: ${currency}`, { param: 'currency' });
        const unitAmount = params.integer('unit_amount');
        if (unitAmount === undefined) throw missingParam('unit_amount');
        if (unitAmount < 0 || unitAmount > 99_999_999) throw invalidRequest('unit_amount must be between 0 and 99999999.', { param: 'unit_amount' });
        const recurring = params.object('recurring')?.allow('interval', 'interval_count', 'usage_type');
        const interval = recurring?.oneOf('interval', INTERVALS);
        if (recurring && !interval) throw missingParam('recurring[interval]');
        const intervalCount = recurring?.integer('interval_count') ?? 1;
        if (intervalCount < 1 || intervalCount > { day: 365, week: 52, month: 12, year: 1 }[interval ?? 'year']) {
          throw invalidRequest('The maximum billing interval is one year.', { param: 'recurring[interval_count]' });
        }
        const price: Price = {
          id: createId('price_'),
          object: 'price',
          active: params.boolean('active') ?? true,
          billing_scheme: 'per_unit',
          created: moment.at,
          currency,
          custom_unit_amount: null,
          livemode: false,
          lookup_key: null,
          metadata: readMetadata(params),
          nickname: params.string('nickname') ?? null,
          product: productFor(ctx, params, moment),
          recurring: interval ? { interval, interval_count: intervalCount, meter: null, trial_period_days: null, usage_type: 'licensed' } : null,
          tax_behavior: params.oneOf('tax_behavior', TAX_BEHAVIORS) ?? 'unspecified',
          tiers_mode: null,
          transform_quantity: null,
          type: interval ? 'recurring' : 'one_time',
          unit_amount: unitAmount,
          unit_amount_decimal: String(unitAmount),
        };
        setLookupKey(ctx, price, params, moment);
        ctx.store.prices.add(price);
        ctx.emit('price.created', price, moment);
        return price;
      },
    },
    retrieveRoute('/v1/prices', ctx.store.prices),
    {
      method: 'POST',
      pattern: '/v1/prices/:id',
      handler: ({ params, path, request }) => {
        params.allow('active', 'lookup_key', 'transfer_lookup_key', 'metadata', 'nickname', 'tax_behavior');
        const price = ctx.store.prices.require(path.id!);
        const moment = { at: ctx.now(), request };
        const before = ctx.snapshot(price);
        price.active = params.boolean('active') ?? price.active;
        if (params.has('nickname')) price.nickname = params.string('nickname') ?? null;
        price.tax_behavior = params.oneOf('tax_behavior', TAX_BEHAVIORS) ?? price.tax_behavior;
        price.metadata = readMetadata(params, price.metadata);
        setLookupKey(ctx, price, params, moment);
        ctx.emit('price.updated', price, moment, before);
        return price;
      },
    },
    listRoute('/v1/prices', ctx.store.prices, {
      active: sameBoolean((price) => price.active),
      product: equalTo((price) => price.product),
      type: oneOf(['one_time', 'recurring'], (price) => price.type),
      lookup_keys: (params, name) => {
        const keys = params.strings(name);
        if (keys.length > 10) throw invalidRequest('You may pass at most 10 lookup_keys.', { param: name });
        return keys.length === 0 ? undefined : (price) => price.lookup_key !== null && keys.includes(price.lookup_key);
      },
      currency: (params, name) => {
        const currency = params.string(name)?.toLowerCase();
        return currency === undefined ? undefined : (price) => price.currency === currency;
      },
      recurring: (params, name) => {
        const interval = params.object(name)?.allow('interval', 'usage_type').oneOf('interval', INTERVALS);
        return interval === undefined ? undefined : (price) => price.recurring?.interval === interval;
      },
    }),
  ];
}

function productFor(ctx: Context, params: Params, moment: Moment): string {
  const id = params.string('product');
  const data = params.object('product_data')?.allow('name', 'metadata', 'active', 'unit_label', 'statement_descriptor');
  if (id && data) throw invalidRequest('You may only specify one of these parameters: product, product_data.', { param: 'product' });
  if (id) return ctx.store.products.require(id, 'product').id;
  if (!data) throw missingParam('product');
  const product = newProduct(createId('prod_', 14), moment.at, { name: data.requireString('name'), active: data.boolean('active') ?? true });
  product.unit_label = data.string('unit_label') ?? null;
  product.statement_descriptor = data.string('statement_descriptor') ?? null;
  product.metadata = readMetadata(data);
  ctx.store.products.add(product);
  ctx.emit('product.created', product, moment);
  return product.id;
}

// A lookup key names one price at a time; `transfer_lookup_key` moves it from the price holding it.
function setLookupKey(ctx: Context, price: Price, params: Params, moment: Moment): void {
  if (!params.has('lookup_key')) return;
  const key = params.string('lookup_key') ?? null;
  if (key !== null && key.length > 200) throw invalidRequest('lookup_key can have up to 200 characters.', { param: 'lookup_key' });
  const holder = key === null ? undefined : ctx.store.prices.all().find((other) => other.lookup_key === key && other.id !== price.id);
  if (holder && !params.boolean('transfer_lookup_key')) {
    throw invalidRequest(`A price (\`${holder.id}\`) already uses that lookup key.`, { param: 'lookup_key' });
  }
  if (holder) {
    const before = ctx.snapshot(holder);
    holder.lookup_key = null;
    ctx.emit('price.updated', holder, moment, before);
  }
  price.lookup_key = key;
}
