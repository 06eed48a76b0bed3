import type { ServerResponse } from 'node:http';
import { StripeError } from './stripe-error';

/** A response about to be sent. */
export interface Answer {
  status: number;
  body: string | Buffer;
  headers?: Record<string, string>;
}

/** A JSON answer, pretty-printed as Stripe prints it. */
export function jsonAnswer(status: number, value: unknown, headers: Record<string, string> = {}): Answer {
  return { status, body: JSON.stringify(value, null, 2), headers: { 'Content-Type': 'application/json', ...headers } };
}

/** Stripe's error object for a thrown error; anything but a StripeError is a 500 `api_error`. */
export function errorAnswer(error: unknown, log: (line: string) => void): Answer {
  if (error instanceof StripeError) return jsonAnswer(error.status, { error: error.body });
  log(`stripe-local: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return jsonAnswer(500, { error: { type: 'api_error', message: 'An unknown error occurred in stripe-local.' } }, { 'Stripe-Should-Retry': 'false' });
}

/** Writes an answer, unless the response has already been sent. */
export function sendAnswer(res: ServerResponse, answer: Answer): void {
  if (res.headersSent) return;
  res.writeHead(answer.status, { 'Cache-Control': 'no-cache, no-store', 'Content-Length': String(Buffer.byteLength(answer.body)), ...answer.headers });
  res.end(answer.body);
}
