import fc from 'fast-check';
import { stringify } from 'qs';
import { parseForm } from './parse-form';
import { StripeError } from './stripe-error';

// Keys as Stripe's parameters are named; values any text, including what needs percent-encoding.
const key = fc.stringMatching(/^[a-z_][a-z0-9_]{0,11}$/).filter((k) => k !== '__proto__');
const text = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('', 'ünï cödé', '€9.50', 'a&b=c', '[x]', '%', '+ +', '{CHECKOUT_SESSION_ID}', '😀'));
type Form = { [key: string]: string | string[] | Form | Form[] };
const form: fc.Arbitrary<Form> = fc.letrec<{ hash: Form }>((tie) => ({
  hash: fc.dictionary(
    key,
    fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      text,
      fc.array(text, { minLength: 1, maxLength: 4 }),
      tie('hash').filter((h) => Object.keys(h).length > 0),
      fc.array(tie('hash').filter((h) => Object.keys(h).length > 0), { minLength: 1, maxLength: 3 }),
    ),
    { maxKeys: 4 },
  ),
})).hash.filter((h) => depth(h) <= 5);

function depth(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depth));
}

// What stripe-node sends: indexed arrays, brackets left unencoded.
function encodeAsTheSdk(value: Form): string {
  return stringify(value, { arrayFormat: 'indices', encodeValuesOnly: false }).replace(/%5B/g, '[').replace(/%5D/g, ']');
}

describe('parseForm', () => {
  it('when a form is encoded as the SDK encodes it, then parsing gives it back', () => {
    fc.assert(
      fc.property(form, (value) => {
        expect(JSON.parse(JSON.stringify(parseForm(encodeAsTheSdk(value))))).toEqual(value);
      }),
      { numRuns: 300 },
    );
  });

  it('when the body is any text, then it parses or is a Stripe 400, and no hash has a prototype', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.array(fc.constantFrom('a', '[', ']', '=', '&', '%', '0', '__proto__', 'constructor', '.', '+')).map((parts) => parts.join(''))), (body) => {
        try {
          const parsed = parseForm(body);
          expect(Object.getPrototypeOf(parsed)).toBeNull();
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        } catch (error) {
          expect(error).toBeInstanceOf(StripeError);
          expect((error as StripeError).status).toBe(400);
        }
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    '__proto__[polluted]=1',
    'a[__proto__][polluted]=1',
    'metadata[__proto__]=%20',
    'metadata%5B__proto__%5D=x',
    'metadata[__proto__][]=x',
    '__proto__=x',
  ])('when a body names __proto__ (%s), then it is a Stripe 400 and nothing is polluted', (body) => {
    expect(() => parseForm(body)).toThrow(expect.objectContaining({ status: 400, message: expect.stringContaining('__proto__') }));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('when a body names constructor or prototype, then they are ordinary keys and nothing is polluted', () => {
    const parsed = parseForm('constructor[prototype][polluted]=1&metadata[toString]=t');
    expect(JSON.parse(JSON.stringify(parsed))).toEqual({ constructor: { prototype: { polluted: '1' } }, metadata: { toString: 't' } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
