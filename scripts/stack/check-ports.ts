import { createServer } from 'node:net';
import { DEPLOYABLES } from './deployables';
import type { DeployableName } from './deployables';

/**
 * Resolves when each deployable's port can be listened on; rejects with one line per port that
 * cannot, naming the deployable and the variable that moves it. Without this a port held by
 * another stack answered the readiness check for ours, so the banner printed and then the stack died.
 */
export async function checkPorts(ports: Readonly<Record<DeployableName, number>>): Promise<void> {
  const problems: string[] = [];
  const owners = new Map<number, DeployableName>();
  for (const [name, port] of Object.entries(ports) as Array<[DeployableName, number]>) {
    const variable = DEPLOYABLES[name].portVariable;
    const other = owners.get(port);
    if (other) {
      problems.push(`port ${port} is given to both ${other} and ${name}: set ${variable} to another port`);
      continue;
    }
    owners.set(port, name);
    const code = await listenError(port);
    if (code === 'EADDRINUSE') {
      problems.push(`port ${port} (${name}) is already in use: stop what holds it (ss -ltnp 'sport = :${port}' shows it) or set ${variable} to a free port`);
    } else if (code) {
      problems.push(`port ${port} (${name}) cannot be listened on (${code}): set ${variable} to another port`);
    }
  }
  if (problems.length > 0) throw new Error(problems.join('\n'));
}

// Listens as the deployables do (envelope's serve: 0.0.0.0), so a holder on any IPv4 address counts.
function listenError(port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    server.listen({ port, host: '0.0.0.0', exclusive: true }, () => server.close(() => resolve(undefined)));
  });
}
