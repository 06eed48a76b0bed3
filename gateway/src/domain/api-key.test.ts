import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import {
  ACCOUNT_ID_PATTERN,
  KEY_ID_PATTERN,
  accountOfKeyId,
  generateApiKey,
  hashApiKey,
  isAccountId,
  keyChecksum,
  keyHints,
  legacyKeyIdFromHash,
  newAccountId,
  newKeyId,
  parseApiKey,
  shownStart,
} from './api-key';

// Fixed, so a run is repeatable; the properties are meant to hold for every input anyway.
fc.configureGlobal({ seed: 20_260_331 });

const ACCOUNT = 'acc_0123456789abcdef01234567';
/** A random source returning the bytes 0, 1, 2, … (so the key's random part is the alphabet's start). */
const counting = (size: number): Buffer => Buffer.from(Array.from({ length: size }, (_, i) => i));
/** Computed independently (Python's zlib.crc32 and hashlib) for this account and `counting`. */
const KEY = 'tg_A1234560123456789abcdef01234567789ABCDEFGHIJKLMNOPQRST2twJFB';
const KEY_HASH = '23d4d666ccd73cf5cd4aa1b39368781beb294ac33b6be998a6625e969ca0b00b';
/** A key made before issue 40 (the account part first), for the same account and `counting`. */
const V1_KEY = 'tg_0123456789abcdef012345670123456789ABCDEFGHIJKLMNOPQRST4KhC6R';
const V1_KEY_HASH = '6ef940c111c5580734de6c6ab703932187a4e4892ac663a3e88cf2b4b6694b81';
const LEGACY_KEY = `tg_${Buffer.alloc(32, 0xff).toString('base64url')}`;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// Every character a key header could plausibly hold by mistake.
const TYPED = `${BASE62}_-+/=. `;

const accountIds = fc.stringMatching(/^[0-9a-f]{24}$/).map((hex) => `acc_${hex}`);
const randomParts = fc.uint8Array({ minLength: 30, maxLength: 30 });
const keys = fc.tuple(accountIds, randomParts).map(([accountId, bytes]) => ({ accountId, key: generateApiKey(accountId, () => Buffer.from(bytes)) }));

