import { spawn } from 'node:child_process';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '@tollgate/envelope/test/processes';

/** A server under test running as its own process. */
export interface ChildServer {
  url: string;
  pid: number;
  /** Resident set size now, in MB (from /proc). */
  rssMb(): number;
  /** CPU seconds (user + system) the process has used so far. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

const GATEWAY_DIR = path.resolve(__dirname, '..');

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    http
      .get({ host: '127.0.0.1', port, path: '/healthz' }, (res) => {
        res.resume();
        resolve(true);
      })
      .on('error', () => resolve(false));
  });
}

// /proc/<pid>/stat counts in clock ticks, 100 a second on Linux.
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system) a process has used, from /proc: unlike requests per second on a
 * shared machine, the CPU a server spends per call does not depend on what else is running.
 */
export function processCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  // After "pid (comm) ", utime and stime are the 12th and 13th fields.
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Options of {@link startChild}. */
export interface StartOptions {
  /** A command that runs node, e.g. `['valgrind', '--tool=callgrind']`; node runs directly by default. */
  wrapper?: string[];
  /** How long it may take to answer (ms). */
  startTimeoutMs?: number;
  /** How long `stop()` waits after SIGTERM before SIGKILL (ms). */
  stopTimeoutMs?: number;
}

/**
 * Spawns `node <script>` with PORT set and resolves once it answers: a `.js` file (the built
 * gateway, as deployed) runs as it is, a `.ts` one through tsx with the development condition.
 */
export async function startChild(script: string, env: Record<string, string>, nodeFlags: string[] = [], options: StartOptions = {}): Promise<ChildServer> {
  const port = await freePort();
  const loader = script.endsWith('.ts') ? ['--conditions=development', '--import', 'tsx'] : [];
  const [command, ...prefix] = [...(options.wrapper ?? []), process.execPath];
  const child = spawn(command as string, [...prefix, ...nodeFlags, ...loader, script], {
    cwd: GATEWAY_DIR,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', PORT: String(port), ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) => child.once('exit', (code) => resolve(void (exitCode = code))));
  const deadline = Date.now() + (options.startTimeoutMs ?? 10_000);
  while (!(await answers(port))) {
    if (exitCode !== undefined || Date.now() > deadline) throw new Error(`${script} did not start (exit ${exitCode})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    rssMb: () => {
      const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
      return Number(kb ?? 0) / 1024;
    },
    cpuSeconds: () => processCpuSeconds(child.pid ?? 0),
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), options.stopTimeoutMs ?? 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
