import { matchesTopics, parseAddresses, parseBlockRef, parseTopic, topicFilter } from './query-input.js';

const A = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const T = `0x${'ab'.repeat(32)}`;
const U = `0x${'cd'.repeat(32)}`;

describe('parseAddresses', () => {
  it.each([
    [A, [A.toLowerCase()]],
    [`${A}, ${A.toLowerCase()}`, [A.toLowerCase()]],
    [`${A},0x${'11'.repeat(20)}`, [A.toLowerCase(), `0x${'11'.repeat(20)}`]],
  ])('when given %s, then %j', (value, expected) => {
    expect(parseAddresses('address', value)).toEqual(expected);
  });

  it.each([['0x123', /got '0x123'/], [`${A},`, /without empty items/], [Array(101).fill(A).map((a, i) => a.slice(0, -2) + String(i % 100).padStart(2, '0')).join(','), /at most 100/]])(
    'when given %s, then 400 says %s',
    (value, message) => {
      expect(() => parseAddresses('address', value)).toThrow(message);
    },
  );
});

describe('parseTopic', () => {
  it.each([
    [T, [T]],
    [`${T},${U.toUpperCase().replace('0X', '0x')}`, [T, U]],
    [A, [`0x000000000000000000000000${A.slice(2).toLowerCase()}`]],
  ])('when given %s, then %j', (value, expected) => {
    expect(parseTopic('topic1', value)).toEqual(expected);
  });

  it.each(['0x12', 'hello', `${T}ff`])('when given %s, then 400 names topic1', (value) => {
    expect(() => parseTopic('topic1', value)).toThrow(/topic1 must be 0x-prefixed 32-byte hex topics/);
  });
});

describe('parseBlockRef', () => {
  it.each([
    ['0', 0],
    ['19000000', 19_000_000],
    ['0x10', 16],
    ['latest', 'latest'],
    ['Finalized', 'finalized'],
    ['safe', 'safe'],
  ])('when given %s, then %j', (value, expected) => {
    expect(parseBlockRef('from_block', value)).toEqual(expected);
  });

  it.each(['-1', 'pending', 'earliest', '1.5', '0x', '99999999999999999999'])('when given %s, then 400 names the parameter', (value) => {
    expect(() => parseBlockRef('from_block', value)).toThrow(/from_block must be a block number/);
  });
});

describe('topicFilter and matchesTopics', () => {
  it.each([
    [[[T], undefined, undefined, undefined], [[T]]],
    [[undefined, undefined, [U], undefined], [null, null, [U]]],
    [[undefined, [], undefined, undefined], []],
  ])('when positions are %j, then the filter is %j', (positions, expected) => {
    expect(topicFilter(positions as never)).toEqual(expected);
  });

  it.each([
    [[T, U], [[T]], true],
    [[T, U], [[U]], false],
    [[T, U], [null, [T, U]], true],
    [[T], [null, [U]], false],
    [[T.toUpperCase().replace('0X', '0x')], [[T]], true],
  ])('when topics %j meet filter %j, then %s', (topics, filter, expected) => {
    expect(matchesTopics(topics as never, filter as never)).toBe(expected);
  });
});