describe('api keys', () => {
  describe('generateApiKey', () => {
    it.each([
      ['bytes 0, 1, 2, …', counting, KEY],
      ['bytes all 0xff (255 mod 46 = 25, mod 62 = 7)', (size: number) => Buffer.alloc(size, 0xff), 'tg_Z7777770123456789abcdef01234567777777777777777777777772JEZ0X'],
    ])('when the random source gives %s, then the key is tg_, 7 random characters, the account hex, 23 random characters and the checksum', (_case, random, expected) => {
      const key = generateApiKey(ACCOUNT, random);
      expect(key).toBe(expected);
      expect(key).toHaveLength(63);
    });

    it('when keys are generated for any account and random bytes, then each parses back to its account, its hash, and not legacy', () => {
      fc.assert(
        fc.property(keys, ({ accountId, key }) => {
          expect(key).toMatch(/^tg_[g-zA-Z][0-9A-Za-z]{6}[0-9a-f]{24}[0-9A-Za-z]{29}$/);
          expect(parseApiKey(key)).toEqual({ ok: true, accountId, hash: hashApiKey(key), legacy: false });
        }),
      );
    });
  });

  describe('keyChecksum', () => {
    it.each([
      ['123456789', '3jZRME'], // CRC32 check value 0xCBF43926 in six base62 digits
      ['', '000000'],
      [KEY.slice(0, -6), KEY.slice(-6)],
    ])('when the body is %j, then the checksum is %s', (body, checksum) => {
      expect(keyChecksum(body)).toBe(checksum);
    });

    it('when the body is any ASCII text, then the checksum is zlib’s CRC32 in six base62 digits', () => {
      const reference = (text: string): string => {
        let value = crc32(text);
        let out = '';
        for (let i = 0; i < 6; i++, value = Math.floor(value / 62)) out = BASE62[value % 62]! + out;
        return out;
      };
      fc.assert(fc.property(fc.string({ unit: 'binary-ascii', maxLength: 80 }), (body) => keyChecksum(body) === reference(body)));
    });
  });

  describe('parseApiKey', () => {
    const flip = (s: string, at: number, to: string): string => s.slice(0, at) + to + s.slice(at + 1);
    it.each<[string, string, object]>([
      ['a key', KEY, { ok: true, accountId: ACCOUNT, hash: KEY_HASH, legacy: false }],
      ['a key made before issue 40 (account part first)', V1_KEY, { ok: true, accountId: ACCOUNT, hash: V1_KEY_HASH, legacy: false }],
      ['a typo in the account part of a key made before issue 40', flip(V1_KEY, 5, '3'), { ok: false, reason: 'checksum' }],
      ['a non-hex letter in the account part of a key made before issue 40', flip(V1_KEY, 5, 'g'), { ok: false, reason: 'malformed' }],
      ['a key made before issue 40 cut after its account part', V1_KEY.slice(0, 27), { ok: false, reason: 'length' }],
      ['a hex digit where the first character is, with no account part after it', flip(flip(KEY, 3, 'a'), 4, 'X'), { ok: false, reason: 'malformed' }],
      ['a hex digit where the first character is, as a typo', flip(KEY, 3, 'a'), { ok: false, reason: 'checksum' }],
      ['a key made before accounts', LEGACY_KEY, { ok: true, accountId: `acc_${hashApiKey(LEGACY_KEY).slice(0, 24)}`, hash: hashApiKey(LEGACY_KEY), legacy: true }],
      ['a typo in the random part', flip(KEY, 40, 'x'), { ok: false, reason: 'checksum' }],
      ['a typo in the account part', flip(KEY, 12, '3'), { ok: false, reason: 'checksum' }],
      ['a typo in the checksum', flip(KEY, 62, 'S'), { ok: false, reason: 'checksum' }],
      ['two adjacent characters swapped', `${KEY.slice(0, 30)}${KEY[31]}${KEY[30]}${KEY.slice(32)}`, { ok: false, reason: 'checksum' }],
      ['a non-hex letter in the account part', flip(KEY, 12, 'g'), { ok: false, reason: 'malformed' }],
      ['an upper-case account part', KEY.toUpperCase().replace('TG_', 'tg_'), { ok: false, reason: 'malformed' }],
      ['a character outside base62', flip(KEY, 40, '-'), { ok: false, reason: 'malformed' }],
      ['another prefix', flip(KEY, 0, 's'), { ok: false, reason: 'malformed' }],
      ['the last character cut', KEY.slice(0, -1), { ok: false, reason: 'length' }],
      ['only the start and account', KEY.slice(0, 34), { ok: false, reason: 'length' }],
      ['cut inside its account part', KEY.slice(0, 33), { ok: false, reason: 'malformed' }],
      ['cut to the length of a key made before accounts', KEY.slice(0, 46), { ok: false, reason: 'length' }],
      ['one character too many', `${KEY}0`, { ok: false, reason: 'length' }],
      ['surrounding space', ` ${KEY}`, { ok: false, reason: 'malformed' }],
      ['a legacy key cut short', LEGACY_KEY.slice(0, -1), { ok: false, reason: 'malformed' }],
      ['garbage', 'not-a-key', { ok: false, reason: 'malformed' }],
      ['nothing', '', { ok: false, reason: 'malformed' }],
    ])('when %s is presented, then it reads as expected', (_case, presented, expected) => {
      expect(parseApiKey(presented)).toEqual(expected);
    });

    // A one-character change alters one byte of the body (a burst of at most 8 bits, and CRC32
    // detects every burst of up to 32) or one digit of the checksum (six base62 digits hold any
    // 32-bit value exactly once): no single substitution can keep the checksum right. Only two or
    // more separate changes can, about once in 2^32.
    it('when any one character of a key is changed to any other, then it is refused as malformed or by its checksum', () => {
      fc.assert(
        fc.property(keys, fc.nat(62), fc.constantFrom(...TYPED), ({ key }, at, to) => {
          fc.pre(key[at] !== to);
          const parsed = parseApiKey(flip(key, at, to));
          expect(parsed.ok).toBe(false);
        }),
        { numRuns: 2_000 },
      );
    });

    it('when every position of one key takes every other base62 character, then each of the 3,843 changes is refused', () => {
      for (let at = 0; at < KEY.length; at++) {
        for (const to of BASE62) if (KEY[at] !== to) expect(parseApiKey(flip(KEY, at, to))).toMatchObject({ ok: false });
      }
    });

    it('when two different characters next to each other are swapped, then the key is refused', () => {
      fc.assert(
        fc.property(keys, fc.nat(61), ({ key }, at) => {
          fc.pre(key[at] !== key[at + 1]);
          expect(parseApiKey(`${key.slice(0, at)}${key[at + 1]}${key[at]}${key.slice(at + 2)}`).ok).toBe(false);
        }),
      );
    });

    // Cut after its account part, a key is told as cut short, even at the length of a key made
    // before accounts (tg_ and 43 base64url characters: one of those starts with 24 lower-case hex
    // digits once in 2^48); cut before, it no longer looks like a key at all.
    it('when a key is cut to any length, then it is refused without the store, as cut short once its account part is whole', () => {
      fc.assert(
        fc.property(keys, fc.nat(62), ({ key }, length) => {
          expect(parseApiKey(key.slice(0, length))).toEqual({ ok: false, reason: length >= 34 ? 'length' : 'malformed' });
        }),
      );
    });
  });

  describe('ids', () => {
    it.each([
      ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
      ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ])('when %j is hashed, then the SHA-256 hex is %s', (key, hash) => {
      expect(hashApiKey(key)).toBe(hash);
    });

    it('when account and key ids are made from a random source, then they follow their patterns and the key id names its account', () => {
      const accountId = newAccountId((size) => Buffer.alloc(size, 0xab));
      expect(accountId).toBe('acc_abababababababababababab');
      expect(accountId).toMatch(new RegExp(ACCOUNT_ID_PATTERN));
      const keyId = newKeyId(accountId, (size) => Buffer.alloc(size, 0x0f));
      expect(keyId).toBe('key_abababababababababababab0f0f0f0f');
      expect(keyId).toMatch(new RegExp(KEY_ID_PATTERN));
      expect(accountOfKeyId(keyId)).toBe(accountId);
      fc.assert(fc.property(accountIds, fc.uint8Array({ minLength: 4, maxLength: 4 }), (account, bytes) => accountOfKeyId(newKeyId(account, () => Buffer.from(bytes))) === account));
    });

    it('when the id of a key made before accounts is derived, then it is key_ and the first 24 hex digits of the hash, and its account the same digits', () => {
      const id = legacyKeyIdFromHash(hashApiKey('abc'));
      expect(id).toBe('key_ba7816bf8f01cfea414140de');
      expect(id).toMatch(new RegExp(KEY_ID_PATTERN));
      expect(accountOfKeyId(id)).toBe('acc_ba7816bf8f01cfea414140de');
      const parsed = parseApiKey(LEGACY_KEY);
      expect(parsed.ok && accountOfKeyId(legacyKeyIdFromHash(parsed.hash))).toBe(parsed.ok && parsed.accountId);
    });

    it.each<[string, string | undefined]>([
      ['key_0123456789abcdef0123456789abcdef', 'acc_0123456789abcdef01234567'],
      ['key_0123456789abcdef01234567', 'acc_0123456789abcdef01234567'],
      ['key_0123456789abcdef0123456789abcde', undefined],
      ['key_0123456789ABCDEF01234567', undefined],
      ['acc_0123456789abcdef01234567', undefined],
      ['key_0123456789abcdef01234567/../x', undefined],
      ['', undefined],
    ])('when the account of key id %j is asked, then it is %s', (keyId, accountId) => {
      expect(accountOfKeyId(keyId)).toBe(accountId);
    });

    it.each<[string, boolean]>([
      [ACCOUNT, true],
      ['acc_0123456789abcdef0123456', false],
      ['acc_0123456789ABCDEF01234567', false],
      ['key_0123456789abcdef01234567', false],
    ])('when %j is checked, then isAccountId is %s', (id, expected) => {
      expect(isAccountId(id)).toBe(expected);
    });
  });

  describe('keyHints', () => {
    it.each([
      ['a key', KEY, { prefix: 'tg_A123456', last4: 'wJFB' }],
      ['a key made before issue 40 (rolled keys get a new secret, so only in tests)', V1_KEY, { prefix: 'tg_0123456', last4: 'hC6R' }],
    ])('when the hints of %s are taken, then the prefix is the secret’s own first 10 characters and last4 its end', (_case, key, hints) => {
      expect(keyHints(key)).toEqual(hints);
      expect(key.startsWith(hints.prefix) && key.endsWith(hints.last4)).toBe(true);
    });

    it('when keys of one account are made, then each shows a start of its own, which the secret starts with', () => {
      const account = newAccountId();
      const keys = Array.from({ length: 50 }, () => generateApiKey(account));
      const prefixes = new Set(keys.map((key) => keyHints(key).prefix));
      expect(prefixes.size).toBe(50);
      for (const key of keys) expect(key.startsWith(keyHints(key).prefix)).toBe(true);
      for (const prefix of prefixes) expect(prefix).toMatch(/^tg_[g-zA-Z][0-9A-Za-z]{6}$/);
    });
  });

  describe('shownStart', () => {
    it.each([
      ['a start stored since issue 40', 'tg_A123456', 'tg_A123456'],
      ['a prefix stored before issue 40 (6 characters from after the account part)', 'tg_QwIJRZ', 'tg_012345'],
      ['the prefix of a key made before accounts (its start unknown)', 'tg_', 'tg_'],
      ['nothing', '', ''],
    ])('when %s is read, then the shown start is %j', (_case, stored, shown) => {
      expect(shownStart(stored, ACCOUNT)).toBe(shown);
    });

    it('when a stored prefix of a key made before issue 40 is read, then it is the start of that key’s secret, and reading it again changes nothing', () => {
      fc.assert(
        fc.property(keys, fc.stringMatching(/^[0-9A-Za-z]{6}$/), ({ accountId }, random) => {
          const v1 = `tg_${accountId.slice(4)}`;
          const shown = shownStart(`tg_${random}`, accountId);
          expect(v1.startsWith(shown)).toBe(true);
          expect(shownStart(shown, accountId)).toBe(shown);
        }),
      );
    });
  });
});
