import Ajv from 'ajv';
import fc from 'fast-check';
import { errorEnvelopeSchema } from '@tollgate/envelope';
import { HOSTILE_TEXT, PROTOTYPE_NAMES } from '@tollgate/envelope/test/hostile-requests';
import { useBillingGateway } from './support/billing-gateway';

jest.setTimeout(120_000);

const isErrorEnvelope = new Ajv({ strict: false, validateFormats: false }).compile(errorEnvelopeSchema());
const seed = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
const gw = useBillingGateway();
let key: string;
let accountId: string;

beforeAll(async () => {
  ({ key, id: accountId } = await gw.account('fuzz@example.com'));
});

const segment = fc.oneof(fc.constantFrom('token', 'burger', 'logs', 'pro', 'free', 'scale', ...PROTOTYPE_NAMES), fc.constantFrom(...HOSTILE_TEXT.filter((t) => t.length < 100 && !/[\ud800-\udfff]/.test(t))).map(encodeURIComponent));
const route = fc.oneof(
  fc.constant('/dashboard/v1/billing'),
  fc.constant('/dashboard/v1/billing/status'),
  fc.constant('/dashboard/v1/billing/checkout'),
  fc.constant('/dashboard/v1/billing/portal'),
  segment.map((s) => `/dashboard/v1/billing/checkout/${s}`),
  segment.map((s) => `/dashboard/v1/billing/subscriptions/${s}`),
  segment.map((s) => `/dashboard/v1/billing/subscriptions/${s}/keep`),
  fc.constant('/admin/billing/summary'),
  segment.map((s) => `/admin/billing/accounts/${s}`),
);
const body = fc.option(
  fc.oneof(
    fc.json(),
    fc.record({ api: fc.oneof(segment, fc.json()), plan: fc.oneof(segment, fc.json()) }).map((o) => JSON.stringify(o)),
    fc.record({ currency: fc.oneof(fc.constantFrom('EUR', 'USD', 'eur', 'XXX', '__proto__'), fc.string()) }).map((o) => JSON.stringify(o)),
    fc.string({ maxLength: 100 }),
    fc.constant('x'.repeat(20_000)),
  ),
  { nil: undefined },
);

describe('billing routes under hostile input (property-based)', () => {
  it('when any method, path, body or caller reaches the billing routes, then the answer is never a 5xx and every refusal is in the error envelope', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'), route, body, fc.constantFrom('key', 'none', 'junk'), async (method, path, payload, caller) => {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (caller === 'key') headers['x-tollgate-key'] = key;
        if (caller === 'junk') headers['x-tollgate-key'] = 'tg_not_a_key';
        const res = await fetch(gw.url + path, { method, headers, body: method === 'GET' || payload === undefined ? undefined : payload });
        const text = await res.text();
        const json = (() => {
          try {
            return JSON.parse(text) as unknown;
          } catch {
            return undefined;
          }
        })();
        if (res.status >= 500) throw new Error(`${method} ${path} → ${res.status}: ${text.slice(0, 300)}`);
        if (res.status >= 300 && !isErrorEnvelope(json)) throw new Error(`${method} ${path} → ${res.status} outside the envelope: ${text.slice(0, 300)}`);
      }),
      { numRuns: 150, seed },
    );
  });

  it('when any body and Stripe-Signature header come to the webhook, then each is 400 in the envelope, and no event is handled', async () => {
    const signature = fc.oneof(fc.constant(undefined), fc.string({ maxLength: 200 }), fc.tuple(fc.integer(), fc.stringMatching(/^[0-9a-f]{0,64}$/)).map(([t, v]) => `t=${t},v1=${v}`));
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.json(), fc.string({ maxLength: 500 }), fc.uint8Array({ maxLength: 500 }).map((b) => Buffer.from(b).toString('latin1'))), signature, async (payload, sig) => {
        const res = await fetch(`${gw.url}/billing/webhook`, { method: 'POST', headers: sig === undefined ? {} : { 'stripe-signature': sig.replace(/[^\x20-\x7e]/g, '') }, body: payload });
        const json = (await res.json()) as unknown;
        if (res.status !== 400 || !isErrorEnvelope(json)) throw new Error(`webhook answered ${res.status}: ${JSON.stringify(json).slice(0, 300)}`);
      }),
      { numRuns: 150, seed },
    );
    expect((await gw.stores.billingStore.getBilling(accountId))!.subscriptions).toEqual({});
  });
});
