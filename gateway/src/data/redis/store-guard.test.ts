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

  it('opens after three timeouts in a row: calls then fail at once until the cool-down ends, and one success closes it', async () => {
    let t = 0;
    const guard = createStoreGuard({ timeoutMs: 5, connected: () => true, coolDownMs: 1_000, now: () => t });
    const hang = () => new Promise<never>(() => undefined);
    for (let i = 0; i < 3; i++) {
      const pending = guard.run('admit', hang);
      t += 10;
      await expect(pending).rejects.toThrow(/no answer/);
    }
    expect(guard.isOpen()).toBe(true);
    const command = jest.fn(() => Promise.resolve(1));
    await expect(guard.run('admit', command)).rejects.toThrow(/unavailable/);
    expect(command).not.toHaveBeenCalled();
    t += 1_000;
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
