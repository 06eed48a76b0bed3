import { CONSTANTS } from 'cloudevents';
import type { UsageEvent, UsageSinkWriter } from './usage-stream';

/**
 * HTTP batches: one POST of `application/cloudevents-batch+json` (a JSON array of structured
 * events, the form OpenMeter ingests) per batch; any 2xx takes the batch, anything else (or no
 * answer in `timeoutMs`) refuses it and it is sent again.
 */
export function createHttpBatchWriter(url: string, timeoutMs = 10_000): UsageSinkWriter {
  const target = new URL(url);
  return {
    describe: `${target.protocol}//${target.host}${target.pathname}`,
    async write(events) {
      const res = await fetch(target, { method: 'POST', headers: { 'content-type': CONSTANTS.MIME_CE_BATCH }, body: JSON.stringify(events), signal: AbortSignal.timeout(timeoutMs) });
      await res.arrayBuffer().catch(() => undefined);
      if (!res.ok) throw new Error(`the usage sink answered ${res.status}`);
    },
    close: async () => undefined,
  };
}

/** A stream writer as the data layer gives it (data/redis/redis-usage-stream.ts): subject and JSON per event. */
export interface StreamAppender {
  readonly describe: string;
  append(entries: readonly { subject: string; json: string }[]): Promise<void>;
  close(): Promise<void>;
}

/** Redis Stream entries: each event's structured JSON, in its account's shard. */
export function createStreamWriter(appender: StreamAppender): UsageSinkWriter {
  return {
    describe: appender.describe,
    write: (events: readonly UsageEvent[]) => appender.append(events.map((event) => ({ subject: event.subject ?? '', json: JSON.stringify(event) }))),
    close: () => appender.close(),
  };
}
