/**
 * Ending an ioredis client (one Redis, a Cluster, a subscriber) without leaving a timer behind.
 *
 * ioredis's `disconnect()` ends the socket and starts a 2 s timer (`disconnectTimeout`) that destroys
 * it if it has not closed by then; only the socket's `close` event clears that timer. Called on a
 * client whose socket has already closed (status `end`: after `quit()`, a first `disconnect()`, or
 * a connection with no retries whose server went away), that `close` never comes again and the
 * timer holds the process for 2 s. In Jest that outlived the test file that made it: when the file
 * was the last a worker ran, the worker could not exit within Jest's 500 ms and was force-exited
 * ("A worker process has failed to exit gracefully", gateway/docs/testing.md).
 */

/** What both helpers need of a client: ioredis's Redis and Cluster both fit. */
export interface ClosableRedis {
  status: string;
  quit(): Promise<unknown>;
  disconnect(): void;
}

/** Drops the connection at once, unless the client has already ended (then there is nothing to drop). */
export function disconnectRedis(client: ClosableRedis): void {
  if (client.status !== 'end') client.disconnect();
}

/**
 * QUIT (the replies already asked for still come), or, when the client cannot send it (its
 * connection is lost, or it was closed before), the connection dropped; harmless when called twice.
 * A client waiting to reconnect has no live socket either, and ioredis offers no way to stop it
 * without its timer: that one still holds the process for up to 2 s.
 */
export async function closeRedis(client: ClosableRedis): Promise<void> {
  if (client.status === 'end') return;
  await client.quit().catch(() => disconnectRedis(client));
}
