import type Database from 'better-sqlite3';
import { dayWindow } from '../../domain/windows';
import { checkCounterNames, checkStep, linkStep, putStep } from '../code-slots';
import { KEEP_AFTER_END_SECONDS, attemptWindow } from '../session-store';
import type { CheckLimits, CodeCheck, LinkCheck, PutCode, Session, SessionStore, StoredCode } from '../session-store';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS sessions (hash TEXT PRIMARY KEY, record TEXT NOT NULL, drop_at_ms INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS sessions_by_account ON sessions (json_extract(record, '$.account_id'), json_extract(record, '$.created_at'));
DROP TABLE IF EXISTS codes;
CREATE TABLE IF NOT EXISTS sign_in_codes (subject TEXT NOT NULL, slot TEXT NOT NULL, hash TEXT NOT NULL, token_hash TEXT NOT NULL, expires_at_ms INTEGER NOT NULL, tries INTEGER NOT NULL, PRIMARY KEY (subject, slot)) WITHOUT ROWID;
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
  const touchSession = db.prepare("UPDATE sessions SET record = json_set(record, '$.last_seen_at', ?) WHERE hash = ?");
  // Read through the index on the account (an expression index: rows made before it need no change).
  const sessionsOf = db.prepare("SELECT hash, record FROM sessions WHERE json_extract(record, '$.account_id') = ? AND drop_at_ms > ? ORDER BY json_extract(record, '$.created_at'), hash");
  const putCode = db.prepare('INSERT OR REPLACE INTO sign_in_codes (subject, slot, hash, token_hash, expires_at_ms, tries) VALUES (?, ?, ?, ?, ?, ?)');
  const CODE_FIELDS = 'hash, token_hash AS tokenHash, expires_at_ms AS expiresAtMs, tries';
  const codesOf = db.prepare(`SELECT slot, ${CODE_FIELDS} FROM sign_in_codes WHERE subject = ?`);
  const codeOf = db.prepare(`SELECT ${CODE_FIELDS} FROM sign_in_codes WHERE subject = ? AND slot = ?`);
  const deleteCode = db.prepare('DELETE FROM sign_in_codes WHERE subject = ? AND slot = ?');
  const setTries = db.prepare('UPDATE sign_in_codes SET tries = ? WHERE subject = ? AND slot = ?');
  const counted = db.prepare('SELECT count FROM sign_in_attempts WHERE name = ?');
  const countAttempt = db.prepare('INSERT INTO sign_in_attempts (name, count, end_ms) VALUES (?, 1, ?) ON CONFLICT(name) DO UPDATE SET count = count + 1 RETURNING count');
  const sweepAll = db.transaction((nowMs: number) => {
    db.prepare('DELETE FROM sessions WHERE drop_at_ms <= ?').run(nowMs);
    db.prepare('DELETE FROM sign_in_codes WHERE expires_at_ms + ? <= ?').run(keepMs, nowMs);
    db.prepare('DELETE FROM sign_in_attempts WHERE end_ms <= ?').run(nowMs);
  });
  let writes = 0;
  const sweep = (): void => {
    if (++writes % SWEEP_EVERY === 0) sweepAll(clock());
  };
  const slotsOf = (subject: string): [string, StoredCode][] => (codesOf.all(subject) as (StoredCode & { slot: string })[]).map(({ slot, ...code }) => [slot, code]);
  const countOf = (name: string): number => (counted.get(name) as { count: number } | undefined)?.count ?? 0;
  // Each step reads and writes the subject's codes in one transaction: concurrent requests share the limits.
  const put = db.transaction((subject: string, slot: string, code: StoredCode, maxLive: number, nowMs: number): PutCode => {
    const step = putStep(slotsOf(subject), slot, nowMs, maxLive);
    for (const name of step.gone) deleteCode.run(subject, name);
    if (step.freeAtMs !== undefined) return { stored: false, freeAtMs: step.freeAtMs };
    putCode.run(subject, slot, code.hash, code.tokenHash, code.expiresAtMs, code.tries);
    return { stored: true };
  });
  const check = db.transaction((subject: string, slot: string, hash: string, nowMs: number, limits: CheckLimits): CodeCheck => {
    const day = dayWindow(nowMs);
    const names = checkCounterNames(subject, slot, day.id);
    const step = checkStep(codeOf.get(subject, slot) as StoredCode | undefined, hash, nowMs, { slot: countOf(names.slot), subject: countOf(names.subject) }, limits);
    if (step.count) for (const name of [names.slot, names.subject]) countAttempt.get(name, day.endMs);
    if (step.after === null) deleteCode.run(subject, slot);
    else if (step.after) setTries.run(step.after.tries, subject, slot);
    return step.result;
  });
  const link = db.transaction((subject: string, tokenHash: string, nowMs: number): LinkCheck => {
    const step = linkStep(slotsOf(subject), tokenHash, nowMs);
    if (step.slot !== undefined) deleteCode.run(subject, step.slot);
    return step.result;
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
    async touchSession(tokenHash, lastSeenAt) {
      touchSession.run(lastSeenAt, tokenHash);
    },
    async listSessions(accountId) {
      return (sessionsOf.all(accountId, clock()) as { hash: string; record: string }[]).map((row) => ({ tokenHash: row.hash, session: JSON.parse(row.record) as Session }));
    },
    async putCode(subject, slot, code, { maxLive, nowMs }) {
      sweep();
      return put(subject, slot, code, maxLive, nowMs);
    },
    checkCode: async (subject, slot, hash, nowMs, limits) => check(subject, slot, hash, nowMs, limits),
    useLink: async (subject, tokenHash, nowMs) => link(subject, tokenHash, nowMs),
    async countAttempt(subject, nowMs, window = 'hour') {
      sweep();
      const w = attemptWindow(window, nowMs);
      return (countAttempt.get(`${subject}|${w.id}`, w.endMs) as { count: number }).count;
    },
    async readAttempts(subject, nowMs, window = 'hour') {
      return countOf(`${subject}|${attemptWindow(window, nowMs).id}`);
    },
  };
}
