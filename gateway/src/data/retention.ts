import { dayIds } from '../domain/windows';

/**
 * How long what the stores keep for a while lives, the same in every engine: the contract suite
 * holds each store to it (a history batch sent again adds nothing while its marker lives).
 */

/** Seconds a refund marker lives: longer than any call can wait for its refund. */
export const REFUND_MARKER_TTL_SECONDS = 86_400;

/**
 * Seconds a history batch's marker lives: longer than a gateway keeps resending a batch (an hour
 * of pending batches, see usage-recorder.ts), and no longer, since there is one per account, per
 * gateway, per second.
 */
export const HISTORY_BATCH_TTL_SECONDS = 7_200;

/** Seconds a day of history lives: 90 days and the day itself. */
export const HISTORY_TTL_SECONDS = 91 * 86_400;

/** Seconds a month's ranking of accounts by calls outlives the month: the next month's overview can still show it. */
export const TOP_ACCOUNTS_KEEP_SECONDS = 35 * 86_400;

/**
 * The UTC days an account's history may still hold at `nowMs` (every day it lives, and tomorrow for
 * a clock a little ahead): what erasing an account drops, by name rather than by a scan.
 */
export function historyDaysKept(nowMs: number): string[] {
  const day = 86_400_000;
  return dayIds(new Date(nowMs - HISTORY_TTL_SECONDS * 1000 - day).toISOString().slice(0, 10), new Date(nowMs + day).toISOString().slice(0, 10));
}
