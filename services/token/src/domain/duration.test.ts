import { formatDuration, parsePeriod } from './duration';

describe('parsePeriod', () => {
  it.each([
    ['4h', { text: '4h', seconds: 14_400 }],
    ['1d', { text: '1d', seconds: 86_400 }],
    ['d', { text: '1d', seconds: 86_400 }],
    ['2W', { text: '2w', seconds: 1_209_600 }],
    ['15m', { text: '15m', seconds: 900 }],
    ['600', undefined],
    ['0d', undefined],
    ['1y', undefined],
    ['', undefined],
  ])('when the period is %p, then it parses to %p', (value, period) => {
    expect(parsePeriod(value)).toEqual(period);
  });
});

describe('formatDuration', () => {
  it.each([
    [21_600, '6h'],
    [604_800, '1w'],
    [900, '15m'],
    [86_400, '1d'],
    [45, '45'],
  ])('when %i seconds are written, then they read %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });
});
