import { changeWindowSeconds, pickPoints, priceChange } from './price-change';

describe('pickPoints', () => {
  const start = 1_000_000;
  const end = start + 86_400;
  it.each([
    ['unsorted points, one near each end', [{ timestamp: end - 100, price: 2 }, { timestamp: start + 50, price: 1 }], { start: { timestamp: start + 50, price: 1 }, end: { timestamp: end - 100, price: 2 } }],
    ['two points near the start', [{ timestamp: start + 500, price: 3 }, { timestamp: start - 10, price: 1 }], { start: { timestamp: start - 10, price: 1 }, end: undefined }],
    ['a point outside both windows', [{ timestamp: start + 40_000, price: 1 }], { start: undefined, end: undefined }],
    ['no points', [], { start: undefined, end: undefined }],
  ])('when given %s, then each end gets its nearest point in the window', (_case, points, expected) => {
    expect(pickPoints(points, start, end, 21_600)).toEqual(expected);
  });
});

describe('priceChange', () => {
  it.each([
    [100, 110, 10],
    [200, 150, -25],
    [5, 5, 0],
    [0, 1, null],
  ])('when the price goes from %p to %p, then the change is %p %', (from, to, percent) => {
    const change = priceChange({ timestamp: 1, price: from }, { timestamp: 2, price: to });
    if (percent === null) expect(change.change_percent).toBeNull();
    else expect(change.change_percent).toBeCloseTo(percent, 10);
  });
});

describe('changeWindowSeconds', () => {
  it.each([
    [604_800, 21_600],
    [86_400, 21_600],
    [3600, 900],
    [60, 15],
  ])('when the period is %i s, then the window is %i s', (period, window) => {
    expect(changeWindowSeconds(period)).toBe(window);
  });
});
