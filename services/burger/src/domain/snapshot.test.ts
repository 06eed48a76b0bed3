import { parseBigMacCsv } from '../data/parse-big-mac-csv';
import { fixtureText } from '../../test/support/fixtures';
import { createSnapshot } from './snapshot';

describe('snapshot cache', () => {
  it('when the same key is asked twice, then the answer is built once and served as the same JSON', () => {
    const snapshot = createSnapshot(parseBigMacCsv(fixtureText('small-index.csv')), 0, 1);
    const build = jest.fn(() => ({ answer: 42 }));
    expect(snapshot.cached('k', build).toString()).toBe('{"answer":42}');
    expect(snapshot.cached('k', build).toString()).toBe('{"answer":42}');
    expect(build).toHaveBeenCalledTimes(1);
    expect(snapshot.cached('k', build)).toBe(snapshot.cached('k', build));
  });

  it('when building throws, then nothing is cached and the error reaches the caller', () => {
    const snapshot = createSnapshot(parseBigMacCsv(fixtureText('small-index.csv')), 0, 1);
    expect(() => snapshot.cached('k', () => { throw new Error('no such base'); })).toThrow('no such base');
    expect(snapshot.cached('k', () => 1).toString()).toBe('1');
  });
});
