import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import type { SecretEntry } from '../../domain/admission';
import type { Account } from '../account-store';
import type { AccountBilling } from '../billing-store';
import { emptyAccountState } from '../memory/account-state';
import type { BillingEvent, MemoryAccountState, StoredKey } from '../memory/account-state';
import type { Counter } from '../memory/counters';

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
CREATE TABLE IF NOT EXISTS billing (account_id TEXT PRIMARY KEY, record TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS billing_events (id TEXT PRIMARY KEY, state TEXT NOT NULL, expires_at_ms INTEGER NOT NULL) WITHOUT ROWID;
`;

interface KeyRow {
  id: string;
  record: string;
  hash: string;
  entry: string;
  previous_hash: string | null;
  previous_entry: string | null;
}

// Loaded when a store file is opened, not with this module: a gateway on Redis (the containers,
// built without install scripts) never needs the native binding.
function loadSqlite(): typeof Database {
  try {
    return createRequire(__filename)('better-sqlite3') as typeof Database;
  } catch (err) {
    throw new Error(`the embedded store needs better-sqlite3's native binding, which this install lacks (${(err as Error).message.split('\n')[0]}); set REDIS_URL, or run pnpm rebuild better-sqlite3`, { cause: err });
  }
}

/**
 * The store file (made 0600 when missing) and what SQLite keeps beside it are for this user alone:
 * it holds accounts, key hashes and webhook signing secrets, as the admin token beside it does. A
 * copy left readable by others (0644, made before issue 35) is tightened. SQLite makes the WAL,
 * shared-memory and journal files with the database file's mode, so they follow.
 */
function keepPrivate(file: string): void {
  const folder = path.dirname(file);
  // A folder the gateway makes is its own (0700); one the operator made is left as it is.
  if (!existsSync(folder)) mkdirSync(folder, { recursive: true, mode: 0o700 });
  closeSync(openSync(file, 'a', 0o600));
  for (const part of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    if (!existsSync(part) || (statSync(part).mode & 0o077) === 0) continue;
    try {
      chmodSync(part, 0o600);
    } catch (err) {
      throw new Error(`${part} is readable by other users and could not be made 0600 (${(err as Error).message}): chmod 600 it, or run the gateway as its owner`, { cause: err });
    }
  }
}

/** Opens the file for this process alone (a second opener gets {@link StoreInUseError}) and makes the tables. */
export function openDatabase(file: string): Database.Database {
  keepPrivate(file);
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
    // What is deleted or replaced (a rotated signing secret, an erased account) is overwritten, not
    // left in free space for a copy of the file to give away.
    db.pragma('secure_delete = ON');
    db.exec(`BEGIN IMMEDIATE; ${SCHEMA} COMMIT;`);
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY')) throw new StoreInUseError(file);
    throw err;
  }
  return db;
}

/** Everything in the file, as the memory stores hold it; lapsed counters and history are skipped. */
export function loadState(db: Database.Database, nowMs: number): { accountState: MemoryAccountState; counters: Map<string, Counter> } {
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
    // Written before teams: nobody is named as its maker.
    stored.record.created_by ??= null;
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
  for (const row of db.prepare('SELECT * FROM billing').all() as { account_id: string; record: string }[]) {
    const billing = JSON.parse(row.record) as AccountBilling;
    state.billing.set(row.account_id, billing);
    for (const customerId of Object.values(billing.customers)) state.customers.set(customerId, row.account_id);
  }
  for (const row of db.prepare('SELECT * FROM billing_events WHERE expires_at_ms > ?').all(nowMs) as { id: string; state: BillingEvent['state']; expires_at_ms: number }[]) {
    state.events.set(row.id, { state: row.state, expiresAtMs: row.expires_at_ms });
  }
  db.prepare('DELETE FROM billing_events WHERE expires_at_ms <= ?').run(nowMs);
  const counters = new Map<string, Counter>();
  for (const row of db.prepare('SELECT * FROM counters WHERE expires_at_ms > ?').all(nowMs) as { name: string; value: number; expires_at_ms: number }[]) {
    counters.set(row.name, { value: row.value, expiresAtMs: row.expires_at_ms });
  }
  db.prepare('DELETE FROM counters WHERE expires_at_ms <= ?').run(nowMs);
  db.prepare('DELETE FROM history WHERE expires_at_ms <= ?').run(nowMs);
  return { accountState: state, counters };
}
