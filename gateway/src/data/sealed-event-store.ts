import type { EventStore, WebhookEndpoint } from './event-store';
import type { SecretBox } from './secret-box';
import type { Stores } from './stores';

// Each sealed value is bound to its endpoint and field: copied elsewhere in the store, it does not open.
const contextOf = (endpoint: WebhookEndpoint, field: 'secret' | 'previous_secret'): string => `webhook:${endpoint.account_id}:${endpoint.id}:${field}`;

/** The endpoint as `box` keeps it: its secrets sealed (a null previous secret stays null). */
function sealed(endpoint: WebhookEndpoint, box: SecretBox): WebhookEndpoint {
  const previous = endpoint.previous_secret;
  return { ...endpoint, secret: box.seal(endpoint.secret, contextOf(endpoint, 'secret')), previous_secret: previous === null ? null : box.seal(previous, contextOf(endpoint, 'previous_secret')) };
}

/** The endpoint as its users see it: its secrets opened, plain or sealed. */
function opened(endpoint: WebhookEndpoint, box: SecretBox): WebhookEndpoint {
  const previous = endpoint.previous_secret;
  return { ...endpoint, secret: box.open(endpoint.secret, contextOf(endpoint, 'secret')), previous_secret: previous === null ? null : box.open(previous, contextOf(endpoint, 'previous_secret')) };
}

const stale = (endpoint: WebhookEndpoint, box: SecretBox): boolean => box.stale(endpoint.secret) || (endpoint.previous_secret !== null && box.stale(endpoint.previous_secret));

/**
 * An event store whose webhook signing secrets are sealed by `box` in the store underneath (any
 * engine) and open for whoever reads through it: written sealed, read plain. A value kept plain
 * (before SECRETS_KEY was set) still opens; {@link resealSecrets} rewrites it.
 */
export function sealedEventStore(inner: EventStore, box: SecretBox): EventStore {
  return {
    ...inner,
    createEndpoint: (endpoint, max) => inner.createEndpoint(sealed(endpoint, box), max),
    listEndpoints: async (accountId) => (await inner.listEndpoints(accountId)).map((e) => opened(e, box)),
    async getEndpoint(accountId, endpointId) {
      const found = await inner.getEndpoint(accountId, endpointId);
      return found && opened(found, box);
    },
    async putEndpoint(endpoint, expected) {
      if (expected === undefined) return inner.putEndpoint(sealed(endpoint, box));
      // Sealing twice gives two values: the comparison is made on what the kept one opens to.
      const kept = await inner.getEndpoint(endpoint.account_id, endpoint.id);
      if (!kept || JSON.stringify(opened(kept, box)) !== JSON.stringify(expected)) return false;
      return inner.putEndpoint(sealed(endpoint, box), kept);
    },
  };
}

/** The stores with the event store's webhook signing secrets sealed by `box`. */
export function withSealedSecrets(stores: Stores, box: SecretBox): Stores {
  return { ...stores, eventStore: sealedEventStore(stores.eventStore, box) };
}

/**
 * Rewrites every endpoint whose secrets are not as `box` seals them now (kept plain, sealed under
 * a previous key, or sealed while the gateway now has no key), each only if unchanged since read,
 * so a rotation made meanwhile by another gateway is never undone. Throws when a secret does not
 * open (its key is not given). How many endpoints there are, and how many were rewritten.
 */
export async function resealSecrets(inner: EventStore, box: SecretBox): Promise<{ endpoints: number; resealed: number }> {
  let endpoints = 0;
  let resealed = 0;
  let cursor: string | undefined;
  do {
    const page = await inner.listEventAccounts({ cursor, limit: 100 });
    // A page's accounts read at once: on Redis one round trip's wait for a hundred accounts.
    for (const kept of (await Promise.all(page.items.map((accountId) => inner.listEndpoints(accountId)))).flat()) {
      endpoints += 1;
      const plain = opened(kept, box);
      if (stale(kept, box) && (await inner.putEndpoint(sealed(plain, box), kept))) resealed += 1;
    }
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return { endpoints, resealed };
}
