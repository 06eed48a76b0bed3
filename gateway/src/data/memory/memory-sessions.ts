import { KEEP_AFTER_END_SECONDS, attemptWindow } from '../session-store';
import type { Session, SessionStore, StoredCode } from '../session-store';

// Lapsed records are dropped every this many writes, so a long-running process stays small.
const SWEEP_EVERY = 1_000;

/** Sessions, codes and sign-in counters in this process: lost on restart (the SQLite and Redis stores keep them). */
export function createMemorySessionStore(clock: () => number): SessionStore {
  const sessions = new Map<string, Session>();
  const codes = new Map<string, StoredCode>();
  const attempts = new Map<string, { count: number; endMs: number }>();
  let writes = 0;
  const keep = KEEP_AFTER_END_SECONDS * 1000;
  const sweep = (): void => {
    if (++writes % SWEEP_EVERY !== 0) return;
    const nowMs = clock();
    for (const [k, s] of sessions) if (Date.parse(s.expires_at) + keep <= nowMs) sessions.delete(k);
    for (const [k, c] of codes) if (c.expiresAtMs + keep <= nowMs) codes.delete(k);
    for (const [k, a] of attempts) if (a.endMs <= nowMs) attempts.delete(k);
  };

  return {
    async putSession(tokenHash, session) {
      sweep();
      sessions.set(tokenHash, { ...session });
    },
    async getSession(tokenHash) {
      const session = sessions.get(tokenHash);
      if (!session || Date.parse(session.expires_at) + keep <= clock()) return undefined;
      return { ...session };
    },
    async deleteSession(tokenHash) {
      sessions.delete(tokenHash);
    },
    async putCode(subject, code) {
      sweep();
      codes.set(subject, { ...code });
    },
    async checkCode(subject, hash, nowMs) {
      const code = codes.get(subject);
      if (!code || code.expiresAtMs + keep <= nowMs) return { outcome: 'none' };
      if (code.expiresAtMs <= nowMs) return { outcome: 'expired' };
      if (code.hash === hash) {
        codes.delete(subject);
        return { outcome: 'ok' };
      }
      code.tries -= 1;
      if (code.tries <= 0) codes.delete(subject);
      return { outcome: 'wrong', triesLeft: Math.max(0, code.tries) };
    },
    async countAttempt(subject, nowMs, window = 'hour') {
      sweep();
      const w = attemptWindow(window, nowMs);
      const name = `${subject}|${w.id}`;
      const entry = attempts.get(name) ?? { count: 0, endMs: w.endMs };
      entry.count += 1;
      attempts.set(name, entry);
      return entry.count;
    },
  };
}
