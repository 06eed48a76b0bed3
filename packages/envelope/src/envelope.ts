import type { Response } from 'express';
import type { ErrorCode } from './app-error';

/** Envelope metadata; `request_id` is the same id end to end. */
export interface EnvelopeMeta {
  timestamp: string;
  request_id: string;
}

/** The success envelope, exactly as the specs show it. */
export interface OkEnvelope<T> {
  data: T;
  meta: EnvelopeMeta;
  status: 'ok';
  message: string;
  success: true;
}

/** The error envelope, the mirror of the success one. */
export interface ErrorEnvelope {
  data: null;
  meta: EnvelopeMeta;
  status: 'error';
  message: string;
  success: false;
  error: { code: ErrorCode; details?: unknown };
}

/** Builds a success envelope. */
export function okEnvelope<T>(data: T, message: string, requestId: string, now: Date = new Date()): OkEnvelope<T> {
  return { data, meta: { timestamp: now.toISOString(), request_id: requestId }, status: 'ok', message, success: true };
}

/** Builds an error envelope; `details` is left out when there are none. */
export function errorEnvelope(
  code: ErrorCode,
  message: string,
  requestId: string,
  details?: unknown,
  now: Date = new Date(),
): ErrorEnvelope {
  return {
    data: null,
    meta: { timestamp: now.toISOString(), request_id: requestId },
    status: 'error',
    message,
    success: false,
    error: details === undefined ? { code } : { code, details },
  };
}

/** The request id the request-id middleware stored for this response. */
export function requestIdOf(res: Response): string {
  return String(res.locals.requestId ?? '');
}

/**
 * Answers 200 with the success envelope.
 *
 * @example
 * sendOk(res, { count: 54, countries }, 'Index retrieved successfully');
 */
export function sendOk<T>(res: Response, data: T, message: string): void {
  res.status(200).json(okEnvelope(data, message, requestIdOf(res)));
}
