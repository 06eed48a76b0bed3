import Stripe from 'stripe';
import { API_VERSION } from '../src/api-version';
import { useStripeLocal } from './start-stripe-local';

const running = useStripeLocal();

describe('products and prices through the real SDK', () => {
  it('when the SDK is this one, then the API version is the one it pins', () => {
    expect(API_VERSION).toBe(Stripe.API_VERSION);
  });

  it('when a price is created with product_data and a lookup key, then it is found by that key', async () => {
    const { stripe } = running();
    const price = await stripe.prices.create({
      currency: 'usd',
      unit_amount: 575,
      recurring: { interval: 'month' },
      lookup_key: 'burger_starter_v1',
      product_data: { name: 'Burger Starter', metadata: { api: 'burger' } },
      metadata: { plan: 'starter' },
    });
    expect(price).toMatchObject({ object: 'price', livemode: false, active: true, type: 'recurring', unit_amount: 575, lookup_key: 'burger_starter_v1' });
    expect(String(price.unit_amount_decimal)).toBe('575');
    expect(price.id).toMatch(/^price_/);
    expect(price.recurring).toMatchObject({ interval: 'month', interval_count: 1, usage_type: 'licensed' });
    const found = await stripe.prices.list({ lookup_keys: ['burger_starter_v1', 'missing'], expand: ['data.product'] });
    expect(found.data.map((p) => p.id)).toEqual([price.id]);
    expect(found.data[0]!.product).toMatchObject({ object: 'product', name: 'Burger Starter', metadata: { api: 'burger' } });
  });

  it('when a lookup key is taken, then a new price needs transfer_lookup_key, which moves it', async () => {
    const { stripe } = running();
    const product = await stripe.products.create({ id: 'token_api', name: 'Token API' });
    const first = await stripe.prices.create({ currency: 'eur', unit_amount: 950, recurring: { interval: 'month' }, product: product.id, lookup_key: 'token_starter' });
    await expect(stripe.prices.create({ currency: 'eur', unit_amount: 990, recurring: { interval: 'month' }, product: product.id, lookup_key: 'token_starter' })).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      param: 'lookup_key',
    });
    const second = await stripe.prices.create({ currency: 'eur', unit_amount: 990, recurring: { interval: 'month' }, product: product.id, lookup_key: 'token_starter', transfer_lookup_key: true });
    expect((await stripe.prices.retrieve(first.id)).lookup_key).toBeNull();
    expect((await stripe.prices.list({ lookup_keys: ['token_starter'] })).data.map((p) => p.id)).toEqual([second.id]);
  });

  it('when prices are listed by product and active, then only those come back, and an update deactivates', async () => {
    const { stripe } = running();
    const product = await stripe.products.create({ name: 'Logs API', metadata: { api: 'logs' } });
    const price = await stripe.prices.create({ currency: 'eur', unit_amount: 1390, recurring: { interval: 'month' }, product: product.id });
    await stripe.prices.update(price.id, { active: false, lookup_key: 'logs_old' });
    expect((await stripe.prices.list({ product: product.id, active: true })).data).toEqual([]);
    const inactive = await stripe.prices.list({ product: product.id, active: false });
    expect(inactive.data.map((p) => [p.id, p.lookup_key])).toEqual([[price.id, 'logs_old']]);
    const updated = await stripe.products.update(product.id, { default_price: price.id, metadata: { api: '', tier: 'paid' } });
    expect(updated).toMatchObject({ default_price: price.id, metadata: { tier: 'paid' } });
  });

  it('when a product id is taken or a price misses its currency, then the SDK throws StripeInvalidRequestError', async () => {
    const { stripe } = running();
    await stripe.products.create({ id: 'dup_product', name: 'One' });
    const error = await stripe.products.create({ id: 'dup_product', name: 'Two' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ code: 'resource_already_exists', statusCode: 400 });
    await expect(stripe.prices.create({ unit_amount: 1, product: 'dup_product' } as Stripe.PriceCreateParams)).rejects.toMatchObject({ code: 'parameter_missing', param: 'currency' });
    await expect(stripe.products.retrieve('prod_missing')).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing', message: "No such product: 'prod_missing'" });
  });
});
