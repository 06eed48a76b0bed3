import { KEY_ID_PATTERN, generateApiKey, hashApiKey, keyIdFromHash } from './api-key';

describe('api keys', () => {
  it('when a key is generated, then it is tg_ and 43 base64url characters from the random source', () => {
    const key = generateApiKey((size) => Buffer.alloc(size, 0xff));
    expect(key).toBe(`tg_${Buffer.alloc(32, 0xff).toString('base64url')}`);
    expect(key).toMatch(/^tg_[A-Za-z0-9_-]{43}$/);
  });

  it.each([
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  ])('when %j is hashed, then the SHA-256 hex is %s', (key, hash) => {
    expect(hashApiKey(key)).toBe(hash);
  });

  it('when an id is derived, then it is key_ and the first 24 hex digits of the hash', () => {
    const id = keyIdFromHash(hashApiKey('abc'));
    expect(id).toBe('key_ba7816bf8f01cfea414140de');
    expect(id).toMatch(new RegExp(KEY_ID_PATTERN));
  });
});
