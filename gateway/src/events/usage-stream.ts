import type { CloudEventV1 } from 'cloudevents';
import type { Logger } from '@tollgate/envelope';
import type { UsageOutcome } from '../domain/event-types';
import type { BackgroundLoops } from '../data/background-loop';
import { UsageBuffer } from './usage-buffer';
import { createUsageEventJson } from './usage-event-json';

export { USAGE_EVENT_TYPE } from './usage-event-json';

/** The `data` of a usage event. */
export interface UsageData {
  api: string;
  plan: string | null;
  key_id: string;
  method: string;
  /** The route template the call matched (`/v1/price`, `/v1/countries/{code}`); null when the service's document is not known. */
  route: string | null;
  status: number;
  outcome: UsageOutcome;
  /** From sending to the service until its headers came; null when the call never reached it. */
  upstream_latency_ms: number | null;
  duration_ms: number;
  response_bytes: number;
}

/** A usage event as the sinks write it: CloudEvents 1.0, structured (JSON). */
export type UsageEvent = CloudEventV1<UsageData>;

/**
 * Where usage events go: takes a batch (each event's JSON, and its subject, the account id, at the
 * same index), resolves once the sink has it (or rejects, and the batch is sent again).
 */
export interface UsageSinkWriter {
  readonly describe: string;
  write(events: readonly string[], subjects: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** What the stream needs. */
export interface UsageStreamDeps {
  writer: UsageSinkWriter;
  /** CloudEvents `source`: this gateway instance. */
  source: string;
  /** Calls held at most while the sink is slow or away; past it, calls are dropped and counted. */
  capacity: number;
  /** Calls sent in one batch at most. */
  batch?: number;
  /** How often what is held is sent, even below a batch (ms). */
  flushMs?: number;
  logger: Logger;
  /** Where its sending loop runs. */
  loops: BackgroundLoops;
  /** Counts dropped and sent events (the metrics). */
  counted?: { dropped(n: number): void; sent(n: number): void };
}

/** The usage stream: the API path pushes into its buffer, a loop beside it sends batches. */
export interface UsageStream {
  sink: UsageBuffer;
  /** Sends what is held now (one batch at a time); resolves when the buffer is empty or the sink refused. */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

// Backing off from a sink that refused: 200 ms doubling to 5 s.
const FIRST_BACKOFF_MS = 200;
const MAX_BACKOFF_MS = 5_000;
// A log line about drops at most this often while they happen.
const DROP_LOG_MS = 60_000;

/**
 * Buffers calls and sends them in batches, one batch in flight at a time (back-pressure): a sink
 * that is slow or away makes the buffer fill, never a call wait. A batch is removed from the buffer
 * only once the sink took it; a refused one is sent again after a backoff, so nothing that fitted
 * is lost (a sink that took a batch but failed to say so gets it twice: its ids dedupe it). When
 * the buffer is full, the new call's event is dropped and counted, with a log line a minute.
 */
export function createUsageStream(deps: UsageStreamDeps): UsageStream {
  const batch = deps.batch ?? 500;
  const eventJson = createUsageEventJson(deps.source);
  let backoffMs = 0;
  let retryAt = 0;
  let droppedSinceLog = 0;
  let lastDropLog = -Infinity;
  let stopped = false;

  const logDrops = (): void => {
    if (droppedSinceLog === 0) return;
    deps.logger.warn({ dropped: droppedSinceLog, dropped_total: sink.dropped, capacity: deps.capacity, sink: deps.writer.describe }, 'usage events dropped: the sink does not keep up and the buffer is full');
    droppedSinceLog = 0;
    lastDropLog = performance.now();
  };
  const sink = new UsageBuffer(deps.capacity, {
    batch,
    // A full batch is sent at once, unless the sink refused the last one: then it waits out the backoff.
    full: () => {
      if (!stopped && performance.now() >= retryAt) loop.trigger();
    },
    dropped: () => {
      deps.counted?.dropped(1);
      droppedSinceLog += 1;
      if (performance.now() - lastDropLog >= DROP_LOG_MS) logDrops();
    },
  });

  const sendAll = async (): Promise<void> => {
    if (droppedSinceLog && performance.now() - lastDropLog >= DROP_LOG_MS) logDrops();
    while (sink.size > 0) {
      const count = Math.min(batch, sink.size);
      const events = new Array<string>(count);
      const subjects = new Array<string>(count);
      for (let i = 0; i < count; i++) {
        const at = sink.slot(i);
        events[i] = eventJson(sink, at, sink.shifted + i);
        subjects[i] = sink.accountId[at]!;
      }
      try {
        await deps.writer.write(events, subjects);
      } catch (err) {
        backoffMs = Math.min(MAX_BACKOFF_MS, backoffMs ? backoffMs * 2 : FIRST_BACKOFF_MS);
        retryAt = performance.now() + backoffMs;
        throw new Error(`usage events not taken by the sink ${deps.writer.describe} now (${sink.size} held, kept and sent again): ${(err as Error).message}`);
      }
      backoffMs = 0;
      retryAt = 0;
      sink.shift(count);
      deps.counted?.sent(count);
    }
  };
  // The loop's own backoff after a refusal (its period doubling to 5 s) spaces the retries.
  const loop = deps.loops.create({ name: 'usage_stream', everyMs: deps.flushMs ?? 100, maxBackoffMs: MAX_BACKOFF_MS, job: sendAll, failure: 'usage events are held in the buffer and sent again' });
  loop.start();

  return {
    sink,
    flush: () => loop.run(),
    async stop() {
      stopped = true;
      await loop.stop();
      retryAt = 0;
      // What is held is sent once more before the gateway exits; a sink still away loses it, said in the log.
      await loop.run();
      if (sink.size) deps.logger.warn({ held: sink.size, sink: deps.writer.describe }, 'usage events not sent before stopping');
      logDrops();
      await deps.writer.close();
    },
  };
}
