import { parse } from 'qs';
import type { RawValue } from '../core/params';
import { invalidRequest } from './stripe-error';

const PARAMETER_LIMIT = 2_000;
// A name with `__proto__` as a part (`__proto__=…`, `metadata[__proto__]=…`): qs drops it whatever
// its options, which would lose what was sent without a word.
const PROTO_PART = /(?:^|\[)__proto__(?:\]|\[|$)/;

function decodedName(pair: string): string {
  const end = pair.indexOf('=');
  const name = (end === -1 ? pair : pair.slice(0, end)).replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * A form-encoded body or query string with Stripe's bracket syntax (`items[0][price]=…`,
 * `metadata[plan]=pro`, `expand[]=…`) as nested hashes and arrays. Hashes have no prototype; a
 * name with a `__proto__` part, too deep a nesting or too many parameters is a 400. An
 * index above 100 makes a hash of indices instead of an array; readers take either.
 */
export function parseForm(text: string): { [key: string]: RawValue } {
  const pairs = text.split('&');
  if (pairs.length > PARAMETER_LIMIT) throw invalidRequest(`Invalid request body: more than ${PARAMETER_LIMIT} parameters.`);
  for (const pair of pairs) {
    const name = decodedName(pair);
    if (PROTO_PART.test(name)) throw invalidRequest(`Invalid request body: the parameter ${name.slice(0, 80)} names __proto__, which is not accepted as a key.`);
  }
  try {
    // Sparse arrays keep their indices, so `metadata[0]=a&metadata[5]=b` keeps both keys as sent.
    return parse(text, {
      allowPrototypes: false,
      plainObjects: true,
      depth: 6,
      strictDepth: true,
      arrayLimit: 100,
      allowSparse: true,
      parameterLimit: PARAMETER_LIMIT,
      allowDots: false,
      comma: false,
    }) as { [key: string]: RawValue };
  } catch (error) {
    throw invalidRequest(`Invalid request body: ${(error as Error).message}`);
  }
}
