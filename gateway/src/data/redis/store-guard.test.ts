import { createStoreGuard } from './store-guard';
import { StoreError } from '../stores';

const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('createStoreGuard', () => {
  it('fails a command nothing answers within the limit, and runs its undo', async () => {
    const guard = createStoreGuard({ timeoutMs: 30, connected: () => true });
    const undo = jest.fn();
    await expect(guard.run('admit', () => new Promise(() => undefined), undo)).rejects.toThrow(StoreError);
    expect(undo).toHaveBeenCalledTimes(1);
  });

  it('keeps waiting past the limit while the store answers commands sent before, up to the longest wait', async () => {
    const guard = createStoreGuard({ timeoutMs: 40, maxWaitMs: 400, connected: () => true });
    // Ten commands answered one every 20 ms, as a busy store works through a queue: the last is
    // answered at 200 ms, five limits after it was sent.
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => guard.run('admit', () => later(20 * (i + 1), i))));
    expect(answers).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const started = performance.now();
    const stuck = guard.run('admit', () => new Promise(() => undefined));
    const flowing = setInterval(() => void guard.run('ping', () => Promise.resolve()), 10);
    await expect(stuck).rejects.toThrow(/no answer within/);
    clearInterval(flowing);
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
  });

  it('fails a command a window after the store last answered anything, not at the longest wait', async () => {
    const guard = createStoreGuard({ timeoutMs: 40, maxWaitMs: 4_000, connected: () => true });
    const started = performance.now();
    const stuck = guard.run('admit', () => new Promise(() => undefined));
    // An answer to another command 20 ms after this one was sent, then nothing: the store was busy
    // until then, and silent for a window (40 ms) from then.
    await guard.run('ping', () => later(20, 1));
    await expect(stuck).rejects.toThrow(/no answer within/);
    // About 60 ms; it waited the longest wait (4 s) when the rule kept a command while any answer
    // had come since it was sent.
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('when this process itself was stalled past the window, gives the store one fresh window before judging it', async () => {
    let t = 0;
    const guard = createStoreGuard({ timeoutMs: 20, connected: () => true, now: () => t });
    // By the clock, the process did not run for 2 s after sending; the answer comes after the
    // window (20 ms) has passed, within the fresh one.
    const answered = guard.run('admit', () => {
      t += 2_000;
      return later(30, 'ok');
    });
    await expect(answered).resolves.toBe('ok');
    // Only once: a store silent through the fresh window too is judged.
    const silent = guard.run('admit', () => {
      t += 2_000;
      return new Promise(() => undefined);
    });
    await expect(silent).rejects.toThrow(/no answer within 2000 ms/);
  });

  it('opens after three timeouts in a row: calls then fail at once until the cool-down ends, and one success closes it', async () => {
    // The clock runs, and the cool-down is skipped by moving it on.
    let shift = 0;
    const guard = createStoreGuard({ timeoutMs: 5, connected: () => true, coolDownMs: 1_000, now: () => performance.now() + shift });
    const hang = () => new Promise<never>(() => undefined);
    for (let i = 0; i < 3; i++) await expect(guard.run('admit', hang)).rejects.toThrow(/no answer/);
    expect(guard.isOpen()).toBe(true);
    const command = jest.fn(() => Promise.resolve(1));
    await expect(guard.run('admit', command)).rejects.toThrow(/unavailable/);
    expect(command).not.toHaveBeenCalled();
    shift += 1_000;
    expect(guard.isOpen()).toBe(false);
    await expect(guard.run('admit', command)).resolves.toBe(1);
    expect(guard.isOpen()).toBe(false);
  });

  it('fails at once while the connection is down', async () => {
    const guard = createStoreGuard({ timeoutMs: 1_000, connected: () => false });
    const command = jest.fn(() => later(5, 1));
    const started = performance.now();
    await expect(guard.run('admit', command)).rejects.toThrow(/unavailable/);
    expect(command).not.toHaveBeenCalled();
    expect(performance.now() - started).toBeLessThan(100);
  });
});
