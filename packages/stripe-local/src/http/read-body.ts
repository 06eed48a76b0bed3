import type { IncomingMessage } from 'node:http';
import { StripeError } from './stripe-error';

/** Stripe refuses request bodies above about a megabyte. */
export const BODY_LIMIT = 1_000_000;

/** The request body as text; a body above `limit` bytes is a 413 Stripe error. */
export function readBody(req: IncomingMessage, limit = BODY_LIMIT): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(new StripeError(413, { type: 'invalid_request_error', message: `Request bodies may be at most ${limit} bytes.` }));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
