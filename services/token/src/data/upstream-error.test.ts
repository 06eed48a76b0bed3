import { errorForFailure, errorForStatus, retryAfterSeconds } from './upstream-error';

const NOW = Date.UTC(2026, 0, 1);

describe('retryAfterSeconds', () => {
  it.each([
    ['12', 12],
    [' 5 ', 5],
    ['0', 1],
    [new Date(NOW + 90_000).toUTCString(), 90],
    [new Date(NOW - 90_000).toUTCString(), 1],
    [undefined, 30],
    ['soon', 30],
  ])('when Retry-After is %p, then we say %i s', (header, seconds) => {
    expect(retryAfterSeconds(header, NOW)).toBe(seconds);
  });
});

describe('errorForStatus', () => {
  it.each([
    [400, '{"message":"no coins queried"}', 'BAD_REQUEST', 'price indexer: no coins queried'],
    [400, '{"statusCode":400,"body":"{\\"message\\":\\"start is not an uint\\"}"}', 'BAD_REQUEST', 'price indexer: start is not an uint'],
    [400, 'not json', 'BAD_REQUEST', 'price indexer: the request was refused'],
    [400, `{"message":"${'x'.repeat(400)}"}`, 'BAD_REQUEST', `price indexer: ${'x'.repeat(300)}`],
    [404, '', 'UPSTREAM_UNAVAILABLE', 'the price indexer answered HTTP 404'],
    [414, '', 'UPSTREAM_UNAVAILABLE', 'the price indexer answered HTTP 414'],
    [502, '', 'UPSTREAM_UNAVAILABLE', 'the price indexer answered HTTP 502'],
    [429, '', 'UPSTREAM_RATE_LIMITED', 'the price indexer is rate-limiting us; retry in 30 s'],
  ])('when the indexer answers %i %p, then the error is %s', (status, body, code, message) => {
    expect(errorForStatus(status, body, undefined, NOW)).toMatchObject({ code, message });
  });

  it('when rate-limited, then the error is a 503 carrying Retry-After', () => {
    expect(errorForStatus(429, '', '7', NOW)).toMatchObject({ status: 503, headers: { 'Retry-After': '7' }, details: { retry_after_seconds: 7 } });
  });
});

describe('errorForFailure', () => {
  it.each([
    [{ code: 'ECONNABORTED' }, 'UPSTREAM_TIMEOUT', 'the price indexer did not answer within 10000 ms'],
    [{ code: 'ETIMEDOUT' }, 'UPSTREAM_TIMEOUT', 'the price indexer did not answer within 10000 ms'],
    [{ code: 'ERR_CANCELED' }, 'UPSTREAM_TIMEOUT', 'the price indexer did not answer within 10000 ms'],
    [{ code: 'ECONNREFUSED' }, 'UPSTREAM_UNAVAILABLE', 'the price indexer could not be reached (ECONNREFUSED)'],
    [new Error('socket hang up'), 'UPSTREAM_UNAVAILABLE', 'the price indexer could not be reached'],
  ])('when the call fails with %p, then the error is %s', (cause, code, message) => {
    expect(errorForFailure(cause, 10_000)).toMatchObject({ code, message });
  });
});
