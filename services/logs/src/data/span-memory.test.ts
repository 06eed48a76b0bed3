import { createSpanMemory } from './span-memory.js';

describe('createSpanMemory', () => {
  it.each([
    [[1000], 1000],
    [[1000, 500], 500],
    [[500, 1000], 500],
    [[], undefined],
  ])('when spans %j are learned, then %s is kept', (spans, expected) => {
    const memory = createSpanMemory();
    for (const span of spans) memory.lower('ethereum', span);
    expect(memory.get('ethereum')).toBe(expected);
    expect(memory.get('base')).toBeUndefined();
  });
});
