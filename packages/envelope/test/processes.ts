/**
 * Ports and child processes for tests, benches and the offline demo of every deployable: a free
 * loopback port, a deployable's `src/main.ts` started as `pnpm dev` starts it, and waiting for a
 * URL to answer. No test-framework imports.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer } from 'node:net';

/** Whether `port` can be listened on at 127.0.0.1 now: bind, close. */
function tryPort(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(bound));
    });
  });
}

// A port handed to a child process is free from its pick until the child binds it, a second or two
// later. Picked by the kernel (port 0) it comes from the ephemeral range, where every other test's
// listen(0) and every outgoing connection also draw theirs: one took the port meanwhile (the token
// service's process test once fetched from another test's server, ECONNRESET). So these come from
// below that range, where neither draws, each Jest worker from a block of its own; a Redis Cluster
// node's bus port (+10000) stays below it too.
const POOL_LOW = 12_000;
const POOL_SIZE = 10_000;
const BLOCK = 1_000;
function ephemeralLow(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
}
const poolFits = POOL_LOW + POOL_SIZE + 10_000 <= ephemeralLow();
const block = POOL_LOW + ((Number(process.env.JEST_WORKER_ID ?? process.pid) % (POOL_SIZE / BLOCK)) * BLOCK);
let next = Math.floor(Math.random() * BLOCK);

/**
 * A loopback port that was free a moment ago, for a child process to listen on, from below the
 * ephemeral range (see above); given a `port`, that one if it is free (rejects with EADDRINUSE if
 * not). Where that range starts too low for the pool, the kernel's pick.
 */
export async function freePort(port = 0): Promise<number> {
  if (port !== 0 || !poolFits) return tryPort(port);
  for (let attempt = 0; attempt < BLOCK; attempt++) {
    const candidate = block + (next++ % BLOCK);
    const free = await tryPort(candidate).then(
      () => true,
      () => false,
    );
    if (free) return candidate;
  }
  return tryPort(0);
}

/** `count` loopback ports free a moment ago and distinct, as {@link freePort} picks them (each the next of its block). */
export async function freePorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < count) {
    const port = await freePort();
    if (!ports.includes(port)) ports.push(port);
  }
  return ports;
}

/** Options of {@link waitForOk}. */
export interface WaitOptions {
  attempts?: number;
  delayMs?: number;
  /** Settles when the process that should answer has gone: waiting stops with an error at once. */
  exited?: Promise<unknown>;
}

/** Polls `url` until it answers 2xx; a child process starting up refuses connections meanwhile. */
export async function waitForOk(url: string, options: WaitOptions = {}): Promise<void> {
  const { attempts = 200, delayMs = 50 } = options;
  let gone = false;
  void options.exited?.then(() => (gone = true));
  for (let i = 0; i < attempts && !gone; i += 1) {
    const res = await fetch(url).catch(() => undefined);
    if (res?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
  throw new Error(gone ? `the process serving ${url} exited before it answered` : `${url} did not answer 2xx within ${(attempts * delayMs) / 1000} s`);
}

/** A deployable running as its own process. */
export interface MainProcess {
  child: ChildProcessWithoutNullStreams;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Its exit code once it exits (null when killed by a signal). */
  exited: Promise<number | null>;
  /** SIGTERM, the graceful stop, then SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
}

/** How `pnpm dev` runs a deployable's TypeScript: tsx, with the `development` condition. */
export const THROUGH_TSX = ['--conditions=development', '--import', 'tsx'];

/**
 * Starts `script` (default `src/main.ts`) in `dir` through tsx with the `development` condition,
 * as `pnpm dev` does, with only PATH and `env` in its environment (none of the test's leaks in).
 * Given `nodeArgs`, runs `node ...nodeArgs` instead (a built file, started without tsx).
 */
export function startMain(dir: string, env: Record<string, string>, script = 'src/main.ts', nodeArgs: string[] = [...THROUGH_TSX, script]): MainProcess {
  const child = spawn(process.execPath, nodeArgs, {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end();
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  // 'close' comes once the pipes are read too, so output() then holds the last words; a grandchild
  // that inherited the pipes keeps them open past the exit, and then the exit code is enough.
  const exited = new Promise<number | null>((resolve) => {
    child.once('close', (code) => resolve(code));
    child.once('exit', (code) => setTimeout(() => resolve(code), 2_000).unref());
  });
  return {
    child,
    output: () => text,
    exited,
    async stop(graceMs = 10_000) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** The child processes of `pid` whose command line mentions `needle` (Linux: /proc). */
export function childrenRunning(pid: number, needle: string): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return children.filter((child) => {
    try {
      return readFileSync(`/proc/${child}/cmdline`, 'utf8').includes(needle);
    } catch {
      return false;
    }
  });
}
