import { createLegacyKeyStore } from '../key-store';
import type { Stores } from '../stores';
import { memoryParts } from './account-state';
import type { MemoryAccountState, MemoryAccountsPersistence } from './account-state';
import type { Counter } from './counters';
import { createMemoryAccountStore } from './memory-account-store';
import { createMemoryBillingStore } from './memory-billing';
import { createMemoryEventStore } from './memory-events';
import type { MemoryEventPersistence, MemoryEventState } from './memory-events';
import { createMemoryQuotaStore } from './memory-quota-store';
import { createMemorySessionStore } from './memory-sessions';
import { createMemoryAuditLog } from './memory-audit-log';
import { createMemoryTeamStore } from './memory-teams';
import type { MemoryTeamPersistence, MemoryTeamState } from './memory-teams';

/** Options of {@link createMemoryStores}. */
export interface MemoryStoresOptions {
  clock: () => number;
  generateKey?: (accountId: string) => string;
  newAccountId?: () => string;
  /** Counters to start from (and keep changing), by name; unset: empty. */
  counters?: Map<string, Counter>;
  /** The account store's state to start from; unset: empty. */
  accountState?: MemoryAccountState;
  /** Told of every change, for a store that writes the state through to disk (the SQLite store). */
  persistence?: MemoryStoresPersistence;
  /** The event store's state to start from, and what is told of its changes (the SQLite store). */
  eventState?: MemoryEventState;
  eventPersistence?: MemoryEventPersistence;
  /** The team store's state to start from, and what is told of its changes (the SQLite store). */
  teamState?: MemoryTeamState;
  teamPersistence?: MemoryTeamPersistence;
  /** What {@link Stores.kind} says; 'memory' unless set. */
  kind?: Stores['kind'];
}

/** The account store's hooks, plus one for counters. */
export interface MemoryStoresPersistence extends MemoryAccountsPersistence {
  /** A counter changed or was dropped (may be written later). */
  counter(name: string): void;
}

/**
 * Key and quota stores held in this process: the same rules as Redis, for one gateway process
 * without Redis. Lost on restart, unless a `persistence` writes the counters and account state
 * through to disk (the SQLite store).
 */
export function createMemoryStores(options: MemoryStoresOptions): Stores {
  const { clock } = options;
  const persist = options.persistence;
  const revocationListeners: ((id: string) => void)[] = [];
  const parts = memoryParts({
    clock,
    newAccountId: options.newAccountId,
    generateKey: options.generateKey,
    state: options.accountState,
    persistence: persist,
    revoked: (id) => {
      for (const listener of revocationListeners) listener(id);
    },
  });
  const accountStore = createMemoryAccountStore(parts);
  const quotaStore = createMemoryQuotaStore({
    clock,
    counters: options.counters ?? new Map<string, Counter>(),
    counterChanged: persist && ((name) => persist.counter(name)),
    admissionState: accountStore.admissionState,
    revocationListeners,
  });
  return {
    accountStore,
    keyStore: createLegacyKeyStore(accountStore),
    quotaStore,
    sessionStore: createMemorySessionStore(clock),
    billingStore: createMemoryBillingStore(parts),
    auditLog: createMemoryAuditLog(clock),
    eventStore: createMemoryEventStore({ clock, state: options.eventState, persist: options.eventPersistence, accountExists: (accountId) => parts.accounts.has(accountId) }),
    teamStore: createMemoryTeamStore({ clock, state: options.teamState, persist: options.teamPersistence }),
    kind: options.kind ?? 'memory',
  };
}
