import { hash, randomBytes } from 'node:crypto';

/** Longest key header value worth hashing; anything longer is not one of ours. */
export const MAX_KEY_LENGTH = 128;

/** A new secret API key: `tg_` and 32 random bytes in base64url. Shown once, never stored. */
export function generateApiKey(random: (size: number) => Buffer = randomBytes): string {
  return `tg_${random(32).toString('base64url')}`;
}

/** The SHA-256 (hex) of a key: the only form in which keys are stored. One-shot: no Hash object per call. */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/**
 * The key id, derived from the hash so the gateway finds a key's record (and its hash-tagged
 * quota counters) without a lookup round trip; the stored full hash is still compared.
 */
export function keyIdFromHash(hash: string): string {
  return `key_${hash.slice(0, 24)}`;
}

/** Ids look like `key_` and 24 hex digits. */
export const KEY_ID_PATTERN = '^key_[0-9a-f]{24}$';
