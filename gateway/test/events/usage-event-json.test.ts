import fc from 'fast-check';
import { CloudEvent } from 'cloudevents';
import { usageOutcome } from '../../src/domain/event-types';
import type { UsageRow } from '../../src/events/usage-buffer';
import { createUsageEventJson } from '../../src/events/usage-event-json';
import type { UsageData, UsageEvent } from '../../src/events/usage-stream';

const SOURCE = 'urn:tollgate:gateway:test:1';
// Any UTF-16 code unit, lone surrogates, quotes, backslashes and control characters included.
const anyText = (minLength = 0) => fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), minLength, maxLength: 40 });
const decision = fc.constantFrom('admitted', 'playground', 'fail_open', 'refunded', 'rate_limited', 'quota_exceeded', 'no_subscription', 'revoked', 'store_unavailable', 'unknown');
const ms = fc.oneof(fc.double({ min: 0, max: 1e6, noNaN: true }), fc.constantFrom(0, 0.004, 0.005, 12.345, 1e-9));
const row: fc.Arbitrary<UsageRow> = fc.record({
  requestId: anyText(1),
  accountId: anyText(1),
  keyId: anyText(),
  api: anyText(),
  plan: anyText(),
  method: fc.constantFrom('GET', 'HEAD', 'POST', 'M"\\'),
  route: fc.option(anyText(), { nil: null }),
  status: fc.integer({ min: 100, max: 599 }),
  decision,
  upstreamMs: fc.oneof(fc.constant(-1), ms),
  durationMs: ms,
  bytes: fc.nat(),
  // Any millisecond (with a fraction) from 1970 to 2200.
  atMs: fc.double({ min: 0, max: 7_258_118_400_000, noNaN: true }),
});

/** The event a row stands for, built field by field as events.md documents it. */
function expected(r: UsageRow): UsageEvent {
  const data: UsageData = {
    api: r.api,
    plan: r.plan || null,
    key_id: r.keyId,
    method: r.method,
    route: r.route,
    status: r.status,
    outcome: usageOutcome(r.decision, r.status),
    upstream_latency_ms: r.upstreamMs < 0 ? null : Math.round(r.upstreamMs * 100) / 100,
    duration_ms: Math.round(r.durationMs * 100) / 100,
    response_bytes: r.bytes,
  };
  return { specversion: '1.0', id: r.requestId, source: SOURCE, type: 'dev.tollgate.api.call', subject: r.accountId, time: new Date(r.atMs).toISOString(), datacontenttype: 'application/json', data };
}

describe('a usage event written as JSON', () => {
  it('when rows of any text, numbers and times are written in turn, then each is the documented CloudEvent, and the cloudevents package builds (validates) it', () => {
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 20 }), (rows) => {
        const write = createUsageEventJson(SOURCE);
        for (const r of rows) {
          const parsed = JSON.parse(write(r)) as UsageEvent;
          expect(parsed).toStrictEqual(expected(r));
          expect(new CloudEvent<UsageData>(parsed).toJSON()).toMatchObject({ id: r.requestId, subject: r.accountId, time: parsed.time });
        }
      }),
      { numRuns: 300 },
    );
  });

  it('when calls come within one second, across its end and across a year, then each time is its own millisecond', () => {
    const write = createUsageEventJson(SOURCE);
    const base = Date.UTC(2026, 11, 31, 23, 59, 59);
    for (const at of [base, base + 0.9, base + 7, base + 99, base + 999.99, base + 1000, base + 1001, base - 1000, base + 10]) {
      const time = (JSON.parse(write({ ...rowAt(at) })) as UsageEvent).time;
      expect(time).toBe(new Date(at).toISOString());
    }
  });

  it('when a duration is not a finite number, then it is written as null, as JSON.stringify would, and the event still parses', () => {
    const write = createUsageEventJson(SOURCE);
    const parsed = JSON.parse(write({ ...rowAt(0), durationMs: Number.NaN, bytes: Number.POSITIVE_INFINITY })) as UsageEvent;
    expect(parsed.data).toMatchObject({ duration_ms: null, response_bytes: null });
  });
});

function rowAt(atMs: number): UsageRow {
  return { requestId: 'req_1', accountId: 'acc_1', keyId: 'key_1', api: 'token', plan: 'free', method: 'GET', route: '/v1/price/{token}', status: 200, decision: 'admitted', upstreamMs: -1, durationMs: 1, bytes: 2, atMs };
}
