import type { Response } from 'express';
import { requestIdOf } from '@tollgate/envelope';

/**
 * Answers 200 with the success envelope around already-serialized `data`: the same bytes
 * `sendOk` would write (same keys, same order), without serializing the data again per request.
 */
export function sendSerialized(res: Response, dataJson: string, message: string): void {
  const meta = JSON.stringify({ timestamp: new Date().toISOString(), request_id: requestIdOf(res) });
  res
    .status(200)
    .type('application/json')
    .send(`{"data":${dataJson},"meta":${meta},"status":"ok","message":${JSON.stringify(message)},"success":true}`);
}
