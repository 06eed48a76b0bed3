import { AppError } from '@tollgate/envelope/core';
import { HISTORY_DAYS } from '../data/account-store';

const DAY_MS = 86_400_000;
/** Days the history shows when no range is given: the last 30 UTC days, today included. */
const DEFAULT_HISTORY_DAYS = 30;
// RFC 3339 as JSON Schema's date-time: seconds and an offset may not be left out by Date.parse's
// looser reading, and the calendar date must exist (Date.parse turns 02-31 into 03-03).
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/i;

const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The start of a UTC day given exactly as `YYYY-MM-DD`, or undefined when it is not one (or not a real date). */
function dayStartMs(day: string): number | undefined {
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(ms) || isoDay(ms) !== day ? undefined : ms;
}

function badRequest(parameter: string, message: string): AppError {
  return new AppError('BAD_REQUEST', message, { details: { parameter } });
}

/** A key's expiry time from an ISO 8601 date-time that must lie after `nowMs`; 400 otherwise. */
export function expiryMs(value: string, nowMs: number): number {
  const match = DATE_TIME.exec(value);
  const ms = match && dayStartMs(match[1] as string) !== undefined ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) throw badRequest('expires_at', 'expires_at must be an ISO 8601 date-time with an offset, e.g. 2027-01-31T00:00:00Z');
  if (ms <= nowMs) throw badRequest('expires_at', `expires_at must be in the future (it is now ${new Date(nowMs).toISOString()})`);
  return ms;
}

/**
 * The days of history to show: `to` defaults to today (UTC, by the injected clock) and `from` to
 * 29 days before it. Both must be real days, from ≤ to, and within the {@link HISTORY_DAYS} days
 * kept (so a range spans at most that many days after its first); 400 naming the parameter otherwise.
 */
export function historyRange(query: { from?: string; to?: string }, nowMs: number): { from: string; to: string } {
  const today = Math.floor(nowMs / DAY_MS) * DAY_MS;
  const oldest = today - HISTORY_DAYS * DAY_MS;
  const day = (parameter: 'from' | 'to'): number | undefined => {
    const value = query[parameter];
    if (value === undefined) return undefined;
    const ms = dayStartMs(value);
    if (ms === undefined) throw badRequest(parameter, `${parameter} must be a UTC day, YYYY-MM-DD`);
    return ms;
  };
  const kept = `the ${HISTORY_DAYS} days of history kept: ${isoDay(oldest)} to today, ${isoDay(today)} (UTC)`;
  const to = day('to') ?? today;
  if (to > today || to < oldest) throw badRequest('to', `to must be within ${kept}`);
  const from = day('from') ?? Math.max(oldest, to - (DEFAULT_HISTORY_DAYS - 1) * DAY_MS);
  if (from > to) throw badRequest('from', `from must not be after to (${isoDay(to)})`);
  if (from < oldest) throw badRequest('from', `from must be within ${kept}`);
  return { from: isoDay(from), to: isoDay(to) };
}
