import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@tollgate/envelope/test/processes';

/** A throw-away redis-server on a loopback port. */
export interface RedisServer {
  url: string;
  port: number;
  /** Stops the server and waits for it to exit. */
  stop(): Promise<void>;
  /** Freezes the process (SIGSTOP): connections stay open, commands get no answer. */
  pause(): void;
  /** Thaws a paused server (SIGCONT). */
  resume(): void;
}

/** Options of {@link startRedisServer}. */
export interface StartRedisOptions {
  /** Port to listen on; a free one by default (give the old port to restart "the same" Redis). */
  port?: number;
  /** The binary; `/usr/bin/redis-server` or the one on PATH by default. */
  binary?: string;
  /** Persist with AOF into this folder (by default nothing is persisted). */
  aofDir?: string;
  /** More settings, as `redis-server` takes them (`['--enable-debug-command', 'local']`). */
  args?: string[];
}

/**
 * Starts `redis-server --port P --save '' --appendonly no` (or AOF into `aofDir`) on 127.0.0.1 and resolves once it
 * accepts connections. No test framework needed: the end-to-end test and the demo reuse it.
 */
export async function startRedisServer(options: StartRedisOptions = {}): Promise<RedisServer> {
  const binary = options.binary ?? (existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : 'redis-server');
  const port = options.port ?? (await freePort());
  // Its own folder even without AOF: a replica writes the copy it syncs from its master there,
  // which in the working directory would be a stray dump.rdb in the repository.
  const dir = options.aofDir ?? mkdtempSync(path.join(tmpdir(), 'tollgate-redis-'));
  const persistence = options.aofDir ? ['--appendonly', 'yes', '--dir', dir] : ['--appendonly', 'no', '--dir', dir];
  const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, ...(options.args ?? [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await redisReady(child, `redis-server on port ${port}`);
  let stopped = false;
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      if (stopped) return exited;
      stopped = true;
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
      if (!options.aofDir) rmSync(dir, { recursive: true, force: true });
    },
    pause: () => void child.kill('SIGSTOP'),
    resume: () => void child.kill('SIGCONT'),
  };
}

/**
 * Resolves once a spawned redis-server (stdout and stderr piped) says it accepts connections; rejects
 * with its last output if it exits first, fails to spawn, or is not ready in 10 s (then it is killed).
 */
export async function redisReady(child: ChildProcess, what: string): Promise<void> {
  let onEarlyExit: ((code: number | null) => void) | undefined;
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${what} did not start within 10 s: ${output.slice(-500)}`));
    }, 10_000);
    child.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new Error(err.code === 'ENOENT' ? 'redis-server not found: apt-get install -y redis-server' : `${what} failed: ${err.message}`));
    });
    onEarlyExit = (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with code ${code} before it was ready: ${output.slice(-500)}`));
    };
    // 'close', not 'exit': 'exit' can come before the pipes are read, and why it exited is in them.
    child.once('close', onEarlyExit);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  });
  if (onEarlyExit) child.off('close', onEarlyExit);
  child.stdout!.resume();
}
