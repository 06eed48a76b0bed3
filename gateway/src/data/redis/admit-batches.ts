import { StoreError } from '../stores';
import type { StoreGuard } from './store-guard';

/** A batch script's command: numkeys, then every call's keys, then every call's arguments; one reply per call. */
export type BatchCommand<R> = (...args: (string | number)[]) => Promise<R[]>;

/** One call in a batch: its keys and arguments, and what is told of it. */
export interface BatchedCall<R> {
  keys: readonly string[];
  args: readonly (string | number)[];
  /** The call's own reply, or why the batch failed (a `StoreError` from the guard). */
  settle: (error: Error | undefined, reply: R | undefined) => void;
  /** The call was told the store failed while the script may have charged it (no answer in time, an error reply, replies missing): what it did or will do is to be undone. */
  givenUp: () => void;
}

interface Batch<R> {
  command: BatchCommand<R>;
  keys: string[];
  args: (string | number)[];
  calls: BatchedCall<R>[];
}

/** Options of {@link createAdmitBatches}. */
export interface AdmitBatchesOptions {
  guard: StoreGuard;
  /** Runs the turn's sends (with the sockets corked: every batch of a turn leaves in one write). */
  sending: (send: () => void) => void;
  /** The most calls one command carries: Redis runs a script to its end before anything else. */
  maxCalls: number;
}

/**
 * Returns `add(command, group, call)`: the calls of one event-loop turn with the same command and
 * group (a Cluster slot: the group is then the account) are sent together, when the turn's
 * sockets have been read (`setImmediate`), as one command under one store guard. At saturation a
 * turn brings a call from each connection that spoke, and each command costs the gateway and Redis
 * about as much as the work of the calls in it; a call alone is sent alone, as soon as before (the
 * write coalescer already held every command to the same point of the turn).
 */
export function createAdmitBatches(options: AdmitBatchesOptions): <R>(command: BatchCommand<R>, group: string, call: BatchedCall<R>) => void {
  const { guard, sending, maxCalls } = options;
  // By command, then group; a batch that is full leaves the map for `full`, so the next call starts another.
  let open = new Map<BatchCommand<unknown>, Map<string, Batch<unknown>>>();
  let full: Batch<unknown>[] = [];
  let scheduled = false;

  const send = <R>(batch: Batch<R>): void => {
    const { calls } = batch;
    guard
      .run(
        'admit',
        () => batch.command(batch.keys.length, ...batch.keys, ...batch.args),
        () => {
          for (const call of calls) call.givenUp();
        },
      )
      .then(
        (replies) => {
          if (replies.length !== calls.length) return failAll(calls, new StoreError(`quota store admit failed: ${replies.length} replies for ${calls.length} calls`), true);
          for (let i = 0; i < calls.length; i++) calls[i]!.settle(undefined, replies[i]);
        },
        (error: Error) => failAll(calls, error, (error.cause as Error | undefined)?.name === 'ReplyError'),
      );
  };

  // Redis answered with an error or with the wrong number of replies: a script is no transaction, so
  // calls before the error may be charged, and each is given back (the guard already gave back those
  // it told failed without an answer, and a batch never sent needs nothing given back).
  const failAll = <R>(calls: BatchedCall<R>[], error: Error, giveBack: boolean): void => {
    for (const call of calls) {
      if (giveBack) call.givenUp();
      call.settle(error, undefined);
    }
  };

  const flush = (): void => {
    scheduled = false;
    const batches = full;
    full = [];
    for (const byGroup of open.values()) for (const batch of byGroup.values()) batches.push(batch);
    open = new Map();
    sending(() => {
      for (const batch of batches) send(batch);
    });
  };

  return <R>(command: BatchCommand<R>, group: string, call: BatchedCall<R>): void => {
    let byGroup = open.get(command as BatchCommand<unknown>);
    if (!byGroup) open.set(command as BatchCommand<unknown>, (byGroup = new Map()));
    let batch = byGroup.get(group) as Batch<R> | undefined;
    if (!batch) byGroup.set(group, (batch = { command, keys: [], args: [], calls: [] }) as Batch<unknown>);
    for (const key of call.keys) batch.keys.push(key);
    for (const arg of call.args) batch.args.push(arg);
    batch.calls.push(call);
    if (batch.calls.length >= maxCalls) {
      byGroup.delete(group);
      full.push(batch as Batch<unknown>);
    }
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
}
