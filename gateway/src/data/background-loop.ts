import type { Logger } from '@tollgate/envelope';

/** One background job run again and again beside the API path (the webhook queue, sweeps, flushes). */
export interface LoopSpec {
  /** snake_case: the `loop` label in `/metrics` and the key in `/readyz`. */
  name: string;
  /** Time from one run's end to the next run (ms). */
  everyMs: number;
  job: () => Promise<void> | void;
  /** What a failed run means for the people running the gateway, for its log line. */
  failure: string;
  /** Run once as soon as the loop starts, not only after `everyMs`. */
  atStart?: boolean;
  /** Failed runs are retried after `everyMs` doubling up to this (default the larger of `everyMs` and 30 s). */
  maxBackoffMs?: number;
  /**
   * A run going on longer than this is logged and counted as stalled, and a loop with no success
   * for longer is stale in `/readyz` (default the larger of 3 × `everyMs` and 60 s).
   */
  staleAfterMs?: number;
}

/** How one loop stands, as `/readyz` shows it. */
export interface LoopState {
  name: string;
  everyMs: number;
  /** When a run last succeeded; null before the first. */
  lastSuccessMs: number | null;
  lastFailure: { atMs: number; error: string } | null;
  failuresInARow: number;
  /** When the run going on began; null between runs. */
  runningSinceMs: number | null;
  /** No run succeeded for longer than the loop's `staleAfterMs` (counted from its start until its first success). */
  stale: boolean;
}

/** Told of every run's end, and of runs that stall (the metrics). */
export interface LoopObserver {
  ended(name: string, outcome: 'ok' | 'failed', atMs: number): void;
  stalled(name: string): void;
  started(name: string, atMs: number): void;
}

/** One loop: never two runs at once, a failure logged and counted and retried with a backoff. */
export interface BackgroundLoop {
  readonly name: string;
  /** Runs the job now, or joins the run going on; resolves when it ends and never rejects. */
  run(): Promise<void>;
  /** Asks for a run soon (something changed): after the run going on, if any; coalesced. Only once started. */
  trigger(): void;
  start(): void;
  /** Stops the timer and waits for the run going on. */
  stop(): Promise<void>;
}

/** Every loop of a process, so `/readyz` and `/metrics` can show each one's last success. */
export interface BackgroundLoops {
  create(spec: LoopSpec): BackgroundLoop;
  /** The loops that started or ran. */
  states(): LoopState[];
}

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The wait before the next run: the period, or after failures in a row the period doubling up to the cap. */
export function nextRunDelayMs(everyMs: number, failuresInARow: number, maxBackoffMs: number): number {
  return failuresInARow ? Math.min(maxBackoffMs, everyMs * 2 ** (failuresInARow - 1)) : everyMs;
}

export function createBackgroundLoops(deps: { clock: () => number; logger?: Logger; observer?: LoopObserver }): BackgroundLoops {
  const { clock } = deps;
  // A loop shows once it started or ran (a room built but not run here, as billing's on an API-only gateway, does not).
  const loops: { shown: () => boolean; state: () => LoopState }[] = [];

  const create = (spec: LoopSpec): BackgroundLoop => {
    const maxBackoffMs = spec.maxBackoffMs ?? Math.max(spec.everyMs, 30_000);
    const staleAfterMs = spec.staleAfterMs ?? Math.max(3 * spec.everyMs, 60_000);
    let startedAtMs: number | null = null;
    let lastSuccessMs: number | null = null;
    let lastFailure: LoopState['lastFailure'] = null;
    let failuresInARow = 0;
    let runningSinceMs: number | null = null;
    let running: Promise<void> | undefined;
    let again = false;
    let timer: NodeJS.Timeout | undefined;
    let on = false;

    const once = async (): Promise<void> => {
      runningSinceMs = clock();
      // A run that never ends holds the loop (runs never overlap): it is said, and seen in /readyz.
      const watch = setTimeout(() => {
        deps.logger?.error({ loop: spec.name, running_ms: clock() - (runningSinceMs ?? clock()) }, `background loop ${spec.name} is stalled: its run has not ended; ${spec.failure}`);
        deps.observer?.stalled(spec.name);
      }, staleAfterMs);
      watch.unref();
      try {
        await spec.job();
        lastSuccessMs = clock();
        failuresInARow = 0;
        deps.observer?.ended(spec.name, 'ok', lastSuccessMs);
      } catch (err) {
        const atMs = clock();
        failuresInARow += 1;
        lastFailure = { atMs, error: errorText(err) };
        deps.logger?.warn({ loop: spec.name, err: lastFailure.error, failures_in_a_row: failuresInARow }, `background loop ${spec.name} failed: ${spec.failure}`);
        deps.observer?.ended(spec.name, 'failed', atMs);
      } finally {
        clearTimeout(watch);
        runningSinceMs = null;
      }
    };
    const schedule = (): void => {
      if (!on) return;
      clearTimeout(timer);
      timer = setTimeout(() => void run(), nextRunDelayMs(spec.everyMs, failuresInARow, maxBackoffMs));
      timer.unref();
    };
    // Runs asked for meanwhile are one more run after this one, in this loop: never a call from
    // within a run, whose stack would grow with every request (issue 35).
    const cycle = async (): Promise<void> => {
      do {
        again = false;
        await once();
        if (again) await new Promise((resolve) => setImmediate(resolve));
      } while (again && on);
      schedule();
    };
    const run = (): Promise<void> => {
      if (running) return running;
      const current = cycle().finally(() => {
        if (running === current) running = undefined;
      });
      running = current;
      return current;
    };

    const state = (): LoopState => {
      const since = lastSuccessMs ?? startedAtMs;
      return { name: spec.name, everyMs: spec.everyMs, lastSuccessMs, lastFailure, failuresInARow, runningSinceMs, stale: since !== null && clock() - since > staleAfterMs };
    };
    loops.push({ shown: () => startedAtMs !== null || lastSuccessMs !== null || lastFailure !== null, state });
    return {
      name: spec.name,
      run,
      trigger() {
        if (!on) return;
        if (running) again = true;
        else
          setImmediate(() => {
            if (on) void run();
          });
      },
      start() {
        if (on) return;
        on = true;
        startedAtMs = clock();
        deps.observer?.started(spec.name, startedAtMs);
        if (spec.atStart) void run();
        else schedule();
      },
      async stop() {
        on = false;
        clearTimeout(timer);
        timer = undefined;
        await running;
      },
    };
  };

  return { create, states: () => loops.filter((l) => l.shown()).map((l) => l.state()) };
}
