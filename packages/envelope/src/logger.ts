import pino from 'pino';
import { createBatchedDestination } from './batched-destination';

/** The logging surface the shared middleware needs; a pino logger satisfies it. */
export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Options of {@link createLogger}. */
export interface CreateLoggerOptions {
  service: string;
  level?: string;
  /** Where JSON lines go; standard output by default. */
  destination?: pino.DestinationStream;
}

// toISOString has a four-digit year only from 0000-01-01 to 9999-12-31; outside, it is formatted whole.
const FIRST_MS = -62_167_219_200_000;
const LAST_MS = 253_402_300_800_000;

/**
 * pino's ISO `time` field. Under load, lines share a millisecond, and within a second only the
 * milliseconds change: `toISOString()` runs once a second and each new millisecond appends three
 * digits (formatting the whole date went through printf on nearly every line).
 */
export function createIsoTime(now: () => number = Date.now): () => string {
  let lastMs = Number.NaN;
  let field = '';
  let secondMs = Number.NaN;
  let prefix = '';
  return () => {
    const ms = now();
    if (ms === lastMs) return field;
    lastMs = ms;
    if (!Number.isInteger(ms) || ms < FIRST_MS || ms >= LAST_MS) return (field = `,"time":"${new Date(ms).toISOString()}"`);
    const second = Math.floor(ms / 1000) * 1000;
    if (second !== secondMs) {
      secondMs = second;
      // `2026-11-22T05:30:00.` — everything up to the milliseconds.
      prefix = `,"time":"${new Date(second).toISOString().slice(0, 20)}`;
    }
    const frac = ms - second;
    field = `${prefix}${frac < 10 ? '00' : frac < 100 ? '0' : ''}${frac}Z"`;
    return field;
  };
}

/**
 * A JSON-lines pino logger tagged with the service name. By default lines go to standard output
 * in batches, when 4 KB have collected or 250 ms after the first (see {@link createBatchedDestination}):
 * one write per line cost a thread-pool round trip each, about 4% of a gateway's CPU under load.
 */
export function createLogger(options: CreateLoggerOptions): pino.Logger {
  return pino(
    { level: options.level ?? 'info', base: { service: options.service }, timestamp: createIsoTime() },
    options.destination ?? createBatchedDestination({ minLength: 4096, flushMs: 250 }),
  );
}
