import { dayWindow, hourWindow, monthWindow, secondsUntil, ttlSeconds } from './windows';

describe('monthWindow', () => {
  it.each([
    ['2026-03-15T12:00:00.000Z', '2026-03', '2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z'],
    ['2026-03-31T23:59:59.999Z', '2026-03', '2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z'],
    ['2026-04-01T00:00:00.000Z', '2026-04', '2026-04-01T00:00:00.000Z', '2026-05-01T00:00:00.000Z'],
    ['2026-12-31T23:00:00.000Z', '2026-12', '2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
    ['2028-02-29T10:00:00.000Z', '2028-02', '2028-02-01T00:00:00.000Z', '2028-03-01T00:00:00.000Z'],
  ])('when now is %s, then the month is %s', (now, id, start, end) => {
    const w = monthWindow(Date.parse(now));
    expect(w).toEqual({ id, startMs: Date.parse(start), endMs: Date.parse(end) });
  });
});

describe('dayWindow', () => {
  it.each([
    ['2026-03-31T23:59:59.999Z', '2026-03-31', '2026-04-01T00:00:00.000Z'],
    ['2026-04-01T00:00:00.000Z', '2026-04-01', '2026-04-02T00:00:00.000Z'],
  ])('when now is %s, then the day is %s', (now, id, end) => {
    const w = dayWindow(Date.parse(now));
    expect(w.id).toBe(id);
    expect(w.endMs).toBe(Date.parse(end));
  });
});

describe('the last-window memo', () => {
  it('when the clock goes back and forth across boundaries, then each answer holds that time', () => {
    const times = ['2026-03-31T23:59:59.999Z', '2026-04-01T00:00:00.000Z', '2026-03-31T12:00:00.000Z', '2026-03-01T00:00:00.000Z', '2026-02-28T23:59:59.999Z', '2026-04-01T00:00:00.001Z'];
    for (const t of times) {
      const now = Date.parse(t);
      expect(monthWindow(now).id).toBe(t.slice(0, 7));
      expect(dayWindow(now).id).toBe(t.slice(0, 10));
    }
  });

  it('when asked twice within one window, then the same window comes back', () => {
    expect(monthWindow(Date.parse('2026-05-02T00:00:00Z'))).toBe(monthWindow(Date.parse('2026-05-30T00:00:00Z')));
  });
});

describe('hourWindow', () => {
  it('when now is inside an hour, then the id names that UTC hour', () => {
    expect(hourWindow(Date.parse('2026-03-31T23:59:59Z')).id).toBe('2026-03-31T23');
  });
});

describe('secondsUntil and ttlSeconds', () => {
  it.each([
    [1000, 0, 1],
    [1001, 0, 2],
    [1000, 999, 1],
    [1000, 1000, 1],
    [1000, 5000, 1],
  ])('when the end is %d ms and now %d ms, then %d s remain', (end, now, expected) => {
    expect(secondsUntil(end, now)).toBe(expected);
  });

  it('when a month has 10 s left, then its counter lives 10 s plus a day', () => {
    const now = Date.parse('2026-03-31T23:59:50Z');
    expect(ttlSeconds(monthWindow(now), now)).toBe(10 + 86_400);
  });
});
