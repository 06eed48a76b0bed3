import type Database from 'better-sqlite3';
import { KEEP_AFTER_END_SECONDS, attemptWindow } from '../session-store';
import type { CodeCheck, Session, SessionStore } from '../session-store';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS sessions (hash TEXT PRIMARY KEY, record TEXT NOT NULL, drop_at_ms INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS codes (subject TEXT PRIMARY KEY, hash TEXT NOT NULL, expires_at_ms INTEGER NOT NULL, tries INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sign_in_attempts (name TEXT PRIMARY KEY, count INTEGER NOT NULL, end_ms INTEGER NOT NULL) WITHOUT ROWID;
`;

// Lapsed rows are deleted every this many writes.
const SWEEP_EVERY = 500;

/**
 * Sessions, codes and sign-in counters in the embedded store's file, read and written directly
 * (no copy in memory): sessions survive a restart. Sign-ins are rare; each write is its own commit.
 */
export function createSqliteSessionStore(db: Database.Database, clock: () => number): SessionStore {
  db.exec(SCHEMA);
  const keepMs = KEEP_AFTER_END_SECONDS * 1000;
  const putSession = db.prepare('INSERT OR REPLACE INTO sessions (hash, record, drop_at_ms) VALUES (?, ?, ?)');
  const getSession = db.prepare('SELECT record FROM sessions WHERE hash = ? AND drop_at_ms > ?');
  const deleteSession = db.prepare('DELETE FROM sessions WHERE hash = ?');
  const putCode = db.prepare('INSERT OR REPLACE INTO codes (subject, hash, expires_at_ms, tries) VALUES (?, ?, ?, ?)');
  const getCode = db.prepare('SELECT hash, expires_at_ms, tries FROM codes WHERE subject = ?');
  const deleteCode = db.prepare('DELETE FROM codes WHERE subject = ?');
  const spendTry = db.prepare('UPDATE codes SET tries = tries - 1 WHERE subject = ?');
  const countAttempt = db.prepare('INSERT INTO sign_in_attempts (name, count, end_ms) VALUES (?, 1, ?) ON CONFLICT(name) DO UPDATE SET count = count + 1 RETURNING count');
  const sweepAll = db.transaction((nowMs: number) => {
    db.prepare('DELETE FROM sessions WHERE drop_at_ms <= ?').run(nowMs);
    db.prepare('DELETE FROM codes WHERE expires_at_ms + ? <= ?').run(keepMs, nowMs);
    db.prepare('DELETE FROM sign_in_attempts WHERE end_ms <= ?').run(nowMs);
  });
  let writes = 0;
  const sweep = (): void => {
    if (++writes % SWEEP_EVERY === 0) sweepAll(clock());
  };
  // A check and its try in one transaction: concurrent guesses share the tries.
  const check = db.transaction((subject: string, hash: string, nowMs: number): CodeCheck => {
    const row = getCode.get(subject) as { hash: string; expires_at_ms: number; tries: number } | undefined;
    if (!row || row.expires_at_ms + keepMs <= nowMs) return { outcome: 'none' };
    if (row.expires_at_ms <= nowMs) return { outcome: 'expired' };
    if (row.hash === hash) {
      deleteCode.run(subject);
      return { outcome: 'ok' };
    }
    const left = row.tries - 1;
    if (left <= 0) deleteCode.run(subject);
    else spendTry.run(subject);
    return { outcome: 'wrong', triesLeft: Math.max(0, left) };
  });

  return {
    async putSession(tokenHash, session) {
      sweep();
      putSession.run(tokenHash, JSON.stringify(session), Date.parse(session.expires_at) + keepMs);
    },
    async getSession(tokenHash) {
      const row = getSession.get(tokenHash, clock()) as { record: string } | undefined;
      return row ? (JSON.parse(row.record) as Session) : undefined;
    },
    async deleteSession(tokenHash) {
      deleteSession.run(tokenHash);
    },
    async putCode(subject, code) {
      sweep();
      putCode.run(subject, code.hash, code.expiresAtMs, code.tries);
    },
    checkCode: async (subject, hash, nowMs) => check(subject, hash, nowMs),
    async countAttempt(subject, nowMs, window = 'hour') {
      sweep();
      const w = attemptWindow(window, nowMs);
      return (countAttempt.get(`${subject}|${w.id}`, w.endMs) as { count: number }).count;
    },
  };
}
