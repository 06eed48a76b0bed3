import { dayWindow } from '../../domain/windows';
import { checkCounterNames, checkStep, codeGone, linkStep, putStep } from '../code-slots';
import { KEEP_AFTER_END_SECONDS, attemptWindow } from '../session-store';
import type { Session, SessionStore, StoredCode } from '../session-store';

// Lapsed records are dropped every this many writes, so a long-running process stays small.
const SWEEP_EVERY = 1_000;

/** Sessions, codes and sign-in counters in this process: lost on restart (the SQLite and Redis stores keep them). */
export function createMemorySessionStore(clock: () => number): SessionStore {
  const sessions = new Map<string, Session>();
  // Account → the hashes of its sessions, in the order they began.
  const byAccount = new Map<string, Set<string>>();
  const unindex = (tokenHash: string, session: Session): void => {
    const hashes = byAccount.get(session.account_id);
    if (hashes?.delete(tokenHash) && hashes.size === 0) byAccount.delete(session.account_id);
  };
  // Subject → slot → code.
  const codes = new Map<string, Map<string, StoredCode>>();
  const attempts = new Map<string, { count: number; endMs: number }>();
  let writes = 0;
  const bump = (name: string, endMs: number): number => {
    const entry = attempts.get(name) ?? { count: 0, endMs };
    entry.count += 1;
    attempts.set(name, entry);
    return entry.count;
  };
  const keep = KEEP_AFTER_END_SECONDS * 1000;
  const sweep = (): void => {
    if (++writes % SWEEP_EVERY !== 0) return;
    const nowMs = clock();
    for (const [k, s] of sessions) {
      if (Date.parse(s.expires_at) + keep > nowMs) continue;
      sessions.delete(k);
      unindex(k, s);
    }
    for (const [subject, slots] of codes) {
      for (const [slot, c] of slots) if (codeGone(c, nowMs)) slots.delete(slot);
      if (slots.size === 0) codes.delete(subject);
    }
    for (const [k, a] of attempts) if (a.endMs <= nowMs) attempts.delete(k);
  };

  return {
    async putSession(tokenHash, session) {
      sweep();
      sessions.set(tokenHash, { ...session });
      byAccount.set(session.account_id, (byAccount.get(session.account_id) ?? new Set<string>()).add(tokenHash));
    },
    async getSession(tokenHash) {
      const session = sessions.get(tokenHash);
      if (!session || Date.parse(session.expires_at) + keep <= clock()) return undefined;
      return { ...session };
    },
    async deleteSession(tokenHash) {
      const session = sessions.get(tokenHash);
      if (!session) return;
      sessions.delete(tokenHash);
      unindex(tokenHash, session);
    },
    async touchSession(tokenHash, lastSeenAt) {
      const session = sessions.get(tokenHash);
      if (session) session.last_seen_at = lastSeenAt;
    },
    async listSessions(accountId) {
      const nowMs = clock();
      return [...(byAccount.get(accountId) ?? [])].flatMap((tokenHash) => {
        const session = sessions.get(tokenHash);
        return session && Date.parse(session.expires_at) + keep > nowMs ? [{ tokenHash, session: { ...session } }] : [];
      }).sort((a, b) => a.session.created_at.localeCompare(b.session.created_at) || a.tokenHash.localeCompare(b.tokenHash));
    },
    async putCode(subject, slot, code, { maxLive, nowMs }) {
      sweep();
      const slots = codes.get(subject) ?? new Map<string, StoredCode>();
      const step = putStep(slots, slot, nowMs, maxLive);
      for (const name of step.gone) slots.delete(name);
      if (step.freeAtMs !== undefined) return { stored: false, freeAtMs: step.freeAtMs };
      slots.set(slot, { ...code });
      codes.set(subject, slots);
      return { stored: true };
    },
    async checkCode(subject, slot, hash, nowMs, limits) {
      const names = checkCounterNames(subject, slot, dayWindow(nowMs).id);
      const counted = (name: string): number => attempts.get(name)?.count ?? 0;
      const step = checkStep(codes.get(subject)?.get(slot), hash, nowMs, { slot: counted(names.slot), subject: counted(names.subject) }, limits);
      if (step.count) for (const name of [names.slot, names.subject]) bump(name, dayWindow(nowMs).endMs);
      if (step.after === null) codes.get(subject)?.delete(slot);
      else if (step.after) codes.get(subject)?.set(slot, step.after);
      return step.result;
    },
    async useLink(subject, tokenHash, nowMs) {
      const slots = codes.get(subject);
      const step = linkStep(slots ?? [], tokenHash, nowMs);
      if (step.slot !== undefined) slots?.delete(step.slot);
      return step.result;
    },
    async countAttempt(subject, nowMs, window = 'hour') {
      sweep();
      const w = attemptWindow(window, nowMs);
      return bump(`${subject}|${w.id}`, w.endMs);
    },
    async readAttempts(subject, nowMs, window = 'hour') {
      return attempts.get(`${subject}|${attemptWindow(window, nowMs).id}`)?.count ?? 0;
    },
  };
}
