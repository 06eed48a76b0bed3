import type { AuditAction } from './audit-log';
import { changedFields, unchanged } from './audit-diff';
import { appendAudit } from './audited-account-store';
import type { AuditDeps, AuditSource } from './audited-account-store';
import type { EventStore, WebhookEndpoint } from './event-store';

// What an endpoint's entries show of it: never its secrets.
const facts = (e: WebhookEndpoint) => ({ url: e.url, description: e.description, types: e.types, enabled: e.enabled });

/**
 * `store`, with every change to an account's webhook endpoints and event settings recorded in the
 * audit log as `source`'s: `webhook.create`, `webhook.update` (what changed, before and after),
 * `webhook.rotate_secret` (until when the previous secret signs; never a secret), `webhook.delete`,
 * `webhook.disable` (the gateway turning a failing endpoint off, with why) and `events.settings`. A
 * write that changes none of these (an attempt's failing time) adds no entry; the queue, claims and
 * reads pass through.
 */
export function auditedEventStore(store: EventStore, deps: AuditDeps, source: AuditSource): EventStore {
  const record = (accountId: string, action: AuditAction, target: string | null, details: Record<string, unknown>): Promise<void> =>
    appendAudit(deps, { account_id: accountId, actor: source.actor, from: source.from, action, target, details });
  return {
    ...store,
    async setPreferences(accountId, preferences) {
      const before = await store.getPreferences(accountId);
      await store.setPreferences(accountId, preferences);
      const diff = changedFields(before, preferences);
      if (!unchanged(diff)) await record(accountId, 'events.settings', null, diff);
    },
    async createEndpoint(endpoint, max) {
      await store.createEndpoint(endpoint, max);
      await record(endpoint.account_id, 'webhook.create', endpoint.id, facts(endpoint));
    },
    async putEndpoint(endpoint) {
      const before = await store.getEndpoint(endpoint.account_id, endpoint.id);
      const put = await store.putEndpoint(endpoint);
      if (!put || !before) return put;
      if (before.secret !== endpoint.secret) {
        await record(endpoint.account_id, 'webhook.rotate_secret', endpoint.id, { previous_secret_until: endpoint.previous_secret_until });
      } else if (before.enabled && !endpoint.enabled && endpoint.disabled_reason !== null) {
        await record(endpoint.account_id, 'webhook.disable', endpoint.id, { reason: endpoint.disabled_reason });
      } else {
        const diff = changedFields(facts(before), facts(endpoint));
        if (!unchanged(diff)) await record(endpoint.account_id, 'webhook.update', endpoint.id, diff);
      }
      return put;
    },
    async deleteEndpoint(accountId, endpointId) {
      const before = await store.getEndpoint(accountId, endpointId);
      const deleted = await store.deleteEndpoint(accountId, endpointId);
      if (deleted && before) await record(accountId, 'webhook.delete', endpointId, { url: before.url });
      return deleted;
    },
  };
}
