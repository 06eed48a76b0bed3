import { decodeCursor, encodeCursor, queryFingerprint, type CursorState } from './cursor.js';

const state: CursorState = { query: queryFingerprint(['logs', 1, [], []]), from: 120, afterLogIndex: 7, to: 900, spanHint: 64 };

describe('cursor', () => {
  it('when encoded and decoded for the same query, then it is unchanged', () => {
    expect(decodeCursor(encodeCursor(state), state.query)).toEqual(state);
  });

  it.each([
    ['another query', encodeCursor(state), queryFingerprint(['logs', 56, [], []]), /different query/],
    ['garbage', 'not-base64-json', state.query, /cursor must be a cursor returned/],
    ['from after to', encodeCursor({ ...state, from: 901 }), state.query, /cursor must be a cursor returned/],
    ['a negative index', encodeCursor({ ...state, afterLogIndex: -2 }), state.query, /cursor must be a cursor returned/],
    ['another version', Buffer.from(JSON.stringify([2, state.query, 1, -1, 2, 1])).toString('base64url'), state.query, /cursor must be a cursor returned/],
  ])('when the cursor is %s, then 400 names cursor', (_name, text, query, message) => {
    expect(() => decodeCursor(text, query)).toThrow(message);
  });

  it('when queries differ in topics, then fingerprints differ', () => {
    expect(queryFingerprint(['logs', 1, [], [['0x1']]])).not.toBe(queryFingerprint(['logs', 1, [], [['0x2']]]));
  });
});
