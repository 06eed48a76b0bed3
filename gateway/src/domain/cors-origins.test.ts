import { parseCorsOrigins } from './cors-origins';

describe('parseCorsOrigins', () => {
  it.each<[string | undefined, string[]]>([
    [undefined, []],
    ['', []],
    [' https://a.example , ,https://b.example', ['https://a.example', 'https://b.example']],
  ])('%p → %p', (value, origins) => {
    expect(parseCorsOrigins(value)).toEqual(origins);
  });
});
