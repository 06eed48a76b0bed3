import { randomBytes } from 'node:crypto';
import { usageOutcome } from '../domain/event-types';
import type { UsageColumns } from './usage-buffer';

/** The CloudEvents `type` of one API call. */
export const USAGE_EVENT_TYPE = 'dev.tollgate.api.call';

/** The extension attribute carrying the client's `x-request-id` (CloudEvents names are lower-case letters and digits). */
export const REQUEST_ID_ATTRIBUTE = 'requestid';

/**
 * Writes buffered calls as usage events, CloudEvents 1.0 in structured JSON, by concatenation: the
 * sink's loop writes one per call, and building an object per event for `JSON.stringify` (or a
 * package `CloudEvent`, which copies and freezes it) was most of what the stream cost the gateway.
 * Every string a caller or the store chose goes through `JSON.stringify`, so it is escaped as
 * JSON requires; the rest are constants and numbers. The tests parse each event with the
 * `cloudevents` package, which validates it.
 *
 * The `id` is the gateway's: a prefix drawn at random when the stream starts and the call's number
 * in this process (`sequence`, the same each time its batch is sent), so consumers deduping on
 * `source` + `id` count every call once and a resent batch once. The client's request id, which
 * any client may repeat, travels as the `requestid` extension attribute.
 */
export function createUsageEventJson(source: string, idPrefix = randomBytes(8).toString('hex')): (calls: UsageColumns, at: number, sequence: number) => string {
  const head = `{"specversion":"1.0","source":${JSON.stringify(source)},"type":"${USAGE_EVENT_TYPE}","datacontenttype":"application/json","id":"${idPrefix}-`;
  // `time` to the millisecond, its date and second written once per second of calls.
  let second = Number.NaN;
  let secondIso = '';
  const time = (atMs: number): string => {
    const ms = Math.floor(atMs);
    const s = Math.floor(ms / 1000);
    if (s !== second) {
      second = s;
      secondIso = new Date(s * 1000).toISOString().slice(0, -4);
    }
    const rest = ms - s * 1000;
    return secondIso + (rest < 10 ? '00' : rest < 100 ? '0' : '') + rest + 'Z';
  };
  return (c, at, sequence) => {
    const status = c.status[at]!;
    const upstreamMs = c.upstreamMs[at]!;
    const plan = c.plan[at];
    const route = c.route[at];
    return (
      `${head}${sequence}","${REQUEST_ID_ATTRIBUTE}":${JSON.stringify(c.requestId[at])},"subject":${JSON.stringify(c.accountId[at])},"time":"${time(c.atMs[at]!)}",` +
      `"data":{"api":${JSON.stringify(c.api[at])},"plan":${plan ? JSON.stringify(plan) : 'null'},"key_id":${JSON.stringify(c.keyId[at])},` +
      `"method":${JSON.stringify(c.method[at])},"route":${route == null ? 'null' : JSON.stringify(route)},"status":${number(status)},` +
      `"outcome":"${usageOutcome(c.decision[at]!, status)}","upstream_latency_ms":${upstreamMs < 0 ? 'null' : number(hundredths(upstreamMs))},` +
      `"duration_ms":${number(hundredths(c.durationMs[at]!))},"response_bytes":${number(c.bytes[at]!)}}}`
    );
  };
}

const hundredths = (ms: number): number => Math.round(ms * 100) / 100;

/** A number as JSON writes it (NaN and the infinities as null, as `JSON.stringify` does). */
const number = (n: number): string => (Number.isFinite(n) ? String(n) : 'null');
