import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts } from '@tollgate/envelope/test/processes';

/** `npm start`'s script (scripts/stack.ts) as a real process, with what it printed. */
export interface StackProcess {
  pid: number;
  /** The embedded store's file this stack's gateway keeps (its admin token is beside it), unless `env` names another. */
  storePath: string;
  /** Everything written to stdout and stderr so far. */
  output: () => string;
  /** Resolves once the output contains `text`; rejects with the output if the process ends first or the time runs out. */
  waitFor: (text: string, timeoutMs: number) => Promise<void>;
  /** Settles with the exit code (or the signal) once the process has ended. */
  exited: Promise<number | string>;
  /** Ends the script's whole process group, for a test that failed half-way. */
  killAll: () => void;
}

/** The variables that move the four ports of `npm start`. */
export type StackPorts = Record<'GATEWAY_PORT' | 'BURGER_PORT' | 'TOKEN_PORT' | 'LOGS_PORT', string>;

/** The variables that point every service at a loopback port nothing listens on: offline, without touching the internet. */
export type ClosedUpstreams = Record<'BURGER_DATA_URL' | 'TOKEN_UPSTREAM_URL' | 'LOGS_RPC_ETHEREUM', string>;

/** Four distinct free ports, as the variables `npm start` reads them. */
export async function freeStackPorts(): Promise<StackPorts> {
  return (await freeOfflineStack()).ports;
}

/**
 * The four ports and three closed upstreams, all seven distinct: an upstream port that was also a
 * deployable's would point a service at the stack itself instead of at nothing.
 */
export async function freeOfflineStack(): Promise<{ ports: StackPorts; upstreams: ClosedUpstreams }> {
  const [gateway, burger, token, logs, csv, indexer, rpc] = (await freePorts(7)).map(String) as [string, string, string, string, string, string, string];
  return {
    ports: { GATEWAY_PORT: gateway, BURGER_PORT: burger, TOKEN_PORT: token, LOGS_PORT: logs },
    upstreams: {
      BURGER_DATA_URL: `http://127.0.0.1:${csv}/big-mac-full-index.csv`,
      TOKEN_UPSTREAM_URL: `http://127.0.0.1:${indexer}`,
      LOGS_RPC_ETHEREUM: `http://127.0.0.1:${rpc}`,
    },
  };
}

/**
 * Runs scripts/stack.ts as `npm start` does (node with tsx, development conditions), or `npm start`
 * itself (`launcher: 'npm'`: npm, then scripts/bootstrap.mjs, then the stack), in its own process
 * group, with `env` over a copy of this environment stripped of the variables it reads.
 */
export function startStackProcess(root: string, env: Record<string, string>, args: string[] = [], launcher: 'node' | 'npm' = 'node'): StackProcess {
  const inherited = { ...process.env };
  for (const name of ['ADMIN_TOKEN', 'ADMIN_TOKEN_FILE', 'REDIS_URL', 'STORE_PATH', 'TOLLGATE_DEMO', 'TOLLGATE_VERBOSE', 'NO_COLOR', 'BURGER_DATA_URL', 'TOKEN_UPSTREAM_URL', 'PORT']) delete inherited[name];
  // Each stack its own embedded store: one gateway process may hold a store file at a time.
  const storePath = join(mkdtempSync(join(tmpdir(), 'tollgate-stack-')), 'tollgate.db');
  for (const name of Object.keys(inherited)) if (name.startsWith('LOGS_RPC_')) delete inherited[name];
  const [command, commandArgs] = launcher === 'npm' ? ['npm', ['start', '--silent', ...(args.length ? ['--', ...args] : [])]] : [process.execPath, ['--conditions=development', '--import', 'tsx', join(root, 'scripts', 'stack.ts'), ...args]];
  const child = spawn(command, commandArgs, {
    cwd: root,
    // No colour unless a test asks (FORCE_COLOR in `env`), and the store a test names (STORE_PATH in `env`) wins.
    env: { ...inherited, STORE_PATH: storePath, FORCE_COLOR: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let printed = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    printed += chunk.toString('utf8');
    for (const listener of listeners) listener();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  // 'close', not 'exit': the last lines may still be in the pipes when the process has exited.
  const exited = new Promise<number | string>((resolve) => child.on('close', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  let ended = false;
  void exited.then(() => {
    ended = true;
    for (const listener of listeners) listener();
  });

  const waitFor = (text: string, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      const done = (err?: Error) => {
        clearTimeout(timer);
        listeners.delete(check);
        if (err) reject(err);
        else resolve();
      };
      const check = () => {
        if (printed.includes(text)) done();
        else if (ended) done(new Error(`the stack script ended before printing ${JSON.stringify(text)}:\n${printed}`));
      };
      const timer = setTimeout(() => done(new Error(`no ${JSON.stringify(text)} after ${timeoutMs} ms:\n${printed}`)), timeoutMs);
      listeners.add(check);
      check();
    });

  return {
    pid: child.pid!,
    storePath: env.STORE_PATH ?? storePath,
    output: () => printed,
    waitFor,
    exited,
    killAll: () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone, with every process of its group.
      }
    },
  };
}

