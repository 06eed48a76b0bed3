import fc from 'fast-check';
import { useStripeLocal } from './start-stripe-local';

const running = useStripeLocal();

const PATHS = [
  '/v1/customers',
  '/v1/customers/:id',
  '/v1/customers/:id/payment_methods',
  '/v1/products/:id',
  '/v1/prices',
  '/v1/checkout/sessions',
  '/v1/checkout/sessions/:id/expire',
  '/v1/subscriptions',
  '/v1/subscriptions/:id',
  '/v1/subscription_schedules',
  '/v1/invoices/:id/pay',
  '/v1/billing_portal/sessions',
  '/v1/webhook_endpoints',
  '/v1/events',
  '/v1/test_helpers/test_clocks/:id/advance',
  '/checkout/:id',
  '/portal/:id/payment-method',
  '/invoice/:id',
  '/invoice/:id/pdf',
];
const ID = fc.constantFrom('cus_x', 'sub_1', '__proto__', 'constructor', '%00', '..', 'x'.repeat(300), '%E2%82%AC', 'in_%2F');
const BODY = fc.oneof(
  fc.string({ maxLength: 120 }),
  fc.constantFrom(
    'items[0][price]=price_x&customer=cus_x',
    'line_items[0][price]=x&mode=subscription&success_url=http://a',
    'items[0]=x',
    'items=x',
    'expand[]=customer&expand[]=__proto__',
    'expand[0][x]=1',
    'limit=1e3',
    'limit=-1',
    'starting_after[]=x',
    'metadata[a][b]=c',
    'frozen_time=99999999999999999999',
    'cardNumber=4242424242424242&cardExpiry=13/99&cardCvc=x',
    'flow_data[type]=subscription_cancel',
    'enabled_events[]=*&url=http://127.0.0.1:1/x',
  ),
);

describe('hostile requests', () => {
  it('when any method, path and body are sent, then the answer is a Stripe-shaped 4xx (or a page), never a 5xx', async () => {
    const { url } = running();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD'), fc.constantFrom(...PATHS), ID, BODY, fc.boolean(), async (method, path, id, body, json) => {
        const target = `${url}${path.replace(':id', id)}`;
        const withBody = method !== 'GET' && method !== 'HEAD';
        const response = await fetch(target, {
          method,
          headers: { Authorization: 'Bearer sk_test_hostile', 'Content-Type': json ? 'application/json' : 'application/x-www-form-urlencoded' },
          ...(withBody ? { body } : {}),
        });
        const text = await response.text();
        expect(response.status).toBeLessThan(500);
        if (method !== 'HEAD' && response.status >= 400 && (response.headers.get('content-type') ?? '').startsWith('application/json')) {
          expect(JSON.parse(text).error).toEqual(expect.objectContaining({ type: expect.any(String), message: expect.any(String) }));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('when metadata of any text goes through the SDK, then it comes back the same', async () => {
    const { stripe } = running();
    // `__proto__` as a key is refused with a 400 (the next test); every other text round-trips.
    const metadata = fc.dictionary(fc.string({ minLength: 1, maxLength: 40 }).filter((k) => !/[[\]]/.test(k) && k !== '__proto__'), fc.string({ minLength: 1, maxLength: 60 }), { maxKeys: 6 });
    await fc.assert(
      fc.asyncProperty(metadata, async (value) => {
        const customer = await stripe.customers.create({ metadata: value });
        expect((await stripe.customers.retrieve(customer.id)) as unknown).toMatchObject({ metadata: value });
      }),
      { numRuns: 60 },
    );
  });

  it('when metadata has the key __proto__, then the SDK gets a 400 naming it and nothing is created', async () => {
    const { stripe } = running();
    const before = (await stripe.customers.list({ limit: 100 })).data.length;
    const metadata = JSON.parse('{"__proto__":" ","plan":"pro"}') as Record<string, string>;
    await expect(stripe.customers.create({ metadata })).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 400, message: expect.stringContaining('__proto__') });
    expect((await stripe.customers.list({ limit: 100 })).data.length).toBe(before);
  });
});
