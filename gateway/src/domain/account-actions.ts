import { dayWindow, hourWindow } from './windows';
import type { Window } from './windows';

/**
 * What a customer does that makes the gateway send or tell something, limited per account and
 * window (issue 35): test events and redeliveries (each one a webhook sent, retried up to eight
 * times to a URL the customer chose), and keys created and revoked (each revocation a
 * `key.revoked` event to every endpoint).
 */
export type AccountAction = 'webhook_send' | 'key_create' | 'key_revoke';

/** Each action's counting window, the limit's name in a refusal's details, and the refusal a customer reads. */
export const ACCOUNT_ACTIONS: Record<AccountAction, { window: (nowMs: number) => Window; limit: string; refusal: (max: number) => string }> = {
  webhook_send: { window: hourWindow, limit: 'webhook_sends_per_hour', refusal: (max) => `Your account may send at most ${max} test events and redeliveries an hour.` },
  key_create: { window: dayWindow, limit: 'keys_created_per_day', refusal: (max) => `Your account may create at most ${max} keys a day (days are UTC).` },
  key_revoke: { window: dayWindow, limit: 'keys_revoked_per_day', refusal: (max) => `Your account may revoke at most ${max} keys a day (days are UTC).` },
};
