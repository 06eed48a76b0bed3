import onExit from 'on-exit-leak-free';
import pino from 'pino';

/** Where batches go: what the destination uses of sonic-boom (`destroyed` is set at run time but not typed). */
export interface BatchSink {
  write(batch: string): unknown;
  flush(cb?: (err?: Error) => unknown): void;
  flushSync(): void;
  readonly destroyed?: boolean;
}

/** Options of {@link createBatchedDestination}. */
export interface BatchedDestinationOptions {
  /** A batch is written once it holds this many characters. */
  minLength: number;
  /** A batch that is not full is written this long (ms) after its first line. */
  flushMs: number;
  /** Where batches go; standard output (pino's asynchronous sonic-boom) by default. */
  sink?: () => BatchSink;
}

/** A pino destination that hands its lines on in batches. */
export interface BatchedDestination extends pino.DestinationStream {
  write(line: string): void;
  /** Hands the current batch on and flushes the sink; `cb` runs when it is written. */
  flush(cb?: (err?: Error) => unknown): void;
  /** Hands the current batch on and writes everything synchronously (for exit). */
  flushSync(): void;
}

/**
 * Collects log lines and hands them to sonic-boom as one string per batch. sonic-boom can buffer
 * by itself (`minLength`), but on every write it measures the UTF-8 length of all it holds (its
 * `maxWrite` check), so each line cost a scan and a copy of the whole pending batch: 14 k of the
 * 48 k instructions an access line took with 4 KB batches. Here each line is measured once.
 *
 * Lines still held at exit are written as pino does for its own streams: synchronously on `exit`,
 * flushed on `beforeExit`. The exit hook is registered before the sink is created, so it runs first
 * and hands the last batch over before pino's hook flushes the sink.
 */
export function createBatchedDestination(options: BatchedDestinationOptions): BatchedDestination {
  let lines: string[] = [];
  let length = 0;
  let timer: NodeJS.Timeout | undefined;
  const handOver = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (lines.length === 0) return;
    const batch = lines.join('');
    lines = [];
    length = 0;
    sink.write(batch);
  };
  const destination: BatchedDestination = {
    write(line) {
      lines.push(line);
      length += line.length;
      if (length >= options.minLength) handOver();
      // Unref'd: a pending batch must not keep an otherwise finished process alive (exit writes it).
      else if (!timer) timer = setTimeout(handOver, options.flushMs).unref();
    },
    flush(cb) {
      handOver();
      sink.flush(cb);
    },
    flushSync() {
      handOver();
      sink.flushSync();
    },
  };
  onExit.register(destination, (dest, event) => {
    if (sink.destroyed) return;
    if (event === 'exit') dest.flushSync();
    else dest.flush();
  });
  const sink: BatchSink = (options.sink ?? (() => pino.destination({ sync: false })))();
  return destination;
}
