import fs, { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createBatchedDestination } from './batched-destination';
import type { BatchSink } from './batched-destination';

/** A sink that records, in order, the batches written to it and the flushes asked of it. */
function recordingSink(): BatchSink & { events: string[]; batches(): string[] } {
  const events: string[] = [];
  return {
    events,
    batches: () => events.filter((e) => e.startsWith('write ')).map((e) => e.slice('write '.length)),
    write: (batch: string) => events.push(`write ${batch}`),
    flush: (cb) => {
      events.push('flush');
      cb?.();
    },
    flushSync: () => void events.push('flushSync'),
  };
}

describe('createBatchedDestination', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it.each([
    { lines: ['a\n', 'b\n'], minLength: 5, batches: [] },
    { lines: ['a\n', 'bb\n', 'c\n'], minLength: 5, batches: ['a\nbb\n'] },
    { lines: ['abcdef\n'], minLength: 5, batches: ['abcdef\n'] },
    { lines: ['aa\n', 'bb\n', 'cc\n', 'dd\n'], minLength: 6, batches: ['aa\nbb\n', 'cc\ndd\n'] },
  ])('when $lines are written with minLength $minLength, then the sink gets $batches at once', ({ lines, minLength, batches }) => {
    const sink = recordingSink();
    const destination = createBatchedDestination({ minLength, flushMs: 250, sink: () => sink });
    for (const line of lines) destination.write(line);
    expect(sink.batches()).toEqual(batches);
    // A full batch is left to the sink's own buffering: no flush asked for.
    expect(sink.events.filter((e) => e === 'flush')).toEqual([]);
  });

  it('when a batch stays short of minLength, then flushMs after its first line it is handed on and the sink flushed', () => {
    const sink = recordingSink();
    const destination = createBatchedDestination({ minLength: 4096, flushMs: 250, sink: () => sink });
    destination.write('first\n');
    jest.advanceTimersByTime(200);
    destination.write('second\n');
    jest.advanceTimersByTime(49);
    expect(sink.events).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(sink.events).toEqual(['write first\nsecond\n', 'flush']);
    // The next line starts a new batch with its own timer.
    destination.write('third\n');
    jest.advanceTimersByTime(250);
    expect(sink.events).toEqual(['write first\nsecond\n', 'flush', 'write third\n', 'flush']);
  });

  it('when a full batch is handed on, then its timer is cancelled and a later short batch waits its own flushMs', () => {
    const sink = recordingSink();
    const destination = createBatchedDestination({ minLength: 4, flushMs: 250, sink: () => sink });
    destination.write('ab');
    jest.advanceTimersByTime(100);
    destination.write('cd');
    expect(sink.batches()).toEqual(['abcd']);
    destination.write('e');
    jest.advanceTimersByTime(150);
    expect(sink.batches()).toEqual(['abcd']);
    jest.advanceTimersByTime(100);
    expect(sink.batches()).toEqual(['abcd', 'e']);
  });

  it('when flushed, then the pending batch goes to the sink before the sink flushes, and the callback is the sink’s', () => {
    const sink = recordingSink();
    const destination = createBatchedDestination({ minLength: 4096, flushMs: 250, sink: () => sink });
    destination.write('pending\n');
    const done = jest.fn();
    destination.flush(done);
    expect(sink.events).toEqual(['write pending\n', 'flush']);
    expect(done).toHaveBeenCalledTimes(1);
    // Nothing is left for the timer.
    jest.advanceTimersByTime(250);
    expect(sink.events).toEqual(['write pending\n', 'flush']);
  });

  it('when flushed synchronously, then the sink writes what it holds, gets the pending batch, and writes again', () => {
    const sink = recordingSink();
    const destination = createBatchedDestination({ minLength: 4096, flushMs: 250, sink: () => sink });
    destination.write('last\n');
    destination.flushSync();
    expect(sink.events).toEqual(['flushSync', 'write last\n', 'flushSync']);
  });

  it('when flushed synchronously with the default sink, then every pending line is written without a background write', () => {
    // At exit no background write completes: here none ever does, so only synchronous writes count.
    const backgroundWrite = jest.spyOn(fs, 'write').mockImplementation(() => undefined);
    const dir = mkdtempSync(path.join(tmpdir(), 'batched-'));
    const file = path.join(dir, 'log');
    const fd = openSync(file, 'w');
    try {
      const destination = createBatchedDestination({ minLength: 4096, flushMs: 250, fd });
      const lines = Array.from({ length: 40 }, (_, i) => `line ${i}\n`);
      for (const line of lines) destination.write(line);
      destination.flushSync();
      expect(readFileSync(file, 'utf8')).toBe(lines.join(''));
      expect(backgroundWrite).not.toHaveBeenCalled();
    } finally {
      backgroundWrite.mockRestore();
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
