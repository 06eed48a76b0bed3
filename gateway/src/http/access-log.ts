import { redactUrl } from '@tollgate/envelope';
import type { Logger } from '@tollgate/envelope';

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

/**
 * The access-log line of a proxied call, in pino-http's shape (`request_id`, `req`, `res`,
 * `responseTime`) so the two paths' lines read alike; the level follows the status as there.
 * Built by hand because pino-http's per-request child loggers and three response listeners cost
 * more than the rest of the gateway's own work on the fast path. As there, the URL's secrets are
 * redacted (a query without one costs a scan) and no header is logged.
 */
export function writeAccessLog(logger: Logger, entry: AccessLogEntry): void {
  const line = { request_id: entry.requestId, req: { method: entry.method, url: redactUrl(entry.url) }, res: { status: entry.status }, responseTime: entry.durationMs };
  const msg = entry.finished ? 'request completed' : 'request aborted';
  if (entry.status >= 500) logger.error(line, msg);
  else if (entry.status >= 400) logger.warn(line, msg);
  else logger.info(line, msg);
}
