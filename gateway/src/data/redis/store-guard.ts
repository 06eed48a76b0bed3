import { StoreError } from '../stores';

/** Options of {@link createStoreGuard}. */
export interface StoreGuardOptions {
  /** A command fails when the store has answered nothing for this many ms since it was sent. */
  timeoutMs: number;
  /** A command fails after this many ms in all, however busy the store; 8 × `timeoutMs` by default. */
  maxWaitMs?: number;
  /** Whether the connection is up right now (ioredis `status === 'ready'`). */
  connected: () => boolean;
  /** Consecutive timeouts after which the store counts as down. */
  openAfter?: number;
  /** How long (ms) the store counts as down before a call may try it again. */
  coolDownMs?: number;
  /** Called with each operation's duration in seconds (the latency histogram). */
  onLatency?: (operation: string, seconds: number) => void;
  /** Monotonic ms. */
  now?: () => number;
}

/** Runs store operations with a deadline and a breaker; see {@link createStoreGuard}. */
export interface StoreGuard {
  /** Runs one operation; rejects with a {@link StoreError} when the store is down, fails or is late. */
  run<T>(operation: string, command: () => Promise<T>, onTimeout?: () => void): Promise<T>;
  /** Whether calls currently fail at once (connection lost, or repeated timeouts). */
  isOpen(): boolean;
}

/**
 * The store's own deadline and breaker, in place of ioredis's `commandTimeout`.
 *
 * - A store is judged by whether it answers, not by how long one command took: a command fails
 *   when nothing at all has been answered for `timeoutMs` since it was sent (or after `maxWaitMs`
 *   in all). A burst of 1,000 new connections queues 1,000 commands; with a per-command timer a
 *   healthy Redis working through them gave 14% 503s (15% still on a loaded machine with the
 *   timer's check delayed to the next loop turn), while answers kept arriving all along.
 * - A late answer is confirmed after one more turn of the event loop: timers run before the loop
 *   reads sockets, so the timer's callback waits for `setImmediate`, which runs after the loop has
 *   read its sockets and an answer already there is taken.
 * - Silence is judged over time this process ran: a timer that fires more than a quarter of a
 *   window late (the process was stalled, and the store on the same host may have been too) counts
 *   the store's silence again from then, once. A test's first command failed that way in CI, its
 *   1 s timer having fired 733 ms late.
 * - A store known to be down fails at once: the connection is not up, or `openAfter` calls in a
 *   row timed out (the breaker opens for `coolDownMs`, then calls may try it again; one success closes it).
 * - `onTimeout` runs when the caller is told the operation failed without Redis saying so (no
 *   answer in time, or the connection dropped with the command in flight), so what it may have
 *   done or may still do can be undone (a charge, a created record).
 */
export function createStoreGuard(options: StoreGuardOptions): StoreGuard {
  const { timeoutMs, onLatency } = options;
  const maxWaitMs = options.maxWaitMs ?? timeoutMs * 8;
  const openAfter = options.openAfter ?? 3;
  const coolDownMs = options.coolDownMs ?? 1_000;
  const now = options.now ?? (() => performance.now());
  let timeouts = 0;
  let openUntil = 0;
  // When the store last answered anything (a reply or an error reply): it is alive while this moves.
  let lastAnswer = 0;

  const isOpen = (): boolean => !options.connected() || (timeouts >= openAfter && now() < openUntil);

  return {
    isOpen,
    run<T>(operation: string, command: () => Promise<T>, onTimeout?: () => void): Promise<T> {
      const started = now();
      if (isOpen()) {
        onLatency?.(operation, 0);
        return Promise.reject(new StoreError(`quota store ${operation} failed: the store is unavailable`));
      }
      return new Promise<T>((resolve, reject) => {
        let settled = false;
        const settle = (): boolean => {
          if (settled) return false;
          settled = true;
          clearTimeout(timer);
          onLatency?.(operation, (now() - started) / 1000);
          return true;
        };
        // When the timer is due, and when silence is counted from (the later of this and the last
        // answer to anything): a timer that fires well after it was due means this process did not
        // run meanwhile (a VM or container stall), and the store on the same host may not have run
        // either, so silence is counted again from then, once (`resumed` moves only then).
        let due = started + timeoutMs;
        let resumed = started;
        const check = (): void => {
          setImmediate(() => {
            if (settled) return;
            const t = now();
            if (resumed === started && t - due > timeoutMs / 4) {
              resumed = t;
              due = t + timeoutMs;
              timer = setTimeout(check, timeoutMs);
              return;
            }
            // Answers to commands sent before this one keep coming: the store is busy, not gone.
            const quietSince = Math.max(resumed, lastAnswer);
            if (t - quietSince < timeoutMs && t - started < maxWaitMs) {
              const wait = Math.max(1, Math.min(quietSince + timeoutMs, started + maxWaitMs) - t);
              due = t + wait;
              timer = setTimeout(check, wait);
              return;
            }
            if (!settle()) return;
            timeouts += 1;
            if (timeouts >= openAfter) openUntil = now() + coolDownMs;
            onTimeout?.();
            reject(new StoreError(`quota store ${operation} failed: no answer within ${Math.round(t - started)} ms`));
          });
        };
        let timer = setTimeout(check, timeoutMs);
        let pending: Promise<T>;
        try {
          pending = command();
        } catch (err) {
          pending = Promise.reject(err);
        }
        pending.then(
          (value) => {
            lastAnswer = now();
            if (!settle()) return;
            timeouts = 0;
            resolve(value);
          },
          (err: unknown) => {
            // An error reply (ioredis's ReplyError) is an answer; anything else (the connection
            // dropped) leaves it unknown whether the command ran, so it is undone like a timeout.
            const answered = (err as Error).name === 'ReplyError';
            if (answered) lastAnswer = now();
            if (!settle()) return;
            if (!answered) onTimeout?.();
            reject(new StoreError(`quota store ${operation} failed: ${(err as Error).message}`, { cause: err }));
          },
        );
      });
    },
  };
}
