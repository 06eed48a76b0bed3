import { AppError } from '@tollgate/envelope';

/** Seconds to wait when the indexer rate-limits us without saying for how long. */
export const DEFAULT_RETRY_AFTER_SECONDS = 30;

/** `Retry-After` in seconds from the indexer's header (seconds or an HTTP date). */
export function retryAfterSeconds(header: unknown, nowMs: number): number {
  if (typeof header === 'string' && /^\d+$/.test(header.trim())) return Math.max(1, Number(header.trim()));
  const date = typeof header === 'string' ? Date.parse(header) : NaN;
  if (Number.isFinite(date)) return Math.max(1, Math.ceil((date - nowMs) / 1000));
  return DEFAULT_RETRY_AFTER_SECONDS;
}

// The indexer's 400 body is {message}; one version wraps it again as {statusCode, body: "<json>"},
// and one puts a stack trace in it, so only its first line is passed on.
function messageOf(body: string): string | undefined {
  try {
    let parsed: unknown = JSON.parse(body);
    const wrapped = parsed as { body?: unknown };
    if (typeof wrapped?.body === 'string') parsed = JSON.parse(wrapped.body);
    const message = (parsed as { message?: unknown })?.message;
    if (typeof message !== 'string' || message.trim() === '') return undefined;
    return message.trim().split('\n')[0]!.slice(0, 300);
  } catch {
    return undefined;
  }
}

/** Maps a non-200 indexer answer to the error the client gets. */
export function errorForStatus(status: number, body: string, retryAfter: unknown, nowMs: number): AppError {
  if (status === 400) {
    const message = messageOf(body) ?? 'the request was refused';
    return new AppError('BAD_REQUEST', `price indexer: ${message}`, { details: { upstream_status: 400 } });
  }
  if (status === 429) {
    const seconds = retryAfterSeconds(retryAfter, nowMs);
    return new AppError('UPSTREAM_RATE_LIMITED', `the price indexer is rate-limiting us; retry in ${seconds} s`, {
      headers: { 'Retry-After': String(seconds) },
      details: { retry_after_seconds: seconds },
    });
  }
  return new AppError('UPSTREAM_UNAVAILABLE', `the price indexer answered HTTP ${status}`, { details: { upstream_status: status } });
}

/** Maps a failed call (no answer) to 504 for a timeout and 502 for anything else. */
export function errorForFailure(cause: unknown, timeoutMs: number): AppError {
  const code = (cause as { code?: unknown })?.code;
  // ERR_CANCELED: only our own deadline signal cancels a call.
  if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || code === 'ERR_CANCELED') {
    return new AppError('UPSTREAM_TIMEOUT', `the price indexer did not answer within ${timeoutMs} ms`, { cause });
  }
  const reason = typeof code === 'string' ? ` (${code})` : '';
  return new AppError('UPSTREAM_UNAVAILABLE', `the price indexer could not be reached${reason}`, { cause });
}
