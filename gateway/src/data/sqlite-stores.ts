import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import type { SecretEntry } from '../domain/admission';
import type { Account } from './account-store';
import { emptyAccountState } from './memory-accounts';
import type { HistoryEntry, MemoryAccountState, StoredKey } from './memory-accounts';
import { createMemoryStores } from './memory-stores';
import type { Counter, MemoryStoresOptions } from './memory-stores';
import type { Stores } from './quota-store';
import { createSqliteSessionStore } from './sqlite-sessions';

/** Options of {@link openSqliteStores}. */
export interface SqliteStoresOptions extends Omit<MemoryStoresOptions, 'counters' | 'accountState' | 'persistence' | 'kind'> {
  /** The database file; its directory is made when missing. */
  path: string;
  /** How often counters, usage history and keys' last use are written (ms); 1000 unless set. */
  flushEveryMs?: number;
  /** Told when a timed write fails (the disk is full, say); what it held is written with the next one. */
  onFlushError?: (err: Error) => void;
}

/** The SQLite stores, and how to write everything still pending and close the file. */
export interface SqliteStores {
  stores: Stores;
  /** Writes the counters, history and last uses changed since the last write (done every second by itself). */
  flush(): void;
  /** Flushes, then closes the file; the stores must not be used after. */
  close(): void;
}

/** The file is held by another process: the one-line reason a second gateway refuses to start. */
export class StoreInUseError extends Error {
  constructor(file: string) {
    super(`STORE_PATH ${file} is in use by another gateway process (one process per store file): stop that one, or set STORE_PATH to another file`);
    this.name = 'StoreInUseError';
  }
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS accounts (id TEXT PRIMARY KEY, record TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS keys (
  id TEXT PRIMARY KEY, record TEXT NOT NULL,
  hash TEXT NOT NULL, entry TEXT NOT NULL,
  previous_hash TEXT, previous_entry TEXT
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL, expires_at_ms INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS history (name TEXT PRIMARY KEY, counts TEXT NOT NULL, expires_at_ms INTEGER NOT NULL) WITHOUT ROWID;
`;

interface KeyRow {
  id: string;
  record: string;
  hash: string;
  entry: string;
  previous_hash: string | null;
  previous_entry: string | null;
}

/** Opens the file for this process alone (a second opener gets {@link StoreInUseError}) and makes the tables. */
// Loaded when a store file is opened, not with this module: a gateway on Redis (the containers,
// built without install scripts) never needs the native binding.
function loadSqlite(): typeof Database {
  try {
    return createRequire(__filename)('better-sqlite3') as typeof Database;
  } catch (err) {
    throw new Error(`the embedded store needs better-sqlite3's native binding, which this install lacks (${(err as Error).message.split('\n')[0]}); set REDIS_URL, or run pnpm rebuild better-sqlite3`, { cause: err });
  }
}

function openDatabase(file: string): Database.Database {
  mkdirSync(path.dirname(file), { recursive: true });
  const Sqlite = loadSqlite();
  const db = new Sqlite(file, { timeout: 0 });
  try {
    // Exclusive before WAL: no shared-memory index, and the lock taken by the first write below is
    // held until close, so no other process can read or write the file meanwhile.
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = WAL');
    // FULL: a commit is on disk (fsync) before an account or key is answered as created, through
    // power loss too. Those writes are rare; counters are written once a second, off the call path.
    db.pragma('synchronous = FULL');
    db.exec(`BEGIN IMMEDIATE; ${SCHEMA} COMMIT;`);
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY')) throw new StoreInUseError(file);
    throw err;
  }
  return db;
}

/** Everything in the file, as the memory stores hold it; lapsed counters and history are skipped. */
function load(db: Database.Database, nowMs: number): { accountState: MemoryAccountState; counters: Map<string, Counter> } {
  const state = emptyAccountState();
  for (const row of db.prepare('SELECT record FROM accounts').all() as { record: string }[]) {
    const account = JSON.parse(row.record) as Account;
    // Written before proofs existed: such an account counts as proven.
    account.email_verified ??= true;
    state.accounts.set(account.id, account);
    if (account.email !== null) state.emails.set(account.email, account.id);
  }
  for (const row of db.prepare('SELECT * FROM keys').all() as KeyRow[]) {
    const stored: StoredKey = { record: JSON.parse(row.record) as StoredKey['record'], hash: row.hash };
    state.secrets.set(row.hash, JSON.parse(row.entry) as SecretEntry);
    if (row.previous_hash !== null && row.previous_entry !== null) {
      stored.previousHash = row.previous_hash;
      state.secrets.set(row.previous_hash, JSON.parse(row.previous_entry) as SecretEntry);
    }
    state.keys.set(row.id, stored);
  }
  for (const row of db.prepare('SELECT * FROM history WHERE expires_at_ms > ?').all(nowMs) as { name: string; counts: string; expires_at_ms: number }[]) {
    state.history.set(row.name, { counts: new Map(Object.entries(JSON.parse(row.counts) as Record<string, number>)), expiresAtMs: row.expires_at_ms });
  }
  const counters = new Map<string, Counter>();
  for (const row of db.prepare('SELECT * FROM counters WHERE expires_at_ms > ?').all(nowMs) as { name: string; value: number; expires_at_ms: number }[]) {
    counters.set(row.name, { value: row.value, expiresAtMs: row.expires_at_ms });
  }
  db.prepare('DELETE FROM counters WHERE expires_at_ms <= ?').run(nowMs);
  db.prepare('DELETE FROM history WHERE expires_at_ms <= ?').run(nowMs);
  return { accountState: state, counters };
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
  const { accountState, counters } = load(db, options.clock());
  const { accounts, keys, secrets, history } = accountState;

  const putAccount = db.prepare('INSERT OR REPLACE INTO accounts (id, record) VALUES (?, ?)');
  const putKey = db.prepare('INSERT OR REPLACE INTO keys (id, record, hash, entry, previous_hash, previous_entry) VALUES (?, ?, ?, ?, ?, ?)');
  const putCounter = db.prepare('INSERT OR REPLACE INTO counters (name, value, expires_at_ms) VALUES (?, ?, ?)');
  const dropCounter = db.prepare('DELETE FROM counters WHERE name = ?');
  const putHistory = db.prepare('INSERT OR REPLACE INTO history (name, counts, expires_at_ms) VALUES (?, ?, ?)');
  const dropHistory = db.prepare('DELETE FROM history WHERE name = ?');

  const writeKey = (keyId: string): void => {
    const stored = keys.get(keyId);
    if (!stored) return;
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
    persistence: {
      account: (id) => void putAccount.run(id, JSON.stringify(accounts.get(id))),
      key: writeKey,
      keyUsed: (keyId) => void dirtyKeys.add(keyId),
      history: (name) => void dirtyHistory.add(name),
      counter: (name) => void dirtyCounters.add(name),
    },
  });
  // Sessions straight to the file (no copy in memory): a portal sign-in survives a restart.
  const stores: Stores = { ...memoryStores, sessionStore: createSqliteSessionStore(db, options.clock) };
  const timer = setInterval(() => {
    try {
      flush();
    } catch (err) {
      options.onFlushError?.(err as Error);
    }
  }, options.flushEveryMs ?? 1_000);
  timer.unref();
  return {
    stores,
    flush,
    close() {
      if (!open) return;
      clearInterval(timer);
      flush();
      open = false;
      db.close();
    },
  };
}
