import { ownEntry } from './own-entry';

describe('ownEntry', () => {
  const table: Record<string, number> = { usd: 1, eur: 2 };

  it('when the key is the table\'s own, then its value comes back', () => {
    expect(ownEntry(table, 'eur')).toBe(2);
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'])('when the key is the inherited %s, then nothing is found', (key) => {
    expect(ownEntry(table, key)).toBeUndefined();
  });
});
