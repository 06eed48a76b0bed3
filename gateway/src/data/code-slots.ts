import { KEEP_AFTER_END_SECONDS } from './session-store';
import type { CheckLimits, CodeCheck, LinkCheck, StoredCode } from './session-store';

/**
 * The rules of a subject's mailed codes, one per slot, shared by the memory and SQLite session
 * stores (each runs them inside one synchronous step or transaction; Redis runs the same rules in
 * its scripts, redis-sessions.ts).
 */

const KEEP_MS = KEEP_AFTER_END_SECONDS * 1000;

/** Whether a code is past the day it is kept after its end (then it is dropped). */
export const codeGone = (code: StoredCode, nowMs: number): boolean => code.expiresAtMs + KEEP_MS <= nowMs;

/**
 * What storing a code in `slot` does to the subject's codes: the slots to drop (gone), and, when
 * other slots hold `maxLive` live codes, the time the first of them lapses (the code is refused).
 */
export function putStep(codes: Iterable<[string, StoredCode]>, slot: string, nowMs: number, maxLive: number): { gone: string[]; freeAtMs?: number } {
  const gone: string[] = [];
  const live: number[] = [];
  for (const [name, code] of codes) {
    if (codeGone(code, nowMs)) gone.push(name);
    else if (name !== slot && code.expiresAtMs > nowMs) live.push(code.expiresAtMs);
  }
  return live.length >= maxLive ? { gone, freeAtMs: Math.min(...live) } : { gone };
}

/** A check's answer, whether it counts against the daily limits, and what becomes of the slot's code. */
export interface CheckStep {
  result: CodeCheck;
  count: boolean;
  /** The code after the check; null: deleted; undefined: as it was. */
  after?: StoredCode | null;
}

/**
 * What checking typed digits against a slot's code does, given the checks already counted today.
 * Nothing counts without a live code with tries left: a stranger's guesses at an address with no
 * code pending cost its owner nothing.
 */
export function checkStep(code: StoredCode | undefined, hash: string, nowMs: number, counted: { slot: number; subject: number }, limits: CheckLimits): CheckStep {
  if (!code || codeGone(code, nowMs) || code.tries <= 0) return { result: { outcome: 'none' }, count: false };
  if (code.expiresAtMs <= nowMs) return { result: { outcome: 'expired' }, count: false };
  if (counted.slot >= limits.perSlot) return { result: { outcome: 'limited', scope: 'slot' }, count: false };
  if (counted.subject >= limits.perSubject) return { result: { outcome: 'limited', scope: 'subject' }, count: false };
  if (code.hash === hash) return { result: { outcome: 'ok' }, count: true, after: null };
  const tries = code.tries - 1;
  return { result: { outcome: 'wrong', triesLeft: tries }, count: true, after: { ...code, tries } };
}

/** Which slot's code a link token opens, and whether it is still live. */
export function linkStep(codes: Iterable<[string, StoredCode]>, tokenHash: string, nowMs: number): { result: LinkCheck; slot?: string } {
  for (const [slot, code] of codes) {
    if (code.tokenHash !== tokenHash || codeGone(code, nowMs)) continue;
    return code.expiresAtMs <= nowMs ? { result: { outcome: 'expired' } } : { result: { outcome: 'ok' }, slot };
  }
  return { result: { outcome: 'none' } };
}

/** The names of the two daily check counters (subject, and slot within it) in the memory and SQLite stores. */
export function checkCounterNames(subject: string, slot: string, dayId: string): { subject: string; slot: string } {
  return { subject: `checks:${subject}|${dayId}`, slot: `checks:${subject}|${slot}|${dayId}` };
}
