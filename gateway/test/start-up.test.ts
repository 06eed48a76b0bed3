import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { runGatewayScript } from './support/gateway-process';

describe('gateway start-up failures', () => {
  let taken: Server;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => taken.close(resolve)));

  it.each([
    ['PORT', (port: number) => ({ PORT: String(port) }), (port: number) => `gateway: port ${port} is already in use; set PORT to a free one\n`],
    ['METRICS_PORT', (port: number) => ({ PORT: '0', METRICS_PORT: String(port) }), (port: number) => `gateway: METRICS_PORT ${port} cannot be used: the port is taken\n`],
  ])('when %s is taken, then one line names it and the exit code is 1', async (_name, env, line) => {
    const port = (taken.address() as AddressInfo).port;
    const result = await runGatewayScript('src/main.ts', [], { ...env(port), LOG_LEVEL: 'silent', STORE_PATH: ':memory:' });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(line(port));
  }, 30_000);
});
