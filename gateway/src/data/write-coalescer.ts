import type { Writable } from 'node:stream';

/**
 * Returns `coalesce()`: call it before sending a command, and every command sent in the same
 * event-loop turn leaves in one `writev` (the socket is corked until the turn's check phase).
 *
 * Each admission is its own EVALSHA, but on loopback and in VMs a socket write is the dearest
 * part of a call. ioredis's auto-pipelining also batches writes, but it sends one batch at a time
 * and queues the next behind its reply, which held every command across GCs and promoted them
 * (see redis-client.ts). Corking batches the bytes only: each command is still sent at once and
 * answered on its own.
 */
export function createWriteCoalescer(stream: () => Writable | undefined): () => void {
  let corked: Writable | undefined;
  const uncork = (): void => {
    const s = corked;
    corked = undefined;
    s?.uncork();
  };
  return () => {
    if (corked) return;
    const s = stream();
    if (!s || s.destroyed) return;
    s.cork();
    corked = s;
    setImmediate(uncork);
  };
}
