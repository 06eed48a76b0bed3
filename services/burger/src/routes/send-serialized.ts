import type { Response } from 'express';
import { requestIdOf } from '@tollgate/envelope';

const HEAD = Buffer.from('{"data":');

/**
 * Answers 200 with the success envelope around already-serialized `data`: the same bytes `sendOk`
 * would write (same keys, same order), but the cached data buffer goes to the socket as it is,
 * neither serialized nor copied again per request; only the small envelope tail is built.
 */
export function sendSerialized(res: Response, data: Buffer, message: string): void {
  const meta = JSON.stringify({ timestamp: new Date().toISOString(), request_id: requestIdOf(res) });
  const tail = Buffer.from(`,"meta":${meta},"status":"ok","message":${JSON.stringify(message)},"success":true}`);
  res.status(200);
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', HEAD.length + data.length + tail.length);
  // Corked, the three parts leave in one writev; end() uncorks.
  res.cork();
  res.write(HEAD);
  res.write(data);
  res.end(tail);
}
