import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import concurrently from 'concurrently';
import type { CloseEvent, Command } from 'concurrently';
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
  adminToken?: string;
  /** Where the prefixed output goes; a pretty stream for people, a buffer for tests. */
  outputStream: NodeJS.WritableStream;
  /** How long each process may take to answer its readiness URL. */
  readyTimeoutMs?: number;
}

/** A running stack. */
export interface Stack {
  urls: Record<DeployableName, string>;
  adminToken: string;
  proxySecret: string;
  /** Stops every process (SIGTERM, so each drains and exits cleanly); resolves with each exit code. */
  stop: () => Promise<Record<string, number | string>>;
}

/**
 * Starts the gateway and the three services as separate processes under concurrently, each on its
 * port with a fresh proxy secret, and resolves once all four answer their health URL.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const port = (name: DeployableName) => options.ports?.[name] ?? DEPLOYABLES[name].port;
  const urls = Object.fromEntries(DEPLOYABLE_NAMES.map((n) => [n, `http://127.0.0.1:${port(n)}`])) as Record<DeployableName, string>;
  const proxySecret = randomBytes(24).toString('base64url');
  const adminToken = options.adminToken ?? randomBytes(24).toString('base64url');
  const tsx = require.resolve('tsx', { paths: [options.root] });

  const common = { PROXY_SECRET: proxySecret, NODE_ENV: 'development' };
  const envOf: Record<DeployableName, Record<string, string>> = {
    gateway: { ...common, PORT: String(port('gateway')), ADMIN_TOKEN: adminToken, BURGER_URL: urls.burger, TOKEN_URL: urls.token, LOGS_URL: urls.logs },
    burger: { ...common, PORT: String(port('burger')) },
    token: { ...common, PORT: String(port('token')) },
    logs: { ...common, PORT: String(port('logs')) },
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
  const exited = new Set<string>();
  // concurrently rejects with the same close events when a process fails; both ways are an answer here.
  const settled = result.then(
    (events) => events,
    (events: CloseEvent[]) => events,
  );
  for (const command of commands as Command[]) command.close.subscribe(() => exited.add(command.name));

  const stop = async () => {
    for (const command of commands as Command[]) if (!exited.has(command.name)) command.kill('SIGTERM');
    const events = await settled;
    return Object.fromEntries(events.map((e) => [e.command.name, e.exitCode]));
  };

  try {
    await Promise.all(
      DEPLOYABLE_NAMES.map((name) => waitUntilReady(`${urls[name]}/healthz`, options.readyTimeoutMs ?? 30_000, () => !exited.has(name))),
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { urls, adminToken, proxySecret, stop };
}
