import { createServer } from 'node:net';
import path from 'node:path';
import { freePort, freePorts, startMain, waitForOk, type MainProcess } from '@tollgate/envelope/test/processes';
import { startAnvil, type Anvil } from '../support/anvil.js';

// A real anvil and the real composition root in a child process.
jest.setTimeout(60_000);

const root = path.resolve(__dirname, '../..');
let anvil: Anvil;

// Every process a test starts is stopped after it, pass or fail: one a failed test left running
// (a bad variable it did not exit on) would keep jest from exiting.
const started: MainProcess[] = [];
const startService = (env: Record<string, string>): MainProcess => {
  const service = startMain(root, { LOG_LEVEL: 'warn', ...env });
  started.push(service);
  return service;
};
const waitForHealth = (url: string, exited: Promise<unknown>) => waitForOk(`${url}/healthz`, { attempts: 300, delayMs: 100, exited });

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 1 });
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((service) => service.stop()));
});

afterAll(async () => {
  await anvil?.stop();
});

describe('the logs service process', () => {
  it('when an RPC is unreachable, then a failed call logs one line with its cause beside its access line, no stack', async () => {
    const [port, dead] = (await freePorts(2)) as [number, number];
    const service = startService({ PORT: String(port), LOGS_RPC_ETHEREUM: anvil.url, LOGS_RPC_BASE: `http://127.0.0.1:${dead}` });
    try {
      await waitForHealth(`http://127.0.0.1:${port}`, service.exited);
      const res = await fetch(`http://127.0.0.1:${port}/v1/logs?chain=base`, { headers: { 'x-request-id': 'rpc-down-1' } });
      expect(res.status).toBe(502);
    } finally {
      service.child.kill('SIGTERM');
    }
    expect(await service.exited).toBe(0);
    const entries = service.output().trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    // At warn level: the start-up chain-id warning, then the call's cause line and its access line.
    expect(entries.map((e) => e.msg).sort()).toEqual(['LOGS_RPC_BASE did not answer eth_chainId at start; requests will report it', 'request errored', 'the Base RPC is unreachable']);
    expect(entries.find((e) => e.request_id === 'rpc-down-1')).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', cause: { host: `127.0.0.1:${dead}` } });
    for (const line of service.output().trim().split('\n')) {
      expect(line).not.toMatch(/"stack"|Request body|Version: viem/);
      expect(line.length).toBeLessThan(800);
    }
  });

  it('when started against anvil, then it serves logs and stops on SIGTERM', async () => {
    const port = await freePort();
    const service = startService({ PORT: String(port), LOGS_RPC_ETHEREUM: anvil.url });
    try {
      await waitForHealth(`http://127.0.0.1:${port}`, service.exited);
      const res = await fetch(`http://127.0.0.1:${port}/v1/logs?chain=ethereum&from_block=0`);
      const body = (await res.json()) as { success: boolean; data: { to_block: number } };
      expect(res.status).toBe(200);
      expect(body.success).toBe(true);
    } finally {
      service.child.kill('SIGTERM');
    }
    expect(await service.exited).toBe(0);
  });

  it('when an overridden RPC is another chain, then it exits 1 with one line naming the variable', async () => {
    const other = await startAnvil({ chainId: 31337 });
    try {
      const service = startService({ PORT: '0', LOGS_RPC_BASE: other.url });
      expect(await service.exited).toBe(1);
      expect(service.output().trim()).toBe('logs: LOGS_RPC_BASE points at chain id 31337, but Base is chain id 8453');
    } finally {
      await other.stop();
    }
  });

  it('when a variable is bad, then it exits 1 naming it', async () => {
    const service = startService({ LOGS_MAX_BLOCK_RANGE: 'lots' });
    expect(await service.exited).toBe(1);
    expect(service.output()).toMatch(/^logs: LOGS_MAX_BLOCK_RANGE must be an integer/);
  });

  it('when the port is taken, then it exits 1 with one line', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = holder.address() as { port: number };
      const service = startService({ PORT: String(port), LOGS_RPC_ETHEREUM: anvil.url });
      expect(await service.exited).toBe(1);
      expect(service.output().trim()).toMatch(/^logs: .*EADDRINUSE[^\n]*$/);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
