import path from 'node:path';
import type { HistoryEntry } from '../memory/account-state';
import { createMemoryStores } from '../memory/memory-stores';
import type { MemoryStoresOptions } from '../memory/memory-stores';
import type { Stores } from '../stores';
import { createBackgroundLoops } from '../background-loop';
import type { BackgroundLoops } from '../background-loop';
import { loadState, openDatabase } from './sqlite-file';
import { openSqliteEvents } from './sqlite-events';
import { openSqliteTeams } from './sqlite-teams';
import { createSqliteSessionStore } from './sqlite-sessions';
import { createSqliteAuditLog } from './sqlite-audit-log';

/** Options of {@link openSqliteStores}. */
export interface SqliteStoresOptions extends Omit<MemoryStoresOptions, 'counters' | 'accountState' | 'persistence' | 'kind'> {
  /** The database file; its directory is made when missing. */
  path: string;
  /** How often counters, usage history and keys' last use are written (ms); 1000 unless set. */
  flushEveryMs?: number;
  /** Where the timed write runs (a failure, the disk full say, logged and counted; what it held is written with the next); unset: a registry of its own. */
  loops?: BackgroundLoops;
}

/** The SQLite stores, and how to write everything still pending and close the file. */
export interface SqliteStores {
  stores: Stores;
  /** Writes the counters, history and last uses changed since the last write (done every second by itself). */
  flush(): void;
  /** Flushes, then closes the file; the stores must not be used after. */
  close(): void;
}

/**
 * The memory stores, written through to an SQLite file: accounts and keys (records and secrets)
 * before each change resolves; counters, usage history and keys' last use at most once a
 * `flushEveryMs` and on close. Everything is read back into memory at open, so a call is admitted
 * as by the memory store, plus a counter marked for writing.
 */
export function openSqliteStores(options: SqliteStoresOptions): SqliteStores {
  const file = path.resolve(options.path);
  const db = openDatabase(file);
  const { accountState, counters } = loadState(db, options.clock());
  const { accounts, keys, secrets, history, billing, events } = accountState;
  const eventFile = openSqliteEvents(db, options.clock());
  const teamFile = openSqliteTeams(db);

  const putAccount = db.prepare('INSERT OR REPLACE INTO accounts (id, record) VALUES (?, ?)');
  const putKey = db.prepare('INSERT OR REPLACE INTO keys (id, record, hash, entry, previous_hash, previous_entry) VALUES (?, ?, ?, ?, ?, ?)');
  const putCounter = db.prepare('INSERT OR REPLACE INTO counters (name, value, expires_at_ms) VALUES (?, ?, ?)');
  const dropCounter = db.prepare('DELETE FROM counters WHERE name = ?');
  const putHistory = db.prepare('INSERT OR REPLACE INTO history (name, counts, expires_at_ms) VALUES (?, ?, ?)');
  const dropHistory = db.prepare('DELETE FROM history WHERE name = ?');
  const putBilling = db.prepare('INSERT OR REPLACE INTO billing (account_id, record) VALUES (?, ?)');
  // An erased account's rows go with it (account-store.ts deleteAccount).
  const dropAccount = db.prepare('DELETE FROM accounts WHERE id = ?');
  const dropKey = db.prepare('DELETE FROM keys WHERE id = ?');
  const dropBilling = db.prepare('DELETE FROM billing WHERE account_id = ?');
  const writeAccount = (id: string): void => {
    const account = accounts.get(id);
    if (account) putAccount.run(id, JSON.stringify(account));
    else dropAccount.run(id);
  };
  const putEvent = db.prepare('INSERT OR REPLACE INTO billing_events (id, state, expires_at_ms) VALUES (?, ?, ?)');
  const dropEvent = db.prepare('DELETE FROM billing_events WHERE id = ?');
  // A billing change and the subscription admission reads are one transaction: a crash keeps both or neither.
  const writeBilling = db.transaction((accountId: string, withAccount: boolean) => {
    const record = billing.get(accountId);
    if (record) putBilling.run(accountId, JSON.stringify(record));
    else dropBilling.run(accountId);
    if (withAccount) writeAccount(accountId);
  });

  const writeKey = (keyId: string): void => {
    const stored = keys.get(keyId);
    if (!stored) {
      dropKey.run(keyId);
      return;
    }
    const previous = stored.previousHash === undefined ? undefined : secrets.get(stored.previousHash);
    putKey.run(keyId, JSON.stringify(stored.record), stored.hash, JSON.stringify(secrets.get(stored.hash)), previous ? stored.previousHash : null, previous ? JSON.stringify(previous) : null);
  };
  const dirtyCounters = new Set<string>();
  const dirtyHistory = new Set<string>();
  const dirtyKeys = new Set<string>();

  const flushNow = db.transaction((nowMs: number) => {
    for (const name of dirtyCounters) {
      const counter = counters.get(name);
      if (counter && counter.expiresAtMs > nowMs) putCounter.run(name, counter.value, counter.expiresAtMs);
      else dropCounter.run(name);
    }
    for (const name of dirtyHistory) {
      const day: HistoryEntry | undefined = history.get(name);
      if (day) putHistory.run(name, JSON.stringify(Object.fromEntries(day.counts)), day.expiresAtMs);
      else dropHistory.run(name);
    }
    for (const keyId of dirtyKeys) writeKey(keyId);
  });
  let open = true;
  const flush = (): void => {
    if (!open || (dirtyCounters.size === 0 && dirtyHistory.size === 0 && dirtyKeys.size === 0)) return;
    flushNow(options.clock());
    dirtyCounters.clear();
    dirtyHistory.clear();
    dirtyKeys.clear();
  };

  const memoryStores = createMemoryStores({
    clock: options.clock,
    generateKey: options.generateKey,
    newAccountId: options.newAccountId,
    kind: 'sqlite',
    counters,
    accountState,
    eventState: eventFile.state,
    eventPersistence: eventFile.persist,
    teamState: teamFile.state,
    teamPersistence: teamFile.persist,
    persistence: {
      account: writeAccount,
      key: writeKey,
      keyUsed: (keyId) => void dirtyKeys.add(keyId),
      history: (name) => void dirtyHistory.add(name),
      counter: (name) => void dirtyCounters.add(name),
      billing: (accountId, withAccount) => void writeBilling(accountId, withAccount),
      event: (eventId) => {
        const event = events.get(eventId);
        if (event) putEvent.run(eventId, event.state, event.expiresAtMs);
        else dropEvent.run(eventId);
      },
    },
  });
  // Sessions and the audit log straight to the file (no copy in memory): they survive a restart.
  const stores: Stores = { ...memoryStores, sessionStore: createSqliteSessionStore(db, options.clock), auditLog: createSqliteAuditLog(db, options.clock) };
  const loops = options.loops ?? createBackgroundLoops({ clock: options.clock });
  const loop = loops.create({ name: 'sqlite_write', everyMs: options.flushEveryMs ?? 1_000, maxBackoffMs: 5_000, job: flush, failure: 'call counts and history are held in memory and written to the store file with the next run' });
  loop.start();
  return {
    stores,
    flush,
    close() {
      if (!open) return;
      void loop.stop();
      flush();
      open = false;
      db.close();
    },
  };
}
