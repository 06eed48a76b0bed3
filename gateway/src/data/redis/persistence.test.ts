import { persistenceOf, weakestPersistence } from './persistence';

describe('persistenceOf', () => {
  it.each<[string | undefined, string | undefined, string]>([
    ['no', '', 'none'],
    ['yes', '', 'aof'],
    ['no', '3600 1 300 100 60 10000', 'rdb'],
    ['yes', '3600 1', 'aof+rdb'],
    ['no', '   ', 'none'],
    [undefined, '', 'unknown'],
    ['yes', undefined, 'unknown'],
  ])('appendonly %p, save %p → %p', (appendonly, save, expected) => {
    expect(persistenceOf(appendonly, save)).toBe(expected);
  });
});

describe('weakestPersistence', () => {
  it.each<[string[], string]>([
    [['aof', 'aof', 'aof'], 'aof'],
    [['aof+rdb', 'aof', 'rdb'], 'rdb'],
    [['aof', 'unknown', 'aof'], 'unknown'],
    [['aof', 'none', 'unknown'], 'none'],
    [[], 'unknown'],
  ])('a cluster whose masters say %p persists as %p', (each, expected) => {
    expect(weakestPersistence(each as Parameters<typeof weakestPersistence>[0])).toBe(expected);
  });
});
