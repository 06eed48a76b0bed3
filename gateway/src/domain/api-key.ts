import { hash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** Longest key header value worth looking at; anything longer is not one of ours. */
export const MAX_KEY_LENGTH = 128;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ACCOUNT_HEX = 24;
const RANDOM_CHARS = 30;
const CHECKSUM_CHARS = 6;
// tg_ + account (24 hex) + random (30 base62, 178 bits) + CRC32 (6 base62).
const KEY_PATTERN = /^tg_[0-9a-f]{24}[0-9A-Za-z]{36}$/;
// Keys made before accounts: tg_ and 32 random bytes in base64url; their account comes from the hash.
const LEGACY_KEY_PATTERN = /^tg_[A-Za-z0-9_-]{43}$/;

/** Ids: `acc_` + 24 hex; `key_` + the account's 24 hex + 8 hex (or, for a key made before accounts, `key_` + 24 hex). */
export const ACCOUNT_ID_PATTERN = '^acc_[0-9a-f]{24}$';
export const KEY_ID_PATTERN = '^key_[0-9a-f]{24}([0-9a-f]{8})?$';
const KEY_ID = new RegExp(KEY_ID_PATTERN);
const ACCOUNT_ID = new RegExp(ACCOUNT_ID_PATTERN);

function base62(value: number, width: number): string {
  let out = '';
  for (let i = 0; i < width; i++) {
    out = BASE62[value % 62]! + out;
    value = Math.floor(value / 62);
  }
  return out;
}

/** The 6-character base62 CRC32 of a key's body, as GitHub's tokens carry: a typo fails it. */
export function keyChecksum(body: string): string {
  return base62(crc32(body), CHECKSUM_CHARS);
}

/** A new account id from the random source. */
export function newAccountId(random: (size: number) => Buffer = randomBytes): string {
  return `acc_${random(ACCOUNT_HEX / 2).toString('hex')}`;
}

/** A new key id inside an account: its account can be read back from it ({@link accountOfKeyId}). */
export function newKeyId(accountId: string, random: (size: number) => Buffer = randomBytes): string {
  return `key_${accountId.slice(4)}${random(4).toString('hex')}`;
}

/**
 * A new secret for a key of `accountId`: `tg_`, the account's 24 hex digits (so the gateway finds
 * the account's Redis slot without a lookup), 30 random base62 characters and a checksum. Shown
 * once, never stored: only its SHA-256 is.
 */
export function generateApiKey(accountId: string, random: (size: number) => Buffer = randomBytes): string {
  const bytes = random(RANDOM_CHARS);
  let body = `tg_${accountId.slice(4)}`;
  // 30 bytes, each reduced mod 62: a bias of under 2% per character, over 178 bits of secret.
  for (const byte of bytes) body += BASE62[byte % 62];
  return body + keyChecksum(body);
}

/** The SHA-256 (hex) of a key: the only form in which keys are stored. One-shot: no Hash object per call. */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** What a presented key tells before any store is asked. */
export type ParsedKey = { ok: true; accountId: string; hash: string; legacy: boolean } | { ok: false; reason: 'malformed' | 'checksum' | 'length' };

/** The length of every key made since accounts. */
export const KEY_LENGTH = 3 + ACCOUNT_HEX + RANDOM_CHARS + CHECKSUM_CHARS;
// A key made since accounts starts so; an old key does so by chance once in 2^48.
const NEW_KEY_START = /^tg_[0-9a-f]{24}[0-9A-Za-z]*$/;

/**
 * Reads a presented key: its account and hash, or why it cannot be a key (wrong shape, or a
 * checksum that does not match: a mistyped or truncated key), so it is refused without a store call.
 */
export function parseApiKey(presented: string): ParsedKey {
  if (presented.length === KEY_LENGTH && KEY_PATTERN.test(presented)) {
    const body = presented.slice(0, -CHECKSUM_CHARS);
    if (keyChecksum(body) !== presented.slice(-CHECKSUM_CHARS)) return { ok: false, reason: 'checksum' };
    return { ok: true, accountId: `acc_${presented.slice(3, 3 + ACCOUNT_HEX)}`, hash: hashApiKey(presented), legacy: false };
  }
  // A new key cut short or run on is told as such, even at an old key's length.
  if (NEW_KEY_START.test(presented)) return { ok: false, reason: 'length' };
  if (LEGACY_KEY_PATTERN.test(presented)) {
    const keyHash = hashApiKey(presented);
    return { ok: true, accountId: `acc_${keyHash.slice(0, ACCOUNT_HEX)}`, hash: keyHash, legacy: true };
  }
  return { ok: false, reason: 'malformed' };
}

/** The id a key made before accounts had: `key_` and the first 24 hex digits of its hash. */
export function legacyKeyIdFromHash(keyHash: string): string {
  return `key_${keyHash.slice(0, ACCOUNT_HEX)}`;
}

/** The account a key id belongs to, or undefined for a string that is no key id. */
export function accountOfKeyId(keyId: string): string | undefined {
  return KEY_ID.test(keyId) ? `acc_${keyId.slice(4, 4 + ACCOUNT_HEX)}` : undefined;
}

/** Whether a string is an account id. */
export function isAccountId(id: string): boolean {
  return ACCOUNT_ID.test(id);
}

/** What may be shown of a secret after creation: its first 11 characters and its last four. */
export function keyHints(key: string): { prefix: string; last4: string } {
  return { prefix: key.slice(0, 11), last4: key.slice(-4) };
}
