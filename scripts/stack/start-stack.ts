import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import concurrently from 'concurrently';
import type { CloseEvent, Command } from 'concurrently';
import { checkPorts } from './check-ports';
import { DEPLOYABLES, DEPLOYABLE_NAMES } from './deployables';
import type { DeployableName } from './deployables';
import { waitUntilReady } from './wait-until-ready';

/** Options of {@link startStack}. */
export interface StackOptions {
  /** Repository root; entry points are relative to it. */
  root: string;
  /** Port per deployable; the architecture's defaults when absent. */
  ports?: Partial<Record<DeployableName, number>>;
  /** Extra environment per deployable (upstream URLs, LOGS_RPC_*, REDIS_URL...). */
  env?: Partial<Record<DeployableName, Record<string, string>>>;
  /** The operator's own admin token (ADMIN_TOKEN); unset: the one the gateway keeps in {@link adminTokenFile}. */
  adminToken?: string;
  /** Where the gateway keeps its admin token, relative to `root`; unset with no adminToken either: a fresh one is made and passed. */
  adminTokenFile?: string;
  /** Where the prefixed output goes; a pretty stream for people, a buffer for tests. */
  outputStream: NodeJS.WritableStream;
  /** How long each process may take to answer its readiness URL. */
  readyTimeoutMs?: number;
}

/** A deployable that ended, with its exit code (or signal) and the last line it wrote to stderr. */
export interface DeployableExit {
  name: DeployableName;
  exitCode: number | string;
  lastError?: string;
}

/** A running stack. */
export interface Stack {
  urls: Record<DeployableName, string>;
  /** The admin token, and the file the gateway keeps it in (when it does). */
  admin: { token: string; file?: string };
  proxySecret: string;
  /** Settles with the first deployable to end, whoever ended it: a stack without one is not a stack. */
  exited: Promise<DeployableExit>;
  /** Stops every process (SIGTERM, so each drains and exits cleanly); resolves with each exit code. */
  stop: () => Promise<Record<string, number | string>>;
}

/** A secret for ADMIN_TOKEN or PROXY_SECRET: 32 characters from 24 random bytes, well over the 16 the deployables require. */
export function generateSecret(): string {
  return randomBytes(24).toString('base64url');
}

/** One line saying which deployable ended and why, as far as its own last error line tells. */
export function describeExit({ name, exitCode, lastError }: DeployableExit, when: string): string {
  return `${name} exited with code ${exitCode} ${when}${lastError ? `: ${lastError}` : ' (its output above says why)'}`;
}

/**
 * Starts the gateway and the three services as separate processes under concurrently, each on its
 * port with a fresh proxy secret, and resolves once all four answer their health URL. Rejects,
 * naming the deployable, if a port is taken or a process ends before all four are up.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const ports = Object.fromEntries(DEPLOYABLE_NAMES.map((n) => [n, options.ports?.[n] ?? DEPLOYABLES[n].port])) as Record<DeployableName, number>;
  await checkPorts(ports);
  const urls = Object.fromEntries(DEPLOYABLE_NAMES.map((n) => [n, `http://127.0.0.1:${ports[n]}`])) as Record<DeployableName, string>;
  const proxySecret = generateSecret();
  // Without a token of the operator's or a file to keep one in (STORE_PATH=:memory:), one for this run.
  const passedToken = options.adminToken ?? (options.adminTokenFile ? undefined : generateSecret());
  const tokenFile = passedToken === undefined && options.adminTokenFile ? resolve(options.root, options.adminTokenFile) : undefined;
  const tsx = require.resolve('tsx', { paths: [options.root] });

  const common = { PROXY_SECRET: proxySecret, NODE_ENV: 'development' };
  const envOf: Record<DeployableName, Record<string, string>> = {
    gateway: { ...common, PORT: String(ports.gateway), ...(passedToken ? { ADMIN_TOKEN: passedToken } : {}), BURGER_URL: urls.burger, TOKEN_URL: urls.token, LOGS_URL: urls.logs },
    burger: { ...common, PORT: String(ports.burger) },
    token: { ...common, PORT: String(ports.token) },
    logs: { ...common, PORT: String(ports.logs) },
  };

  const { commands, result } = concurrently(
    DEPLOYABLE_NAMES.map((name) => ({
      name,
      // exec: the shell concurrently starts becomes the service, so signals and exit codes are the service's own.
      command: `exec "${process.execPath}" --conditions=development --import "${tsx.replace(/\\/g, '/')}" ${join(options.root, DEPLOYABLES[name].entry)}`,
      env: { ...envOf[name], ...options.env?.[name] },
      cwd: options.root,
    })),
    {
      prefix: 'name',
      padPrefix: true,
      prefixColors: ['magenta', 'green', 'yellow', 'cyan'],
      killOthersOn: ['failure'],
      outputStream: options.outputStream as NodeJS.WriteStream,
      handleInput: false,
    },
  );
  const exits = new Map<string, number | string>();
  // concurrently rejects with the same close events when a process fails; both ways are an answer here.
  const settled = result.then(
    (events) => events,
    (events: CloseEvent[]) => events,
  );
  const exited = new Promise<DeployableExit>((resolve) => {
    for (const command of commands as Command[]) {
      let lastError: string | undefined;
      // A deployable that cannot start says why in one stderr line; it is the most useful part of the failure.
      command.stderr.subscribe((chunk: Buffer) => {
        const line = chunk.toString('utf8').split('\n').map((l) => l.trim()).filter(Boolean).at(-1);
        if (line) lastError = line.slice(0, 300);
      });
      command.close.subscribe((event: CloseEvent) => {
        exits.set(command.name, event.exitCode);
        resolve({ name: command.name as DeployableName, exitCode: event.exitCode, lastError });
      });
    }
  });

  const stop = async () => {
    for (const command of commands as Command[]) if (!exits.has(command.name)) command.kill('SIGTERM');
    const events = await settled;
    return Object.fromEntries(events.map((e) => [e.command.name, e.exitCode]));
  };

  try {
    // The first exit decides, not the first failed health check: when one deployable fails,
    // concurrently stops the others, and their health checks fail too.
    await Promise.race([
      Promise.all(DEPLOYABLE_NAMES.map((name) => waitUntilReady(`${urls[name]}/healthz`, options.readyTimeoutMs ?? 30_000, () => exits.size === 0))),
      exited.then((exit) => Promise.reject(new Error(describeExit(exit, 'during start-up')))),
    ]);
  } catch (err) {
    await stop();
    throw err;
  }
  // Ready, the gateway has read or made its token file.
  const admin = tokenFile ? { token: readFileSync(tokenFile, 'utf8').trim(), file: tokenFile } : { token: passedToken! };
  return { urls, admin, proxySecret, exited, stop };
}
