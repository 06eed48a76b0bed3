import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { SecretsKeys } from '../config';

/** The mark of a sealed value; anything else is a secret kept plain (as every store held them before). */
const SEALED = 'tgsealed:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed value names a key this gateway does not have, or does not open with it (altered, or moved to another record). */
export class SecretsKeyError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'SecretsKeyError';
  }
}

/**
 * Seals and opens secrets kept in a store: AES-256-GCM under the current key, with a random 96-bit
 * IV, the key's id (8 hex digits of its SHA-256) in front to pick the key that opens it, and a
 * context (which record and field) as additional data, so a sealed value copied to another record
 * does not open there.
 */
export interface SecretBox {
  /** The current key's id; undefined when secrets are kept plain. */
  keyId?: string;
  /** `plain` sealed under the current key (as it is without one). */
  seal(plain: string, context: string): string;
  /** The secret a stored value holds, plain or sealed; throws {@link SecretsKeyError}. */
  open(stored: string, context: string): string;
  /** Whether a stored value is not as `seal` would write it now: plain with a key, sealed without one or under another. */
  stale(stored: string): boolean;
}

const idOf = (key: Buffer): string => createHash('sha256').update(key).digest('hex').slice(0, 8);

export function createSecretBox(keys: SecretsKeys): SecretBox {
  const byId = new Map([...(keys.current ? [keys.current] : []), ...keys.previous].map((key) => [idOf(key), key]));
  const keyId = keys.current ? idOf(keys.current) : undefined;
  const current = keys.current;
  return {
    ...(keyId ? { keyId } : {}),
    seal(plain, context) {
      if (!current || !keyId) return plain;
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current, iv).setAAD(Buffer.from(context));
      const sealed = Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${SEALED}${keyId}:${sealed.toString('base64url')}`;
    },
    open(stored, context) {
      if (!stored.startsWith(SEALED)) return stored;
      const [id = '', body = ''] = stored.slice(SEALED.length).split(':');
      const key = byId.get(id);
      if (!key) throw new SecretsKeyError(`a webhook signing secret in the store is sealed with a key this gateway does not have (key ${id}): set SECRETS_KEY to that key, or to a new one with that one in SECRETS_KEY_PREVIOUS`);
      const bytes = Buffer.from(body, 'base64url');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES)).setAAD(Buffer.from(context));
        decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
        return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch (err) {
        throw new SecretsKeyError(`a webhook signing secret in the store does not open with its key (key ${id}): it was altered, or copied from another endpoint`, { cause: err });
      }
    },
    stale(stored) {
      const sealedUnder = stored.startsWith(SEALED) ? stored.slice(SEALED.length).split(':')[0] : undefined;
      return sealedUnder !== keyId;
    },
  };
}
