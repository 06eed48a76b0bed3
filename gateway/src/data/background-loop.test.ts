import type { Logger } from '@tollgate/envelope';
import { createBackgroundLoops, nextRunDelayMs } from './background-loop';
import type { LoopObserver } from './background-loop';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A logger that keeps its lines, and an observer that keeps what it was told. */
function watched(start = 1_000_000) {
  let now = start;
  const lines: { level: string; fields: Record<string, unknown>; msg: string }[] = [];
  const keep = (level: string) => (fields: Record<string, unknown>, msg: string) => void lines.push({ level, fields, msg });
  const logger = { info: keep('info'), warn: keep('warn'), error: keep('error'), debug: keep('debug') } as unknown as Logger;
  const told: string[] = [];
  const observer: LoopObserver = {
    started: (name) => void told.push(`${name} started`),
    ended: (name, outcome) => void told.push(`${name} ${outcome}`),
    stalled: (name) => void told.push(`${name} stalled`),
  };
  const clock = { now: () => now, advance: (ms: number) => void (now += ms) };
  return { lines, told, clock, loops: createBackgroundLoops({ clock: clock.now, logger, observer }) };
}

describe('nextRunDelayMs', () => {
  it.each([
    [1_000, 0, 30_000, 1_000],
    [1_000, 1, 30_000, 1_000],
    [1_000, 2, 30_000, 2_000],
    [1_000, 5, 30_000, 16_000],
    [1_000, 6, 30_000, 30_000],
    [1_000, 2_000, 30_000, 30_000],
    [100, 7, 5_000, 5_000],
    [3_600_000, 3, 3_600_000, 3_600_000],
  ])('when the period is %i ms after %i failures in a row with a cap of %i ms, then the next run waits %i ms', (everyMs, failures, cap, expected) => {
    expect(nextRunDelayMs(everyMs, failures, cap)).toBe(expected);
  });
});

describe('background loops', () => {
  it('when a run throws, then it is logged and counted, the loop goes on, and the next run’s success is its last success', async () => {
    const { loops, lines, told, clock } = watched();
    let calls = 0;
    const loop = loops.create({
      name: 'flaky',
      everyMs: 10,
      failure: 'nothing is lost',
      job: async () => {
        calls += 1;
        if (calls === 1) throw new Error('the store did not answer');
      },
    });
    await loop.run();
    expect(lines).toEqual([{ level: 'warn', fields: { loop: 'flaky', err: 'the store did not answer', failures_in_a_row: 1 }, msg: 'background loop flaky failed: nothing is lost' }]);
    expect(told).toEqual(['flaky failed']);
    expect(loops.states()).toEqual([{ name: 'flaky', everyMs: 10, lastSuccessMs: null, lastFailure: { atMs: 1_000_000, error: 'the store did not answer' }, failuresInARow: 1, runningSinceMs: null, stale: false }]);
    clock.advance(5);
    await loop.run();
    expect(told).toEqual(['flaky failed', 'flaky ok']);
    expect(loops.states()[0]).toMatchObject({ lastSuccessMs: 1_000_005, failuresInARow: 0 });
  });

  it('when started, then it runs again and again on its timer, a throwing job included, until stopped', async () => {
    const { loops, told } = watched();
    let calls = 0;
    const loop = loops.create({
      name: 'ticking',
      everyMs: 5,
      maxBackoffMs: 5,
      atStart: true,
      failure: 'x',
      job: () => {
        calls += 1;
        if (calls % 2) throw new Error('odd');
      },
    });
    loop.start();
    for (let i = 0; i < 200 && calls < 6; i++) await sleep(5);
    await loop.stop();
    const stoppedAt = calls;
    expect(stoppedAt).toBeGreaterThanOrEqual(6);
    expect(told.slice(0, 4)).toEqual(['ticking started', 'ticking failed', 'ticking ok', 'ticking failed']);
    await sleep(30);
    expect(calls).toBe(stoppedAt);
  });

  it('when a job ends without waiting (nothing to do), then the loop is free again: a finished run is never mistaken for one going on', async () => {
    const { loops } = watched();
    let calls = 0;
    const loop = loops.create({ name: 'quick', everyMs: 1_000, failure: 'x', job: () => void (calls += 1) });
    await loop.run();
    await loop.run();
    await loop.run();
    expect(calls).toBe(3);
  });

  it('when it is asked to run 100,000 times during a run, then it runs once more, on a stack that does not grow', async () => {
    const { loops, lines } = watched();
    let calls = 0;
    let release!: () => void;
    const loop = loops.create({
      name: 'nudged',
      everyMs: 60_000,
      failure: 'x',
      job: async () => {
        calls += 1;
        if (calls === 1) await new Promise<void>((resolve) => (release = resolve));
      },
    });
    loop.start();
    const first = loop.run();
    for (let i = 0; i < 100_000; i++) loop.trigger();
    release();
    await first;
    await loop.stop();
    expect(calls).toBe(2);
    expect(lines).toEqual([]);
  });

  it('when a run joins the one going on, then the job runs once', async () => {
    const { loops } = watched();
    let calls = 0;
    const loop = loops.create({ name: 'joined', everyMs: 1_000, failure: 'x', job: async () => void (calls += 1, await sleep(10)) });
    await Promise.all([loop.run(), loop.run(), loop.run()]);
    expect(calls).toBe(1);
  });

  it('when a run never ends, then it is logged and counted as stalled, /readyz sees it running, and the loop is stale once nothing succeeded for its stale time', async () => {
    const { loops, lines, told, clock } = watched();
    const loop = loops.create({ name: 'wedged', everyMs: 10, staleAfterMs: 40, failure: 'webhooks wait', job: () => new Promise<void>(() => undefined) });
    loop.start();
    void loop.run();
    expect(loops.states()[0]).toMatchObject({ name: 'wedged', runningSinceMs: 1_000_000, stale: false, lastSuccessMs: null });
    await sleep(80);
    expect(told).toEqual(['wedged started', 'wedged stalled']);
    expect(lines).toEqual([{ level: 'error', fields: { loop: 'wedged', running_ms: 0 }, msg: 'background loop wedged is stalled: its run has not ended; webhooks wait' }]);
    clock.advance(41);
    expect(loops.states()[0]).toMatchObject({ stale: true });
  });

  it('when a loop was built but neither started nor run, then it is not listed', async () => {
    const { loops } = watched();
    loops.create({ name: 'idle', everyMs: 10, failure: 'x', job: () => undefined });
    const ran = loops.create({ name: 'ran', everyMs: 10, failure: 'x', job: () => undefined });
    expect(loops.states()).toEqual([]);
    await ran.run();
    expect(loops.states().map((s) => s.name)).toEqual(['ran']);
  });
});
