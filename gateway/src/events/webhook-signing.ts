import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { WebhookEndpoint } from '../data/event-store';

/** A new signing secret as Standard Webhooks writes them: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The secrets that sign now: the current one, and the previous one during a rotation's overlap. */
export function signingSecrets(endpoint: Pick<WebhookEndpoint, 'secret' | 'previous_secret' | 'previous_secret_until'>, nowMs: number): string[] {
  const previous = endpoint.previous_secret && endpoint.previous_secret_until && Date.parse(endpoint.previous_secret_until) > nowMs ? [endpoint.previous_secret] : [];
  return [endpoint.secret, ...previous];
}

/**
 * The Standard Webhooks headers of one attempt: `webhook-id` (the message's, the same on every
 * attempt), `webhook-timestamp` (Unix seconds of this attempt) and `webhook-signature`, one `v1,`
 * HMAC-SHA256 per secret that signs now, separated by spaces, so a receiver holding either secret
 * of a rotation accepts it.
 */
export function signedHeaders(secrets: readonly string[], messageId: string, atMs: number, payload: string): Record<string, string> {
  const at = new Date(Math.floor(atMs / 1000) * 1000);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(atMs / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, at, payload)).join(' '),
  };
}
