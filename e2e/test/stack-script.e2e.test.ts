import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { readFileSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { parseEnv } from '../../packages/envelope/src/parse-env';
import { secretSchema } from '../../packages/envelope/src/secret-schema';
import { childrenRunning } from '@tollgate/envelope/test/processes';
import { freeOfflineStack, freeStackPorts, startStackProcess } from './support/stack-process';
import type { StackProcess } from './support/stack-process';

// `npm start` as an operator meets it: scripts/stack.ts as a process, its output and exit code.
jest.setTimeout(60_000);

const ROOT = join(__dirname, '..', '..');
const BANNER_END = 'Ctrl-C stops everything.';

let running: StackProcess | undefined;
let holder: Server | undefined;

afterEach(async () => {
  running?.killAll();
  await running?.exited;
  running = undefined;
  await new Promise<void>((resolve) => (holder ? holder.close(() => resolve()) : resolve()));
  holder = undefined;
});

/** The gateway's port, as the banner names it. */
const gatewayPort = (banner: string): number => Number(/gateway {3}http:\/\/127\.0\.0\.1:(\d+)/.exec(banner)?.[1]);

/** Resolves once nothing listens on the port any more (rejects after `timeoutMs`). */
async function released(port: number, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (!open) return;
    if (Date.now() > deadline) throw new Error(`port ${port} is still held ${timeoutMs} ms after the stop`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('npm start (scripts/stack.ts)', () => {
  it("when a deployable's port is taken, then it names the port and the deployable and exits 1 before any banner", async () => {
    const { ports, upstreams } = await freeOfflineStack();
    holder = createServer();
    await new Promise<void>((resolve) => holder!.listen(Number(ports.BURGER_PORT), '127.0.0.1', resolve));
    running = startStackProcess(ROOT, { ...ports, ...upstreams });
    expect(await running.exited).toBe(1);
    expect(running.output()).toContain(`port ${ports.BURGER_PORT} (burger) is already in use`);
    expect(running.output()).toContain('set BURGER_PORT to a free port');
    expect(running.output()).not.toContain('Tollgate is up');
  });

  it('when two deployables are given the same port, then it says so by name and exits 1', async () => {
    const ports = await freeStackPorts();
    running = startStackProcess(ROOT, { ...ports, LOGS_PORT: ports.TOKEN_PORT });
    expect(await running.exited).toBe(1);
    expect(running.output()).toContain(`port ${ports.TOKEN_PORT} is given to both token and logs: set LOGS_PORT to another port`);
  });

  it('when ADMIN_TOKEN is a published placeholder, then it is refused by name and nothing starts', async () => {
    const ports = await freeStackPorts();
    running = startStackProcess(ROOT, { ...ports, ADMIN_TOKEN: 'change-me-admin-token' });
    expect(await running.exited).toBe(1);
    expect(running.output()).toMatch(/ADMIN_TOKEN must be a secret of at least 16 characters/);
    expect(running.output()).not.toContain('Tollgate is up');
    await expect(fetch(`http://127.0.0.1:${ports.GATEWAY_PORT}/healthz`)).rejects.toThrow();
  });

  it('when a deployable exits during start-up, then it is named with its own error line and the exit code is 1, without a banner', async () => {
    const { ports, upstreams } = await freeOfflineStack();
    running = startStackProcess(ROOT, { ...ports, ...upstreams, BURGER_REFRESH_SECONDS: '0' });
    expect(await running.exited).toBe(1);
    expect(running.output()).toMatch(/\[stack\] burger exited with code 1 during start-up: burger: BURGER_REFRESH_SECONDS must be/);
    expect(running.output()).not.toContain('Tollgate is up');
  });

  it('when every upstream is unreachable, then the banner names burger, token and logs and suggests --demo, with a generated admin token the gateway accepts', async () => {
    const { ports, upstreams } = await freeOfflineStack();
    running = startStackProcess(ROOT, { ...ports, ...upstreams });
    await running.waitFor(BANNER_END, 45_000);
    const banner = running.output().slice(running.output().indexOf('Tollgate is up'));
    expect(banner).toMatch(/^Tollgate is up, but burger, token, logs cannot reach their upstreams/);
    expect(banner).toContain(`burger   Big Mac CSV at ${upstreams.BURGER_DATA_URL}: `);
    expect(banner).toContain(`token    price indexer at ${upstreams.TOKEN_UPSTREAM_URL}: connection refused`);
    expect(banner).toContain(`logs     Ethereum JSON-RPC at ${upstreams.LOGS_RPC_ETHEREUM}: connection refused`);
    expect(banner).toContain('npm start -- --demo');
    // The token is kept beside the store, not printed: the banner says where, and how to use it.
    const file = join(dirname(running.storePath), 'admin-token');
    expect(banner).toContain(`admin     token in ${file} (mode 0600`);
    expect(banner).toContain(`metrics   need the admin token: curl -s http://127.0.0.1:${gatewayPort(banner)}/metrics -H "authorization: Bearer $(cat ${file})"`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const adminToken = readFileSync(file, 'utf8').trim();
    expect(() => parseEnv({ type: 'object', properties: { ADMIN_TOKEN: secretSchema() } }, { ADMIN_TOKEN: adminToken })).not.toThrow();
    const metrics = await fetch(`http://127.0.0.1:${gatewayPort(banner)}/metrics`, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(metrics.status).toBe(200);

    process.kill(running.pid, 'SIGINT');
    expect(await running.exited).toBe(0);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('when %s is sent to the npm start process alone, then every deployable stops cleanly and frees its port', async (signal) => {
    const { ports, upstreams } = await freeOfflineStack();
    running = startStackProcess(ROOT, { ...ports, ...upstreams }, [], 'npm');
    await running.waitFor(BANNER_END, 60_000);
    process.kill(running.pid, signal);
    await Promise.all(Object.values(ports).map((port) => released(Number(port))));
    await running.exited;
    expect(running.output()).toContain('[stack] stopping…');
    // Each stopped as on Ctrl-C, by its own graceful stop, not killed: none reported a failure.
    expect(running.output()).not.toMatch(/exited with code [1-9]|SIGKILL/);
  }, 120_000);

  it('when a deployable ends after the banner, then the stack stops and the exit code is 1, naming it', async () => {
    const { ports, upstreams } = await freeOfflineStack();
    running = startStackProcess(ROOT, { ...ports, ...upstreams });
    await running.waitFor(BANNER_END, 45_000);
    const [token] = childrenRunning(running.pid, join('services', 'token', 'src', 'main.ts'));
    expect(token).toBeDefined();
    process.kill(token!, 'SIGTERM');
    expect(await running.exited).toBe(1);
    expect(running.output()).toMatch(/\[stack\] token exited with code 0 while the stack was running\b.*; stopping everything/);
  });
});
