import { Writable } from 'node:stream';
import { createWriteCoalescer } from './write-coalescer';

/** A stream that records each batch it is asked to write: `write` gets one chunk, `writev` several. */
function recordingStream(): { stream: Writable; batches: string[][] } {
  const batches: string[][] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      batches.push([chunk.toString()]);
      callback();
    },
    writev(chunks, callback) {
      batches.push(chunks.map((c) => (c.chunk as Buffer).toString()));
      callback();
    },
  });
  return { stream, batches };
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('createWriteCoalescer', () => {
  it('sends the commands of one event-loop turn in one batch, and the next turn in another', async () => {
    const { stream, batches } = recordingStream();
    const coalesce = createWriteCoalescer(() => stream);
    for (const command of ['a', 'b', 'c']) {
      coalesce();
      stream.write(command);
    }
    expect(batches).toEqual([]);
    await nextTurn();
    expect(batches).toEqual([['a', 'b', 'c']]);
    coalesce();
    stream.write('d');
    await nextTurn();
    expect(batches).toEqual([['a', 'b', 'c'], ['d']]);
  });

  it('leaves the stream alone when there is none or it is destroyed', async () => {
    const { stream, batches } = recordingStream();
    expect(() => createWriteCoalescer(() => undefined)()).not.toThrow();
    stream.destroy();
    createWriteCoalescer(() => stream)();
    expect(stream.writableCorked).toBe(0);
    await nextTurn();
    expect(batches).toEqual([]);
  });

  it('uncorks the stream it corked, even when the client has since swapped streams (a reconnect)', async () => {
    const first = recordingStream();
    const second = recordingStream();
    let current = first.stream;
    const coalesce = createWriteCoalescer(() => current);
    coalesce();
    first.stream.write('before');
    current = second.stream;
    coalesce();
    second.stream.write('after');
    await nextTurn();
    expect(first.batches).toEqual([['before']]);
    expect(second.stream.writableCorked).toBe(0);
    expect(second.batches).toEqual([['after']]);
  });

  it("corks every socket of a cluster client (one per master) for the turn, and uncorks each", async () => {
    const nodes = [recordingStream(), recordingStream(), recordingStream()];
    const coalesce = createWriteCoalescer(() => [...nodes.map((n) => n.stream), undefined]);
    for (const [i, command] of ['a', 'b', 'c', 'd'].entries()) {
      coalesce();
      nodes[i % 3]!.stream.write(command);
    }
    expect(nodes.map((n) => n.batches)).toEqual([[], [], []]);
    await nextTurn();
    expect(nodes.map((n) => n.batches)).toEqual([[['a', 'd']], [['b']], [['c']]]);
    expect(nodes.map((n) => n.stream.writableCorked)).toEqual([0, 0, 0]);
  });
});
