import { createJsonLineWriter, redactUrl } from '@tollgate/envelope';
import type { JsonLineWriter, Logger } from '@tollgate/envelope';

/** What one access-log line records about a finished (or abandoned) call. */
export interface AccessLogEntry {
  requestId: string;
  method: string;
  url: string;
  status: number;
  durationMs: number;
  /** False when the client went away before the answer was complete. */
  finished: boolean;
}

// One writer per logger (the gateway has one).
const writers = new WeakMap<Logger, JsonLineWriter>();

/**
 * The access-log line of a proxied call, in pino-http's shape (`request_id`, `req`, `res`,
 * `responseTime`) so the two paths' lines read alike; the level follows the status as there.
 * Built by hand because pino-http's per-request child loggers and three response listeners cost
 * more than the rest of the gateway's own work on the fast path, and serialised by hand (the
 * line pino would write, see createJsonLineWriter) because pino's generic serialisation of the
 * fields was most of what was left of the line's cost. As there, the URL's secrets are redacted
 * (a query without one costs a scan) and no header is logged.
 */
export function writeAccessLog(logger: Logger, entry: AccessLogEntry): void {
  let write = writers.get(logger);
  if (!write) writers.set(logger, (write = createJsonLineWriter(logger)));
  const { status } = entry;
  const fields = `"request_id":${JSON.stringify(entry.requestId)},"req":{"method":${JSON.stringify(entry.method)},"url":${JSON.stringify(redactUrl(entry.url))}},"res":{"status":${status}},"responseTime":${entry.durationMs}`;
  write(status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info', fields, entry.finished ? 'request completed' : 'request aborted');
}
