import { createBatchedDestination } from './batched-destination';
import type { BatchSink } from './batched-destination';

/** A sink that records what reaches it: batches written, and flushes asked for. */
function recordingSink(): BatchSink & { batches: string[]; flushes: string[] } {
  const batches: string[] = [];
  const flushes: string[] = [];
  return {
    batches,
    flushes,
    write: (batch: string) => batches.push(batch),
    flush: (cb) => {
      flushes.push('flush');
      cb?.();
    },
    flushSync: () => void flushes.push('flushSync'),
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
    expect(sink.batches).toEqual(batches);
  });

  it('when a batch stays short of minLength, then it is written flushMs after its first line, in order', () => {
    const sink = recordingSink();
    const destination = createBatchedDestination({ minLength: 4096, flushMs: 250, sink: () => sink });
    destination.write('first\n');
    jest.advanceTimersByTime(200);
    destination.write('second\n');
    jest.advanceTimersByTime(49);
    expect(sink.batches).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(sink.batches).toEqual(['first\nsecond\n']);
    // The next line starts a new batch with its own timer.
    destination.write('third\n');
    jest.advanceTimersByTime(250);
    expect(sink.batches).toEqual(['first\nsecond\n', 'third\n']);
  });

  it('when a full batch is written, then its timer is cancelled and a later short batch waits its own flushMs', () => {
    const sink = recordingSink();
    const destination = createBatchedDestination({ minLength: 4, flushMs: 250, sink: () => sink });
    destination.write('ab');
    jest.advanceTimersByTime(100);
    destination.write('cd');
    expect(sink.batches).toEqual(['abcd']);
    destination.write('e');
    jest.advanceTimersByTime(150);
    expect(sink.batches).toEqual(['abcd']);
    jest.advanceTimersByTime(100);
    expect(sink.batches).toEqual(['abcd', 'e']);
  });

  it('when flushed, then the pending batch goes to the sink before the sink flushes, and the callback runs', () => {
    const sink = recordingSink();
    const destination = createBatchedDestination({ minLength: 4096, flushMs: 250, sink: () => sink });
    destination.write('pending\n');
    const done = jest.fn();
    destination.flush(done);
    expect(sink.batches).toEqual(['pending\n']);
    expect(sink.flushes).toEqual(['flush']);
    expect(done).toHaveBeenCalledTimes(1);
    destination.flushSync();
    expect(sink.batches).toEqual(['pending\n']);
    expect(sink.flushes).toEqual(['flush', 'flushSync']);
  });
});
