import { parse } from 'qs';
import type { RawValue } from '../core/params';
import { invalidRequest } from './stripe-error';

/**
 * A form-encoded body or query string with Stripe's bracket syntax (`items[0][price]=…`,
 * `metadata[plan]=pro`, `expand[]=…`) as nested hashes and arrays. Keys such as `__proto__` are
 * dropped, hashes have no prototype, and too deep, too long or too many parameters are a 400.
 */
export function parseForm(text: string): { [key: string]: RawValue } {
  try {
    return parse(text, {
      allowPrototypes: false,
      plainObjects: true,
      depth: 6,
      strictDepth: true,
      arrayLimit: 100,
      parameterLimit: 2_000,
      throwOnLimitExceeded: true,
      allowDots: false,
      comma: false,
    }) as { [key: string]: RawValue };
  } catch (error) {
    throw invalidRequest(`Invalid request body: ${(error as Error).message}`);
  }
}
