import type { Response } from 'express';
import { okEnvelope, requestIdOf } from '@tollgate/envelope/core';

/** Answers 201 with the success envelope (sendOk is 200 only). */
export function sendCreated<T>(res: Response, data: T, message: string): void {
  res.status(201).json(okEnvelope(data, message, requestIdOf(res)));
}

/** Answers 202 with the success envelope: the work is queued, not done. */
export function sendAccepted<T>(res: Response, data: T, message: string): void {
  res.status(202).json(okEnvelope(data, message, requestIdOf(res)));
}
