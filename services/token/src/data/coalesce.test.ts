import { createCoalescer } from './coalesce';

describe('createCoalescer', () => {
  it('when identical keys overlap, then one call is shared; a different key or a later call runs anew', async () => {
    const coalesce = createCoalescer<number>();
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const call = async () => {
      calls += 1;
      await gate;
      return calls;
    };
    const shared = Array.from({ length: 10 }, () => coalesce('a', call));
    const other = coalesce('b', call);
    release();
    expect(await Promise.all(shared)).toEqual(Array(10).fill(2));
    await other;
    expect(calls).toBe(2);
    await coalesce('a', call);
    expect(calls).toBe(3);
  });

  it('when the shared call fails, then every waiter gets the error and the key is freed', async () => {
    const coalesce = createCoalescer<number>();
    const failing = () => Promise.reject(new Error('boom'));
    await expect(Promise.all([coalesce('a', failing), coalesce('a', failing)])).rejects.toThrow('boom');
    expect(await coalesce('a', async () => 7)).toBe(7);
  });
});
