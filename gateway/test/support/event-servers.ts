import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEchoUpstream } from './echo-upstream';
import type { EchoUpstream } from './echo-upstream';
import { startRedisServer } from './redis-server';
import type { RedisServer } from './redis-server';
import { startSmtpInbox } from './smtp-inbox';
import type { SmtpInbox } from './smtp-inbox';
import { useStarted } from './use-started';

/** What the in-process events tests stand on: a service, a Redis, a mail server and a scratch folder. */
export interface EventServers {
  upstream: EchoUpstream;
  redis: RedisServer;
  inbox: SmtpInbox;
  /** A folder for SQLite files, removed after the tests. */
  dir: string;
  close(): Promise<void>;
}

/** Starts them once for a test file (see useStarted). */
export function useEventServers(): EventServers {
  return useStarted(async () => {
    const [upstream, redis, inbox] = await Promise.all([startEchoUpstream(), startRedisServer(), startSmtpInbox()]);
    const dir = mkdtempSync(path.join(tmpdir(), 'tollgate-events-'));
    return {
      upstream,
      redis,
      inbox,
      dir,
      async close() {
        await Promise.all([upstream.close(), redis.stop(), inbox.close()]);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
}
