import fc from 'fast-check';
import { WaitingLine } from './waiting-line';
import type { InLine } from './waiting-line';

interface Entry extends InLine {
  id: number;
}

const entry = (id: number): Entry => ({ id, lineNext: undefined, linePrev: undefined, inLine: false });

/** The line's entries from oldest to newest, by following the links, and checked backwards too. */
function walk(line: WaitingLine<Entry>): number[] {
  const ids: number[] = [];
  let last: InLine | undefined;
  for (let e: InLine | undefined = line.first(); e; e = e.lineNext) {
    expect(e.linePrev).toBe(last);
    ids.push((e as Entry).id);
    last = e;
  }
  return ids;
}

describe('WaitingLine', () => {
  it.each<[string, (line: WaitingLine<Entry>, e: Entry[]) => void, number[]]>([
    ['nothing', () => undefined, []],
    ['three pushed', (l, e) => [0, 1, 2].forEach((i) => l.push(e[i]!)), [0, 1, 2]],
    ['the oldest removed', (l, e) => ([0, 1, 2].forEach((i) => l.push(e[i]!)), l.remove(e[0]!)), [1, 2]],
    ['the middle one removed', (l, e) => ([0, 1, 2].forEach((i) => l.push(e[i]!)), l.remove(e[1]!)), [0, 2]],
    ['the newest removed', (l, e) => ([0, 1, 2].forEach((i) => l.push(e[i]!)), l.remove(e[2]!)), [0, 1]],
    ['the only one removed', (l, e) => (l.push(e[0]!), l.remove(e[0]!)), []],
    ['one pushed twice', (l, e) => (l.push(e[0]!), l.push(e[1]!), l.push(e[0]!)), [0, 1]],
    ['one removed that was never pushed', (l, e) => (l.push(e[0]!), l.remove(e[1]!)), [0]],
    ['one removed twice', (l, e) => ([0, 1, 2].forEach((i) => l.push(e[i]!)), l.remove(e[1]!), l.remove(e[1]!)), [0, 2]],
    ['one pushed again after it left (a retried call)', (l, e) => ([0, 1].forEach((i) => l.push(e[i]!)), l.remove(e[0]!), l.push(e[0]!)), [1, 0]],
  ])('when %s, then the line holds what is left, oldest first', (_case, act, expected) => {
    const line = new WaitingLine<Entry>();
    const entries = [0, 1, 2].map(entry);
    act(line, entries);
    expect(walk(line)).toEqual(expected);
  });

  it('when an entry leaves, then its own links are cleared, so a dead entry points to no live one', () => {
    const line = new WaitingLine<Entry>();
    const [a, b, c] = [0, 1, 2].map(entry) as [Entry, Entry, Entry];
    [a, b, c].forEach((e) => line.push(e));
    line.remove(b);
    expect([b.lineNext, b.linePrev, b.inLine]).toEqual([undefined, undefined, false]);
    line.remove(a);
    line.remove(c);
    expect([a.lineNext, c.linePrev, line.first()]).toEqual([undefined, undefined, undefined]);
  });

  it('when any sequence of pushes and removals runs, then the line matches an array kept in order', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 7 })), { maxLength: 200 }), (ops) => {
        const line = new WaitingLine<Entry>();
        const entries = Array.from({ length: 8 }, (_, i) => entry(i));
        const model: number[] = [];
        for (const [push, id] of ops) {
          if (push) {
            line.push(entries[id]!);
            if (!model.includes(id)) model.push(id);
          } else {
            line.remove(entries[id]!);
            if (model.includes(id)) model.splice(model.indexOf(id), 1);
          }
        }
        expect(walk(line)).toEqual(model);
        for (const e of entries) expect(e.inLine).toBe(model.includes(e.id));
      }),
    );
  });
});
