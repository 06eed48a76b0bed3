import { hash, randomBytes } from 'node:crypto';

/** Longest key header value worth looking at; anything longer is not one of ours. */
export const MAX_KEY_LENGTH = 128;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ACCOUNT_HEX = 24;
const RANDOM_CHARS = 30;
const CHECKSUM_CHARS = 6;
/** The random characters a key starts with since issue 40, which its shown start holds (as Stripe's and Unkey's). */
const START_CHARS = 7;
/** The length of every key made since accounts. */
export const KEY_LENGTH = 3 + ACCOUNT_HEX + RANDOM_CHARS + CHECKSUM_CHARS;
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

// CRC-32 (IEEE, as zlib's) table. Computed here rather than by zlib.crc32: a key is 57 ASCII
// characters, and crossing into C++ (with the string's conversion to bytes) cost more than the sum.
const CRC_TABLE = new Int32Array(256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  CRC_TABLE[n] = c;
}

// Character classes of a key made since accounts: 1 lower-case hex (the account), 2 base62, 4 a
// base62 character that is no lower-case hex digit (the first random one of a key made since
// issue 40, which tells its layout apart).
const HEX = 1;
const B62 = 2;
const LEAD = 4;
const CHAR_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (BASE62.includes(ch)) CHAR_CLASS[c] = B62 | (/[0-9a-f]/.test(ch) ? HEX : LEAD);
}
// The characters a key's first random one is drawn from: base62 without 0-9 and a-f (46).
const LEAD_CHARS = [...BASE62].filter((ch) => CHAR_CLASS[ch.charCodeAt(0)]! & LEAD).join('');

/** CRC-32 of an ASCII string (each character taken as its byte). */
function crc32Ascii(text: string, end = text.length): number {
  let crc = -1;
  for (let i = 0; i < end; i++) crc = CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff]! ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}

/** The 6-character base62 CRC32 of a key's body, as GitHub's tokens carry: a typo fails it. */
export function keyChecksum(body: string): string {
  return base62(crc32Ascii(body), CHECKSUM_CHARS);
}

/**
 * The two layouts of a key made since accounts, as the class each position must have. Since issue
 * 40 (`V2`) a key starts with 7 of its random characters (`tg_Qw3xYzA…`), so the start a list shows
 * is the secret's own and tells keys of one account apart; the account part follows. Before it
 * (`V1`) the account part came first. Both are 63 characters; the character after `tg_` tells them
 * apart (a hex digit starts an account part, a V2 key's first character is never one).
 */
const V1_ACCOUNT = 3;
const V2_ACCOUNT = 3 + START_CHARS;
function layout(accountStart: number, lead: boolean): Uint8Array {
  const classes = new Uint8Array(KEY_LENGTH).fill(B62);
  classes.fill(HEX, accountStart, accountStart + ACCOUNT_HEX);
  if (lead) classes[3] = LEAD;
  return classes;
}
const V1 = layout(V1_ACCOUNT, false);
const V2 = layout(V2_ACCOUNT, true);

/**
 * Whether a string of {@link KEY_LENGTH} characters has the shape of `classes` (after `tg_`), in one
 * pass without a regular expression: it runs on every call.
 */
function hasKeyShape(key: string, classes: Uint8Array): boolean {
  if (key.charCodeAt(0) !== 116 || key.charCodeAt(1) !== 103 || key.charCodeAt(2) !== 95) return false;
  for (let i = 3; i < KEY_LENGTH; i++) {
    const c = key.charCodeAt(i);
    if (c >= 128 || (CHAR_CLASS[c]! & classes[i]!) === 0) return false;
  }
  return true;
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
 * A new secret for a key of `accountId`: `tg_`, 7 random characters (the first never a hex digit),
 * the account's 24 hex digits (so the gateway finds the account's Redis slot without a lookup), 23
 * more random base62 characters and a checksum. Shown once, never stored: only its SHA-256 is.
 */
export function generateApiKey(accountId: string, random: (size: number) => Buffer = randomBytes): string {
  const bytes = random(RANDOM_CHARS);
  // Each byte reduced mod 62 (the first mod 46): a bias of under 2% per character, over 176 bits of secret.
  let body = `tg_${LEAD_CHARS[bytes[0]! % LEAD_CHARS.length]!}`;
  for (let i = 1; i < START_CHARS; i++) body += BASE62[bytes[i]! % 62];
  body += accountId.slice(4);
  for (let i = START_CHARS; i < RANDOM_CHARS; i++) body += BASE62[bytes[i]! % 62];
  return body + keyChecksum(body);
}

/** The SHA-256 (hex) of a key: the only form in which keys are stored. One-shot: no Hash object per call. */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** What a presented key tells before any store is asked. */
export type ParsedKey = { ok: true; accountId: string; hash: string; legacy: boolean } | { ok: false; reason: 'malformed' | 'checksum' | 'length' };

// A key made since accounts starts so (in either layout); an old key does so by chance once in 2^48.
const NEW_KEY_START = /^tg_(?:[0-9a-f]{24}|[g-zA-Z][0-9A-Za-z]{6}[0-9a-f]{24})[0-9A-Za-z]*$/;

/**
 * Reads a presented key: its account and hash, or why it cannot be a key (wrong shape, or a
 * checksum that does not match: a mistyped or truncated key), so it is refused without a store call.
 */
export function parseApiKey(presented: string): ParsedKey {
  if (presented.length === KEY_LENGTH) {
    const c = presented.charCodeAt(3);
    const accountStart = c < 128 && CHAR_CLASS[c]! & LEAD ? V2_ACCOUNT : V1_ACCOUNT;
    if (hasKeyShape(presented, accountStart === V2_ACCOUNT ? V2 : V1)) {
      if (base62(crc32Ascii(presented, KEY_LENGTH - CHECKSUM_CHARS), CHECKSUM_CHARS) !== presented.slice(-CHECKSUM_CHARS)) return { ok: false, reason: 'checksum' };
      return { ok: true, accountId: `acc_${presented.slice(accountStart, accountStart + ACCOUNT_HEX)}`, hash: hashApiKey(presented), legacy: false };
    }
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

/**
 * What may be shown of a secret after creation: its own start (`tg_` and its first
 * {@link START_CHARS} random characters: 7 of 30, over 136 bits stay unseen) and its last four.
 */
export function keyHints(key: string): { prefix: string; last4: string } {
  return { prefix: key.slice(0, 3 + START_CHARS), last4: key.slice(-4) };
}

/**
 * The start a list shows for a stored key, from what was stored: before issue 40 the stored prefix
 * was `tg_` and 6 random characters from after the account part (9 characters), not the secret's
 * start; the start of such a key (`tg_` and its account's hex) is told by its account instead. A key
 * made before accounts stored only `tg_`, its start unknown. One rule on every engine, so no stored
 * record needs rewriting.
 */
export function shownStart(storedPrefix: string, accountId: string): string {
  return storedPrefix.length === 3 + START_CHARS - 1 ? `tg_${accountId.slice(4, 4 + START_CHARS - 1)}` : storedPrefix;
}
