import { AppError, STATUS_BY_CODE, isAppError } from './app-error';
import type { ErrorCode } from './app-error';

describe('AppError', () => {
  it.each<[ErrorCode, number]>([
    ['BAD_REQUEST', 400],
    ['UNAUTHORIZED', 401],
    ['SUBSCRIPTION_REQUIRED', 402],
    ['FORBIDDEN', 403],
    ['NOT_FOUND', 404],
    ['METHOD_NOT_ALLOWED', 405],
    ['CONFLICT', 409],
    ['GONE', 410],
    ['RATE_LIMITED', 429],
    ['QUOTA_EXCEEDED', 429],
    ['INTERNAL', 500],
    ['UPSTREAM_UNAVAILABLE', 502],
    ['STORE_UNAVAILABLE', 503],
    ['NOT_READY', 503],
    ['UPSTREAM_RATE_LIMITED', 503],
    ['UPSTREAM_TIMEOUT', 504],
  ])('when the code is %s, then the status is %i', (code, status) => {
    expect(STATUS_BY_CODE[code]).toBe(status);
    expect(new AppError(code, 'x').status).toBe(status);
  });

  it('when built with options, then it keeps details, cause and headers', () => {
    const cause = new Error('root');
    const err = new AppError('RATE_LIMITED', 'slow down', { details: { limit: 5 }, cause, headers: { 'Retry-After': '1' } });
    expect(err).toMatchObject({ code: 'RATE_LIMITED', message: 'slow down', details: { limit: 5 }, cause });
    expect(err.headers).toEqual({ 'Retry-After': '1' });
  });

  it('when a value is not an AppError, then isAppError says so', () => {
    expect(isAppError(new AppError('INTERNAL', 'x'))).toBe(true);
    expect(isAppError(new Error('x'))).toBe(false);
    expect(isAppError({ code: 'INTERNAL' })).toBe(false);
  });
});
