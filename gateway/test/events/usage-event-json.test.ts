import fc from 'fast-check';
import { CloudEvent } from 'cloudevents';
import { usageOutcome } from '../../src/domain/event-types';
import { UsageBuffer } from '../../src/events/usage-buffer';
import { createUsageEventJson } from '../../src/events/usage-event-json';
import type { UsageData, UsageEvent } from '../../src/events/usage-stream';

const SOURCE = 'urn:tollgate:gateway:test:1';
const PREFIX = '0123456789abcdef';
// Any UTF-16 code unit, lone surrogates, quotes, backslashes and control characters included.
const anyText = (minLength = 0) => fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), minLength, maxLength: 40 });
const decision = fc.constantFrom('admitted', 'playground', 'fail_open', 'refunded', 'rate_limited', 'quota_exceeded', 'no_subscription', 'revoked', 'store_unavailable', 'unknown');
const ms = fc.oneof(fc.double({ min: 0, max: 1e6, noNaN: true }), fc.constantFrom(0, 0.004, 0.005, 12.345, 1e-9));
/** One call as the API path pushes it. */
interface Call {
  requestId: string;
  accountId: string;
  keyId: string;
  api: string;
  plan: string;
  method: string;
  route: string | null;
  status: number;
  decision: string;
  upstreamMs: number;
  durationMs: number;
  bytes: number;
  atMs: number;
}
const call: fc.Arbitrary<Call> = fc.record({
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

/** The event a row stands for, built field by field as events.md documents it: the `sequence`-th call the ring took. */
function expected(r: Call, sequence: number): UsageEvent {
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
  return { specversion: '1.0', id: `${PREFIX}-${sequence}`, requestid: r.requestId, source: SOURCE, type: 'dev.tollgate.api.call', subject: r.accountId, time: new Date(r.atMs).toISOString(), datacontenttype: 'application/json', data };
}

describe('a usage event written as JSON', () => {
  it('when calls of any text, numbers and times go round the ring, then each is written as the documented CloudEvent, and the cloudevents package builds (validates) it', () => {
    fc.assert(
      fc.property(fc.array(call, { minLength: 1, maxLength: 20 }), fc.nat(7), (calls, taken) => {
        const write = createUsageEventJson(SOURCE, PREFIX);
        const ring = new UsageBuffer(8, { batch: 8, full: () => undefined, dropped: () => undefined });
        // Some slots used and given back first, so the calls wrap round the ring's end.
        for (let i = 0; i < taken; i++) ring.push(...pushed(calls[0]!));
        ring.shift(taken);
        for (let from = 0; from < calls.length; from += 8) {
          const some = calls.slice(from, from + 8);
          for (const c of some) ring.push(...pushed(c));
          some.forEach((c, i) => {
            const parsed = JSON.parse(write(ring, ring.slot(i), ring.shifted + i)) as UsageEvent;
            expect(parsed).toStrictEqual(expected(c, taken + from + i));
            expect(new CloudEvent<UsageData>(parsed).toJSON()).toMatchObject({ id: `${PREFIX}-${taken + from + i}`, requestid: c.requestId, subject: c.accountId, time: parsed.time });
          });
          ring.shift(some.length);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('when 31 calls carry one request id, then their events have 31 ids (the gateway’s), each carrying that request id; written again, each keeps its id', () => {
    const calls = Array.from({ length: 31 }, () => ({ ...A_CALL, requestId: 'same-id-every-time' }));
    const events = written(calls);
    expect(new Set(events.map((e) => e.id)).size).toBe(31);
    expect(new Set(events.map((e) => e.requestid))).toEqual(new Set(['same-id-every-time']));
    const again = createUsageEventJson(SOURCE, PREFIX);
    const ring = new UsageBuffer(4, { batch: 4, full: () => undefined, dropped: () => undefined });
    for (const c of calls.slice(0, 4)) ring.push(...pushed(c));
    ring.shift(1);
    const first = [0, 1, 2].map((i) => (JSON.parse(again(ring, ring.slot(i), ring.shifted + i)) as UsageEvent).id);
    const resent = [0, 1, 2].map((i) => (JSON.parse(again(ring, ring.slot(i), ring.shifted + i)) as UsageEvent).id);
    expect(resent).toEqual(first);
    expect(first).toEqual([`${PREFIX}-1`, `${PREFIX}-2`, `${PREFIX}-3`]);
  });

  it('when two streams start, then their ids differ even for the same call number', () => {
    const one = written([A_CALL])[0]!.id;
    const other = written([A_CALL])[0]!.id;
    expect(one).not.toBe(other);
    expect(one).toMatch(/^[0-9a-f]{16}-0$/);
  });

  it('when calls come within one second, across its end and across a year, then each time is its own millisecond', () => {
    const base = Date.UTC(2026, 11, 31, 23, 59, 59);
    const times = [base, base + 0.9, base + 7, base + 99, base + 999.99, base + 1000, base + 1001, base - 1000, base + 10];
    expect(written(times.map((atMs) => ({ ...A_CALL, atMs }))).map((e) => e.time)).toEqual(times.map((at) => new Date(at).toISOString()));
  });

  it('when a duration is not a finite number, then it is written as null, as JSON.stringify would, and the event still parses', () => {
    const [event] = written([{ ...A_CALL, durationMs: Number.NaN, bytes: Number.POSITIVE_INFINITY }]);
    expect(event!.data).toMatchObject({ duration_ms: null, response_bytes: null });
  });
});

const A_CALL: Call = { requestId: 'req_1', accountId: 'acc_1', keyId: 'key_1', api: 'token', plan: 'free', method: 'GET', route: '/v1/price/{token}', status: 200, decision: 'admitted', upstreamMs: -1, durationMs: 1, bytes: 2, atMs: 0 };

/** A call's fields in the order `push` takes them. */
function pushed(c: Call): Parameters<UsageBuffer['push']> {
  return [c.requestId, c.accountId, c.keyId, c.api, c.plan, c.method, c.route, c.status, c.decision, c.upstreamMs, c.durationMs, c.bytes, c.atMs];
}

/** The calls pushed into a ring and written by one writer, in order, parsed. */
function written(calls: Call[]): UsageEvent[] {
  const write = createUsageEventJson(SOURCE);
  const ring = new UsageBuffer(calls.length, { batch: calls.length, full: () => undefined, dropped: () => undefined });
  for (const c of calls) ring.push(...pushed(c));
  return calls.map((_, i) => JSON.parse(write(ring, ring.slot(i), ring.shifted + i)) as UsageEvent);
}
