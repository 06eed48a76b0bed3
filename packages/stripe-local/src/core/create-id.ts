import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A Stripe-style id: the prefix, then `length` random base-62 characters (`cus_NffrFeUfNV2Hib…`). */
export function createId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let id = prefix;
  // 62 does not divide 256, so the first characters are a little likelier; ids need only be unique.
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return id;
}
