import { shownName } from './shown-name';

describe('shownName', () => {
  it.each([
    ['a plain name', 'weather', 'weather'],
    ['a line break', 'col\nour', 'col\\u000aour'],
    ['a carriage return and a tab', 'a\r\tb', 'a\\u000d\\u0009b'],
    ['a Unicode line separator', 'a\u2028b', 'a\\u2028b'],
    ['a C1 control and DEL', 'a\u0085\u007fb', 'a\\u0085\\u007fb'],
    ['letters beyond ASCII', 'Zürich–Ōsaka', 'Zürich–Ōsaka'],
    ['65 characters', 'x'.repeat(65), `${'x'.repeat(63)}…`],
    ['64 characters', 'x'.repeat(64), 'x'.repeat(64)],
  ])('when the name has %s, then it is shown as one line of at most 64 characters', (_case, name, shown) => {
    expect(shownName(name)).toBe(shown);
  });
});
