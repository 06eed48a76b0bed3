import fc from 'fast-check';
import { SecretsKeyError, createSecretBox } from './secret-box';

const key = (byte: number): Buffer => Buffer.from(Array.from({ length: 32 }, (_, i) => (byte + i) % 256));
const SECRET = 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0';

describe('the secret box (AES-256-GCM under SECRETS_KEY)', () => {
  it('when a secret is sealed, then it opens in its own context only, is never written twice the same, and names its key', () => {
    const box = createSecretBox({ current: key(1), previous: [] });
    const [one, two] = [box.seal(SECRET, 'webhook:acc:whe_1:secret'), box.seal(SECRET, 'webhook:acc:whe_1:secret')];
    expect(one).toMatch(new RegExp(`^tgsealed:v1:${box.keyId}:[A-Za-z0-9_-]+$`));
    expect(one).not.toBe(two);
    expect(one).not.toContain(SECRET.slice(6));
    expect(box.open(one, 'webhook:acc:whe_1:secret')).toBe(SECRET);
    expect(() => box.open(one, 'webhook:acc:whe_2:secret')).toThrow(`a webhook signing secret in the store does not open with its key (key ${box.keyId}): it was altered, or copied from another endpoint`);
    expect([box.stale(one), box.stale(SECRET)]).toEqual([false, true]);
  });

  it('when any byte of a sealed value is altered, then it does not open', () => {
    const box = createSecretBox({ current: key(1), previous: [] });
    const sealed = box.seal(SECRET, 'c');
    const prefix = sealed.lastIndexOf(':') + 1;
    const bytes = Buffer.from(sealed.slice(prefix), 'base64url');
    fc.assert(
      fc.property(fc.nat(bytes.length - 1), fc.integer({ min: 1, max: 255 }), (at, flip) => {
        const altered = Buffer.from(bytes);
        altered[at]! ^= flip;
        expect(() => box.open(sealed.slice(0, prefix) + altered.toString('base64url'), 'c')).toThrow(SecretsKeyError);
      }),
    );
  });

  it('when the key is rotated, then a value sealed under the previous key opens and is stale, and without that key it names the key it needs', () => {
    const before = createSecretBox({ current: key(1), previous: [] });
    const sealed = before.seal(SECRET, 'c');
    const rotating = createSecretBox({ current: key(2), previous: [key(1)] });
    expect([rotating.open(sealed, 'c'), rotating.stale(sealed), rotating.stale(rotating.seal(SECRET, 'c'))]).toEqual([SECRET, true, false]);
    const after = createSecretBox({ current: key(2), previous: [] });
    expect(() => after.open(sealed, 'c')).toThrow(new RegExp(`^a webhook signing secret in the store is sealed with a key this gateway does not have \\(key ${before.keyId}\\): set SECRETS_KEY`));
  });

  it('when there is no key, then secrets are kept plain, plain ones open, and a sealed one is stale (opened with a previous key) or refused', () => {
    const sealed = createSecretBox({ current: key(1), previous: [] }).seal(SECRET, 'c');
    const plain = createSecretBox({ previous: [key(1)] });
    expect([plain.keyId, plain.seal(SECRET, 'c'), plain.open(SECRET, 'c'), plain.open(sealed, 'c'), plain.stale(sealed), plain.stale(SECRET)]).toEqual([undefined, SECRET, SECRET, SECRET, true, false]);
    expect(() => createSecretBox({ previous: [] }).open(sealed, 'c')).toThrow(SecretsKeyError);
  });
});
