import type Database from 'better-sqlite3';
import { AUDIT_RETENTION_DAYS } from '../audit-log';
import type { AuditEntry, AuditLog } from '../audit-log';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS audit (seq INTEGER PRIMARY KEY AUTOINCREMENT, account_id TEXT, at_ms INTEGER NOT NULL, entry TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS audit_by_account ON audit (account_id, seq);
`;

// Entries past the retention are deleted every this many appends.
const SWEEP_EVERY = 500;
const LAST = Number.MAX_SAFE_INTEGER;

/**
 * The audit log in the embedded store's file, read and written directly (no copy in memory): an
 * entry is on disk, with the change it records, before the change is answered.
 */
export function createSqliteAuditLog(db: Database.Database, clock: () => number): AuditLog {
  db.exec(SCHEMA);
  const insert = db.prepare('INSERT INTO audit (account_id, at_ms, entry) VALUES (?, ?, ?)');
  const page = {
    all: { newest: db.prepare('SELECT seq, entry FROM audit WHERE seq < ? ORDER BY seq DESC LIMIT ?'), oldest: db.prepare('SELECT seq, entry FROM audit WHERE seq > ? ORDER BY seq LIMIT ?') },
    account: {
      newest: db.prepare('SELECT seq, entry FROM audit WHERE account_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?'),
      oldest: db.prepare('SELECT seq, entry FROM audit WHERE account_id = ? AND seq > ? ORDER BY seq LIMIT ?'),
    },
  };
  const sweep = db.prepare('DELETE FROM audit WHERE at_ms < ?');
  let appends = 0;
  return {
    async append(input) {
      const nowMs = clock();
      const at = new Date(nowMs).toISOString();
      const { lastInsertRowid } = insert.run(input.account_id, nowMs, JSON.stringify({ at, ...input }));
      if (++appends % SWEEP_EVERY === 0) sweep.run(nowMs - AUDIT_RETENTION_DAYS * 86_400_000);
      return { id: String(lastInsertRowid), at, ...structuredClone(input) };
    },
    async list({ accountId, cursor, limit, oldestFirst = false }) {
      const parsed = cursor === undefined ? Number.NaN : Number(cursor);
      const from = Number.isInteger(parsed) ? parsed : oldestFirst ? 0 : LAST;
      const statement = page[accountId === undefined ? 'all' : 'account'][oldestFirst ? 'oldest' : 'newest'];
      const args = accountId === undefined ? [from, limit + 1] : [accountId, from, limit + 1];
      const rows = statement.all(...args) as { seq: number; entry: string }[];
      const items = rows.slice(0, limit).map((row) => ({ id: String(row.seq), ...(JSON.parse(row.entry) as Omit<AuditEntry, 'id'>) }));
      return { items, next_cursor: rows.length > limit ? items.at(-1)!.id : null };
    },
  };
}
