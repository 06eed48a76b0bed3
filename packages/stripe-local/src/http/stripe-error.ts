/** The `error` member of Stripe's error responses. */
export interface StripeErrorBody {
  type: 'invalid_request_error' | 'card_error' | 'api_error' | 'idempotency_error';
  message: string;
  code?: string;
  param?: string;
  decline_code?: string;
}

/** An error answered as Stripe answers it: `{ error: body }` with Stripe's status. */
export class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message);
    this.name = 'StripeError';
  }
}

/** 400 `invalid_request_error`. */
export function invalidRequest(message: string, extra: { param?: string; code?: string } = {}): StripeError {
  return new StripeError(400, { type: 'invalid_request_error', message, ...extra });
}

/** 400 `parameter_missing`, worded as Stripe words it. */
export function missingParam(param: string): StripeError {
  return invalidRequest(`Missing required param: ${param}.`, { param, code: 'parameter_missing' });
}

/** 404 `resource_missing`: "No such customer: 'cus_…'". */
export function resourceMissing(resource: string, id: string, param = 'id'): StripeError {
  return new StripeError(404, { type: 'invalid_request_error', code: 'resource_missing', param, message: `No such ${resource}: '${id}'` });
}

/** A declined or invalid card, as the card networks word it. */
export interface Decline {
  code: string;
  message: string;
  decline_code?: string;
}

/** 402 `card_error`. */
export function cardError(decline: Decline, param?: string): StripeError {
  return new StripeError(402, { type: 'card_error', ...decline, ...(param ? { param } : {}) });
}

/** 400 `idempotency_error`. */
export function idempotencyError(message: string): StripeError {
  return new StripeError(400, { type: 'idempotency_error', message });
}

/** 401, which Stripe sends as an `invalid_request_error` without a code. */
export function authenticationError(message: string): StripeError {
  return new StripeError(401, { type: 'invalid_request_error', message });
}
