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
  /** A batch is handed on once it holds this many characters. */
  minLength: number;
  /** A batch that is not full is handed on, and flushed, this long (ms) after its first line. */
  flushMs: number;
  /** The file descriptor the default sink writes to: standard output (1) by default. */
  fd?: number;
  /** Where batches go; by default pino's asynchronous sonic-boom on `fd`, buffering `minLength` itself. */
  sink?: () => BatchSink;
}

/** A pino destination that hands its lines on in batches. */
export interface BatchedDestination extends pino.DestinationStream {
  write(line: string): void;
  /** Hands the current batch on and flushes the sink; `cb` runs once the sink has written it. */
  flush(cb?: (err?: Error) => unknown): void;
  /** Writes everything held, here and in the sink, synchronously (for exit). */
  flushSync(): void;
}

/**
 * Collects log lines and hands them to sonic-boom as one string per batch. sonic-boom can buffer
 * by itself (`minLength`), but on every write it measures the UTF-8 length of all it holds (its
 * `maxWrite` check), so each line cost a scan and a copy of the whole pending batch: 14 k of the
 * 48 k instructions an access line took with 4 KB batches. Here each line is measured once.
 *
 * The default sink keeps sonic-boom's own buffering of `minLength` (and its periodic flush), so
 * that a batch handed on below that size is held, not written asynchronously: at exit, a write
 * already under way cannot be waited for, while what sonic-boom holds is written by `flushSync`.
 * The exit hook therefore writes the sink's buffer, hands the last batch over and writes again.
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
      else if (!timer) timer = setTimeout(() => destination.flush(), options.flushMs).unref();
    },
    flush(cb) {
      handOver();
      sink.flush(cb);
    },
    flushSync() {
      sink.flushSync();
      handOver();
      sink.flushSync();
    },
  };
  // Registered before the sink exists, so it runs before pino's own exit hook for the sink.
  onExit.register(destination, (dest) => {
    if (!sink.destroyed) dest.flushSync();
  });
  const defaultSink = (): BatchSink => pino.destination({ dest: options.fd ?? 1, sync: false, minLength: options.minLength, periodicFlush: options.flushMs });
  const sink = (options.sink ?? defaultSink)();
  return destination;
}
