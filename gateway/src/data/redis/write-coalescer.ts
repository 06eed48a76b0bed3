import type { Writable } from 'node:stream';

/** The socket of a client, or a cluster client's sockets (one per master); undefined while there is none. */
export type Streams = () => Writable | undefined | readonly (Writable | undefined)[];

/**
 * Returns `coalesce()`: call it before sending a command, and every command sent in the same
 * event-loop turn leaves in one `writev` (the socket is corked until the turn's check phase).
 *
 * Each admission is its own EVALSHA, but on loopback and in VMs a socket write is the dearest
 * part of a call. ioredis's auto-pipelining also batches writes, but it sends one batch at a time
 * and queues the next behind its reply, which held every command across GCs and promoted them
 * (see redis-client.ts). Corking batches the bytes only: each command is still sent at once and
 * answered on its own. `streams` gives the socket, or a cluster's sockets (one per master).
 */
export function createWriteCoalescer(streams: Streams): () => void {
  // A cluster client has a socket per master: each is corked, since the turn's commands may go to any.
  let corked: Writable[] = [];
  const uncork = (): void => {
    const all = corked;
    corked = [];
    for (const s of all) s.uncork();
  };
  return () => {
    if (corked.length) return;
    corked = corkAll(streams);
    if (corked.length) setImmediate(uncork);
  };
}

/** Runs `work` with the sockets corked: the commands it sends leave in one `writev` a socket, when it returns. */
export function whileCorked(streams: Streams, work: () => void): void {
  const corked = corkAll(streams);
  try {
    work();
  } finally {
    for (const s of corked) s.uncork();
  }
}

function corkAll(streams: Streams): Writable[] {
  const corked: Writable[] = [];
  const found = streams();
  for (const s of Array.isArray(found) ? found : [found]) {
    if (!s || s.destroyed) continue;
    s.cork();
    corked.push(s);
  }
  return corked;
}
