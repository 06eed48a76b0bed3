import { idempotencyError, invalidRequest } from './stripe-error';

/** An answer kept to be replayed. */
export interface SavedAnswer {
  status: number;
  body: string;
  requestId: string;
}

interface Entry {
  endpoint: string;
  body: string;
  answer: SavedAnswer;
}

const AGAIN = 'if you meant to execute a different request.';

/**
 * Stripe's idempotent requests: a key (per API key) replays the answer of its first request, as
 * long as it comes again with the same endpoint and the same body.
 */
export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  /** The saved answer for this key, or `undefined` the first time; a mismatch is a 400. */
  replay(apiKey: string, key: string, endpoint: string, body: string): SavedAnswer | undefined {
    if (key.length > 255) throw invalidRequest('The Idempotency-Key header must be at most 255 characters long.', { param: 'Idempotency-Key' });
    const entry = this.entries.get(`${apiKey}\n${key}`);
    if (!entry) return undefined;
    if (entry.endpoint !== endpoint) {
      throw idempotencyError(`Keys for idempotent requests can only be used for the same endpoint they were first used for ('${entry.endpoint}' vs '${endpoint}'). Try using a key other than '${key}' ${AGAIN}`);
    }
    if (entry.body !== body) {
      throw idempotencyError(`Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' ${AGAIN}`);
    }
    return entry.answer;
  }

  save(apiKey: string, key: string, endpoint: string, body: string, answer: SavedAnswer): void {
    this.entries.set(`${apiKey}\n${key}`, { endpoint, body, answer });
  }
}
