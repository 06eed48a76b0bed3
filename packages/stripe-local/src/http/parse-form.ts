import { parse } from 'qs';
import type { RawValue } from '../core/params';
import { invalidRequest } from './stripe-error';

const PARAMETER_LIMIT = 2_000;

/**
 * A form-encoded body or query string with Stripe's bracket syntax (`items[0][price]=…`,
 * `metadata[plan]=pro`, `expand[]=…`) as nested hashes and arrays. Keys such as `__proto__` are
 * dropped, hashes have no prototype, and too deep a nesting or too many parameters is a 400. An
 * index above 100 makes a hash of indices instead of an array; readers take either.
 */
export function parseForm(text: string): { [key: string]: RawValue } {
  if (text.split('&').length > PARAMETER_LIMIT) throw invalidRequest(`Invalid request body: more than ${PARAMETER_LIMIT} parameters.`);
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
